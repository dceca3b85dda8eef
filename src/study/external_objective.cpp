// External objective commands (see include/kbo/objective.hpp).
#include "kbo/study/objective.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstring>
#include <sstream>
#include <thread>

#include "kbo/core/error.hpp"
#include "kbo/storage/stored_text.hpp"
#include "kbo/study/interrupt.hpp"

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

/// The last non-empty line of the objective's stderr, trimmed and shortened, for failure reasons.
std::string stderr_line(const std::string& err) {
  std::string line = last_nonempty_line(err);
  const auto b = line.find_first_not_of(" \t\r");
  const auto e = line.find_last_not_of(" \t\r");
  line = b == std::string::npos ? "" : line.substr(b, e - b + 1);
  return stored_text(line, 300);  // any bytes (a Latin-1 "ü"): valid UTF-8, cut at a character, marked
}

constexpr std::size_t kKeepOutput = 16u << 20;  // stdout kept (its tail) to find the value line (a JSON line may be long)
constexpr std::size_t kKeepStderr = 1u << 14;  // stderr tail kept for the failure reason

/// Reads what `fd` (non-blocking) has now; appends it to `out` (keeping its tail of `keep` bytes) and, if
/// `echo` >= 0, copies it there. Closes `fd` at end of file or on error. Returns the bytes read. Sets `*cut` once
/// the head of `out` was dropped.
std::size_t read_available(int& fd, std::string& out, std::size_t keep, int echo, std::size_t limit,
                           bool* cut = nullptr) {
  char buf[65536];
  std::size_t total = 0;
  while (fd >= 0 && total < limit) {
    const ssize_t got = read(fd, buf, sizeof(buf));
    if (got > 0) {
      total += static_cast<std::size_t>(got);
      out.append(buf, static_cast<std::size_t>(got));
      if (out.size() > 2 * keep) {
        out.erase(0, out.size() - keep);
        if (cut) *cut = true;
      }
      if (echo >= 0) {
        [[maybe_unused]] const ssize_t w = write(echo, buf, static_cast<std::size_t>(got));
      }
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && errno == EAGAIN) {
      break;
    } else {
      close_fd(fd);
    }
  }
  return total;
}

/// True once `pid` has exited (it stays a zombie: its process group id cannot be reused until waitpid).
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace

Evaluation parse_value_line(const std::string& raw) {
  const auto b = raw.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return Evaluation::failed("no output on stdout (expected a number on the last line)");
  const auto e = raw.find_last_not_of(" \t\r\n");
  const std::string text = raw.substr(b, e - b + 1);
  const std::string shown = text.size() > 80 ? text.substr(0, 80) + "..." : text;
  if (text.front() == '{') {
    // {"value": v} or, with several objectives, {"values": [v1, v2, …]} (other keys are the objective's own
    // and ignored).
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    std::vector<double> values;
    if (j.is_object() && j.contains("values") && !j.contains("value")) {
      const auto& vs = j["values"];
      if (!vs.is_array() || vs.empty())
        return Evaluation::failed("\"values\" must be a non-empty list of numbers: '" + terminal_text(shown) + "'");
      for (const auto& v : vs) {
        if (!v.is_number()) return Evaluation::failed("\"values\" must be a list of numbers: '" + terminal_text(shown) + "'");
        if (!std::isfinite(v.get<double>())) return Evaluation::failed("non-finite value in '" + terminal_text(shown) + "'");
        values.push_back(v.get<double>());
      }
    } else if (!j.is_object() || !j.contains("value") || !j["value"].is_number()) {
      return Evaluation::failed("last line of stdout is not a number nor a JSON object {\"value\": number} or "
                                "{\"values\": [numbers]}: '" + terminal_text(shown) + "'");
    }
    const double v = values.empty() ? j["value"].get<double>() : values.front();
    if (!std::isfinite(v)) return Evaluation::failed("non-finite value '" + shown + "'");
    Evaluation ev = Evaluation::ok(v);
    ev.values = std::move(values);
    // {"value": v, "sem": s}: the standard error of v (null: none). Anything but a finite number >= 0 is
    // checked by the study (Study::check_sem), which stops the run with the objective's error.
    if (j.contains("sem") && !j["sem"].is_null())
      ev.sem = j["sem"].is_number() ? j["sem"].get<double>() : std::numeric_limits<double>::quiet_NaN();
    if (j.contains("constraints")) {
      // {"value": v, "constraints": [c1, ...]}: feasible iff every c_i <= 0.
      const auto& c = j["constraints"];
      if (!c.is_array()) return Evaluation::failed("\"constraints\" must be a list of numbers: '" + shown + "'");
      for (const auto& ci : c) {
        if (!ci.is_number() || !std::isfinite(ci.get<double>()))
          return Evaluation::failed("\"constraints\" must be a list of finite numbers: '" + shown + "'");
        ev.constraints.push_back(ci.get<double>());
      }
    }
    return ev;
  }
  errno = 0;
  char* endp = nullptr;
  const double v = std::strtod(text.c_str(), &endp);
  // The whole line is the number: strtod stops at a NUL byte, so "1.5\0garbage" must not read as 1.5.
  if (endp != text.c_str() + text.size())
    return Evaluation::failed("last line of stdout is not a number: '" + terminal_text(shown) + "'");
  if (!std::isfinite(v)) return Evaluation::failed("non-finite value '" + shown + "'");
  return Evaluation::ok(v);
}

