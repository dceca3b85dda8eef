// External objective commands (see include/kbo/objective.hpp).
#include "kbo/study/objective.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

#include "kbo/core/error.hpp"

namespace kbo {

namespace {

using Clock = std::chrono::steady_clock;

std::string format_number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

std::string substitute(std::string cmd, const Trial& trial) {
  std::string coords;
  for (Eigen::Index i = 0; i < trial.x.size(); ++i) coords += (i ? " " : "") + format_number(trial.x(i));
  for (auto [key, val] : {std::pair<std::string, std::string>{"{x}", coords}, {"{trial}", std::to_string(trial.id)}}) {
    for (std::size_t pos = cmd.find(key); pos != std::string::npos; pos = cmd.find(key, pos + val.size()))
      cmd.replace(pos, key.size(), val);
  }
  return cmd;
}

std::string last_nonempty_line(const std::string& out) {
  std::size_t end = out.size();
  while (end > 0) {
    std::size_t start = out.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string line = out.substr(start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
    if (start == 0) break;
    end = start - 1;
  }
  return "";
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

Evaluation parse_value_line(const std::string& raw) {
  const auto b = raw.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return Evaluation::failed("no output on stdout (expected a number on the last line)");
  const auto e = raw.find_last_not_of(" \t\r\n");
  const std::string text = raw.substr(b, e - b + 1);
  const std::string shown = text.size() > 80 ? text.substr(0, 80) + "..." : text;
  errno = 0;
  char* endp = nullptr;
  const double v = std::strtod(text.c_str(), &endp);
  if (endp == text.c_str() || *endp != '\0') return Evaluation::failed("last line of stdout is not a number: '" + shown + "'");
  if (!std::isfinite(v)) return Evaluation::failed("non-finite value '" + shown + "'");
  return Evaluation::ok(v);
}

ExternalObjective::ExternalObjective(std::string command, double timeout_seconds)
    : command_(std::move(command)), timeout_(timeout_seconds) {
  if (command_.find_first_not_of(" \t") == std::string::npos) throw InputError("--objective must not be empty");
  if (!(timeout_ >= 0.0) || !std::isfinite(timeout_))
    throw InputError("--eval-timeout must be a number of seconds >= 0 (0: no limit)");
  // A command that exits without reading stdin must not kill us with SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
}

Evaluation ExternalObjective::operator()(const Trial& trial) const {
  const std::string cmd = substitute(command_, trial);
  nlohmann::json payload = {{"trial", trial.id}, {"x", std::vector<double>(trial.x.data(), trial.x.data() + trial.x.size())}};
  const std::string input = payload.dump() + "\n";

  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return Evaluation::failed(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return Evaluation::failed(std::string("pipe: ") + std::strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return Evaluation::failed(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Child: own process group (so a timeout kills everything it started), pipes on stdin/stdout.
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also in the parent: no race with the kill below
  int to_child = in_pipe[1], from_child = out_pipe[0];
  close(in_pipe[0]);
  close(out_pipe[1]);
  fcntl(to_child, F_SETFL, fcntl(to_child, F_GETFL) | O_NONBLOCK);

  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_));
  auto ms_left = [&]() -> int {
    if (timeout_ <= 0.0) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(std::min<long long>(left, 1 << 30)) : 0;
  };

  std::string output;
  std::size_t written = 0;
  bool timed_out = false;
  char buf[65536];
  while (from_child >= 0) {
    pollfd fds[2];
    int n = 0;
    fds[n++] = {from_child, POLLIN, 0};
    if (to_child >= 0) fds[n++] = {to_child, POLLOUT, 0};
    const int wait_ms = ms_left();
    if (timeout_ > 0.0 && wait_ms == 0) { timed_out = true; break; }
    const int rc = poll(fds, n, wait_ms);
    if (rc < 0 && errno == EINTR) continue;
    if (rc == 0) { timed_out = true; break; }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t got = read(from_child, buf, sizeof(buf));
      if (got > 0) {
        output.append(buf, static_cast<std::size_t>(got));
        if (output.size() > (1u << 20)) output.erase(0, output.size() - (1u << 16));  // keep the tail
      } else if (got == 0 || errno != EINTR) {
        close_fd(from_child);
      }
    }
    if (n == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t put = write(to_child, input.data() + written, input.size() - written);
      if (put > 0) written += static_cast<std::size_t>(put);
      if (put < 0 && errno != EAGAIN && errno != EINTR) close_fd(to_child);  // EPIPE: not reading stdin
      if (written == input.size()) close_fd(to_child);
    }
  }
  close_fd(to_child);
  close_fd(from_child);

  // stdout closed; wait for the exit status within what remains of the timeout.
  int status = 0;
  for (;;) {
    if (timed_out) break;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return Evaluation::failed(std::string("waitpid: ") + std::strerror(errno));
    if (timeout_ > 0.0 && ms_left() == 0) { timed_out = true; break; }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (timed_out) {
    kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return Evaluation::failed("timeout after " + format_number(timeout_) + " s (process group killed)");
  }
  if (WIFSIGNALED(status)) return Evaluation::failed("killed by signal " + std::to_string(WTERMSIG(status)));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return Evaluation::failed("exit status " + std::to_string(WEXITSTATUS(status)));
  return parse_value_line(last_nonempty_line(output));
}

}  // namespace kbo
