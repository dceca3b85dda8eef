// Local worker processes (see include/kbo/storage/worker_processes.hpp).
#include "kbo/study/worker_processes.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace kbo {

pid_t spawn_self(const std::vector<std::string>& args) {
  std::vector<std::string> all;
  all.push_back("kbo");
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);  // our stdout stays clean (--json)
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error(std::string("cannot start a kbo worker process: ") + std::strerror(rc));
  return pid;
}

int wait_process(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

pid_t wait_any(int& code) {
  int status = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &status, 0)) < 0) {
    if (errno != EINTR) return -1;
  }
  code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return pid;
}

pid_t try_wait_any(int& code) {
  int status = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) < 0) {
    if (errno != EINTR) return -1;
  }
  if (pid > 0) code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return pid;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string command_from_words(const std::vector<std::string>& words) {
  if (words.size() == 1) return words[0];
  std::string cmd;
  for (const auto& w : words) cmd += (cmd.empty() ? "" : " ") + shell_quote(w);
  return cmd;
}

}  // namespace kbo
