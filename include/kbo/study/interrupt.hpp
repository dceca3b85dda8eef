#pragma once
// Stop requests (Ctrl-C, SIGTERM, SIGHUP). The CLI turns those signals into one process-wide flag that the
// study loop checks between steps and that an external objective watches (stop_fd) while it runs, so an
// interrupted run kills the objective's process group, hands its running trial back to the study (the next
// run takes it, same id and point) and exits with the conventional status 128 + signal.
#include <sys/types.h>

#include <stdexcept>
#include <string>

namespace kbo {

/// Routes SIGINT, SIGTERM and SIGHUP to request_stop (idempotent). Children started later with
/// forward_stop_to receive the same signal.
void install_stop_signals();
/// Records a stop (the first signal wins) and forwards it to the registered children. Async-signal-safe.
void request_stop(int signal);
/// The signal of the stop request, 0 if none.
int stop_requested();
/// A descriptor that becomes readable once a stop is requested (poll it next to other work); -1 before
/// install_stop_signals.
int stop_fd();
/// Registers a child process to receive the stop signal too (`kbo optimize --workers N`; at most 4096).
void forward_stop_to(pid_t child);

/// Thrown by Study::work after a stop request, once the running trial has been handed back.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal)
      : std::runtime_error("interrupted by signal " + std::to_string(signal)), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

}  // namespace kbo