ExternalObjective::ExternalObjective(std::string command, double timeout_seconds, std::shared_ptr<const Space> space)
    : command_(std::move(command)), timeout_(timeout_seconds), space_(std::move(space)) {
  if (command_.find_first_not_of(" \t") == std::string::npos) throw InputError("--objective must not be empty");
  if (!(timeout_ >= 0.0) || !std::isfinite(timeout_))
    throw InputError("--eval-timeout must be a number of seconds >= 0 (0: no limit)");
  // A command that exits without reading stdin must not kill us with SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
}

Evaluation ExternalObjective::operator()(const Trial& trial) const {
  if (stop_requested()) return Evaluation::stopped();
  const std::string cmd = substitute(command_, trial);
  nlohmann::json payload = {{"trial", trial.id}, {"x", std::vector<double>(trial.x.data(), trial.x.data() + trial.x.size())}};
  if (space_)
    if (nlohmann::json named = space_->named(trial.x); !named.is_null()) payload["params"] = std::move(named);
  const std::string input = payload.dump() + "\n";

  int pipes[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // stdin, stdout, stderr of the child
  auto close_pipes = [&] {
    for (auto& p : pipes)
      for (int& fd : p) close_fd(fd);
  };
  for (auto& p : pipes) {
    if (pipe2(p, O_CLOEXEC) != 0) {
      const std::string why = std::strerror(errno);
      close_pipes();
      return Evaluation::failed("pipe: " + why);
    }
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const std::string why = std::strerror(errno);
    close_pipes();
    return Evaluation::failed("fork: " + why);
  }
  if (pid == 0) {
    // Child: own process group (so a timeout or an interrupt kills everything it started), pipes on
    // stdin/stdout/stderr.
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    dup2(pipes[0][0], STDIN_FILENO);
    dup2(pipes[1][1], STDOUT_FILENO);
    dup2(pipes[2][1], STDERR_FILENO);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also in the parent: no race with the kill below
  close_fd(pipes[0][0]);
  close_fd(pipes[1][1]);
  close_fd(pipes[2][1]);
  int& to_child = pipes[0][1];
  int& from_out = pipes[1][0];
  int& from_err = pipes[2][0];
  for (int fd : {to_child, from_out, from_err}) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  // The objective's end is its process's exit, not the end of its stdout: a background child may keep
  // stdout open (and print later), which must neither hang the trial nor supply its value.
  int exit_fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));  // -1 without pidfd (Linux < 5.3): poll in steps

  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_));
  auto ms_left = [&]() -> int {
    if (timeout_ <= 0.0) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(std::min<long long>(left, 1 << 30)) : 0;
  };

  std::string output, errors;
  bool output_cut = false;  // the head of `output` was dropped (more than kKeepOutput bytes on stdout)
  std::size_t written = 0;
  bool exited = false, timed_out = false, interrupted = false;
  std::string poll_error;
  while (!exited) {
    pollfd fds[5];
    int n = 0, i_out = -1, i_err = -1, i_in = -1, i_exit = -1, i_stop = -1;
    if (from_out >= 0) { i_out = n; fds[n++] = {from_out, POLLIN, 0}; }
    if (from_err >= 0) { i_err = n; fds[n++] = {from_err, POLLIN, 0}; }
    if (to_child >= 0) { i_in = n; fds[n++] = {to_child, POLLOUT, 0}; }
    if (exit_fd >= 0) { i_exit = n; fds[n++] = {exit_fd, POLLIN, 0}; }
    if (stop_fd() >= 0) { i_stop = n; fds[n++] = {stop_fd(), POLLIN, 0}; }
    int wait_ms = ms_left();
    if (timeout_ > 0.0 && wait_ms == 0) { timed_out = true; break; }
    if (exit_fd < 0) wait_ms = wait_ms < 0 ? 10 : std::min(wait_ms, 10);
    const int rc = poll(fds, static_cast<nfds_t>(n), wait_ms);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) { poll_error = std::string("poll: ") + std::strerror(errno); break; }
    auto ready = [&](int i, short events) { return i >= 0 && (fds[i].revents & events); };
    if (ready(i_out, POLLIN | POLLHUP | POLLERR)) read_available(from_out, output, kKeepOutput, -1, 1u << 20, &output_cut);
    if (ready(i_err, POLLIN | POLLHUP | POLLERR)) read_available(from_err, errors, kKeepStderr, STDERR_FILENO, 1u << 20);
    if (ready(i_in, POLLOUT | POLLERR | POLLHUP)) {
      const ssize_t put = write(to_child, input.data() + written, input.size() - written);
      if (put > 0) written += static_cast<std::size_t>(put);
      if (put < 0 && errno != EAGAIN && errno != EINTR) close_fd(to_child);  // EPIPE: not reading stdin
      if (written == input.size()) close_fd(to_child);
    }
    if (ready(i_stop, POLLIN) || stop_requested()) { interrupted = true; break; }
    exited = exit_fd >= 0 ? ready(i_exit, POLLIN) : has_exited(pid);
  }
  if (exited) {
    // What it printed before exiting is in the pipes now; take that and nothing written later.
    read_available(from_out, output, kKeepOutput, -1, 4u << 20, &output_cut);
    read_available(from_err, errors, kKeepStderr, STDERR_FILENO, 4u << 20);
  } else if (interrupted) {
    // Ask politely, then (below) make sure: the objective may clean up within a short grace period.
    kill(-pid, SIGTERM);
    for (int waited = 0; waited < 2000 && !has_exited(pid); waited += 10) usleep(10000);
  }
  // Whatever is left of its process group goes: background children of a finished objective, everything
  // on timeout or interrupt. The process itself is not reaped yet, so the group id is still ours.
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  close_pipes();
  close_fd(exit_fd);

  const std::string why = stderr_line(errors);
  auto with_stderr = [&](std::string reason) { return why.empty() ? reason : reason + ": " + why; };
  if (interrupted) return Evaluation::stopped();
  if (!poll_error.empty()) return Evaluation::failed(poll_error);
  if (timed_out) return Evaluation::failed(with_stderr("timeout after " + format_number(timeout_) + " s (process group killed)"));
  if (WIFSIGNALED(status)) return Evaluation::failed(with_stderr("killed by signal " + std::to_string(WTERMSIG(status))));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    const int code = WEXITSTATUS(status);
    // 126: found but not executable, 127: not found (sh's convention): no point can ever succeed.
    if (code == 126 || code == 127) return Evaluation::not_runnable(with_stderr("exit status " + std::to_string(code)));
    return Evaluation::failed(with_stderr("exit status " + std::to_string(code)));
  }
  const std::string last = last_nonempty_line(output);
  if (output_cut && output.rfind(last) == 0)  // the line began before the kept tail
    return Evaluation::failed(with_stderr("the last line of stdout is longer than " +
                                          std::to_string(kKeepOutput >> 20) + " MB"));
  Evaluation ev = parse_value_line(last);
  if (!ev.value) ev.reason = with_stderr(ev.reason);
  return ev;
}

}  // namespace kbo
