#pragma once
// Progress of `kbo optimize` on stderr. On a terminal: one status line redrawn in place every second —
// the running trial(s) and for how long, trials finished of the budget, elapsed time, time per trial, ETA
// and the best value so far — so a long first evaluation is visibly alive. Elsewhere (pipes, logs): one
// line per finished trial, nothing in between.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kbo/study/trial.hpp"

namespace kbo::cli {

class RunProgress {
 public:
  /// `total`: the budget; `finished_before`: trials already finished when the run starts (a resume).
  RunProgress(bool terminal, int total, int finished_before, bool minimize);
  ~RunProgress();  // stops the ticker; ends the status line
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  /// In-process runs: trial `id` starts being evaluated now.
  void started(int trial_id);
  /// A trial finished (committed): `finished` of the budget are finished now; `best` is the best so far.
  void finished(const Trial& t, int finished, const std::optional<Trial>& best);
  /// Runs with worker processes: the study's trials as polled now; reports what changed since the last call.
  void observe(const std::vector<Trial>& trials);
  /// Erases the status line, so that a message can follow on a clean line.
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  std::string status_line(Clock::time_point now) const;  // callers hold mutex_
  std::string rate_and_best(Clock::time_point now) const;
  void draw();
  void tick();

  const bool terminal_;
  const int total_;
  const bool minimize_;
  const Clock::time_point start_;
  int finished_before_;
  int finished_ = 0;
  std::optional<Trial> best_;
  std::map<int, Clock::time_point> running_;  // trial id → when we saw it start
  std::map<int, bool> seen_finished_;         // observe(): finished trials already reported
  bool observed_once_ = false;
  bool drawn_ = false;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread ticker_;
};

}  // namespace kbo::cli
