// Worker identities: which process asked for a trial, so that a re-run can take over the trials a
// killed run left pending.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>

#include "kbo/study/study.hpp"

namespace kbo {

namespace {
std::string hostname() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "localhost";
  return buf;
}
}  // namespace

std::string worker_id(const std::string& role) { return role + "@" + hostname() + ":" + std::to_string(getpid()); }

bool is_dead_local_worker(const std::string& worker, const std::string& role) {
  const std::string prefix = role + "@" + hostname() + ":";
  if (worker.rfind(prefix, 0) != 0) return false;
  const std::string pid_text = worker.substr(prefix.size());
  if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) return false;
  const long pid = std::stol(pid_text);
  if (pid <= 0 || pid == static_cast<long>(getpid())) return false;
  // kill(pid, 0) probes existence; ESRCH means no such process (EPERM: alive, owned by someone else).
  return kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace kbo
