// Stop requests from signals (see include/kbo/study/interrupt.hpp).
#include "kbo/study/interrupt.hpp"

#include "kbo/storage/reconnecting.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace kbo {

namespace {

std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};  // self-pipe: the handler writes one byte, pollers see the read end readable
constexpr int kMaxChildren = 4096;
pid_t g_children[kMaxChildren];
std::atomic<int> g_n_children{0};

void on_signal(int sig) { request_stop(sig); }

}  // namespace

void request_stop(int sig) {
  const int saved = errno;  // a handler must not clobber the errno of the code it interrupted
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
  if (g_pipe[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t w = write(g_pipe[1], &byte, 1);
  }
  const int n = g_n_children.load();
  for (int i = 0; i < n; ++i) kill(g_children[i], sig);
  errno = saved;
}

int stop_requested() { return g_signal.load(); }

int stop_fd() { return g_pipe[0]; }

void forward_stop_to(pid_t child) {
  const int i = g_n_children.load();
  if (i >= kMaxChildren) return;
  g_children[i] = child;
  g_n_children.store(i + 1);  // published after the pid is written: the handler never reads a stale slot
  if (const int sig = g_signal.load()) kill(child, sig);  // a stop that came before the child existed
}

void install_stop_signals() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // storage calls resume; loops notice the flag (or the pipe) themselves
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  // A stop during a database outage ends the reconnect wait at once (the trial's lease or heartbeat lets
  // the study re-offer it) instead of after the backoff.
  set_reconnect_wait_check([] {
    if (const int sig = stop_requested()) throw Interrupted(sig);
  });
}

}  // namespace kbo
