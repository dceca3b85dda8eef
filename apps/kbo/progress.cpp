// Progress of a run on stderr (see progress.hpp).
#include "progress.hpp"

#include "kbo/storage/stored_text.hpp"

#include <algorithm>
#include <cstdio>

namespace kbo::cli {

namespace {

std::string clock_text(double seconds) {
  const long long s = seconds < 0 ? 0 : static_cast<long long>(seconds);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%02lld:%02lld", s / 60, s % 60);
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// A duration for people: "0.42 s", "12.3 s", then "01:05".
std::string duration_text(double s) {
  char buf[32];
  if (s < 10) std::snprintf(buf, sizeof buf, "%.2f s", s);
  else if (s < 60) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else return clock_text(s);
  return buf;
}

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

RunProgress::RunProgress(bool terminal, int total, int finished_before, bool minimize)
    : terminal_(terminal), total_(total), minimize_(minimize), start_(Clock::now()), finished_before_(finished_before),
      finished_(finished_before) {
  if (terminal_) ticker_ = std::thread([this] { tick(); });
}

RunProgress::~RunProgress() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  clear();
}

void RunProgress::clear() {
  std::lock_guard lock(mutex_);
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
  std::fflush(stderr);
}

void RunProgress::started(int trial_id) {
  std::lock_guard lock(mutex_);
  running_[trial_id] = Clock::now();
  if (terminal_) draw();
}

std::string RunProgress::rate_and_best(Clock::time_point now) const {
  std::string out = "elapsed " + clock_text(seconds(now - start_));
  const int done_here = finished_ - finished_before_;
  if (done_here > 0) {
    const double per = seconds(now - start_) / done_here;
    out += ", " + duration_text(per) + "/trial";
    if (finished_ < total_) out += ", ETA " + clock_text(per * (total_ - finished_));
  }
  if (best_) out += " | best " + number_text(*best_->value) + " (trial " + std::to_string(best_->id) + ")";
  return out;
}

std::string RunProgress::status_line(Clock::time_point now) const {
  std::string out = "[" + std::to_string(finished_) + "/" + std::to_string(total_) + "]";
  if (running_.size() == 1) {
    out += " trial " + std::to_string(running_.begin()->first) + " running " +
           clock_text(seconds(now - running_.begin()->second));
  } else if (!running_.empty()) {
    out += " " + std::to_string(running_.size()) + " running:";
    int shown = 0;
    for (const auto& [id, since] : running_) {
      if (shown++ == 3) {
        out += " …";
        break;
      }
      out += " " + std::to_string(id) + " (" + clock_text(seconds(now - since)) + ")";
    }
  }
  return out + " | " + rate_and_best(now);
}

void RunProgress::draw() {
  std::fprintf(stderr, "\r%s\033[K", status_line(Clock::now()).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void RunProgress::tick() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::seconds(1), [&] { return stop_; });
    if (!stop_) draw();
  }
}

void RunProgress::finished(const Trial& t, int finished, const std::optional<Trial>& best) {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  const auto it = running_.find(t.id);
  const std::optional<double> took = it == running_.end() ? std::nullopt : std::optional(seconds(now - it->second));
  if (it != running_.end()) running_.erase(it);
  finished_ = finished;
  best_ = best;
  if (terminal_) {
    draw();
    return;
  }
  std::string shown;  // the value, or every value of a study with several objectives
  if (t.state == TrialState::Complete) {
    shown = t.values.empty() ? number_text(*t.value) : "";
    for (double v : t.values) shown += (shown.empty() ? "" : ", ") + number_text(v);
  }
  std::string what = t.state == TrialState::Complete ? "complete " + shown : "failed";
  if (took) what += " in " + duration_text(*took);
  if (t.state == TrialState::Failed) what += " (" + terminal_text(t.reason) + ")";
  std::fprintf(stderr, "[%d/%d] trial %d %s | %s\n", finished_, total_, t.id, what.c_str(), rate_and_best(now).c_str());
  std::fflush(stderr);
}

void RunProgress::observe(const std::vector<Trial>& trials) {
  std::vector<Trial> newly;
  int n_finished = 0;
  {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    for (const auto& t : trials) {
      if (!counts_toward_budget(t)) continue;
      if (t.state == TrialState::Pending) {
        if (pending_phase(t) == PendingPhase::Running) running_.try_emplace(t.id, now);
        continue;
      }
      ++n_finished;
      if (seen_finished_.emplace(t.id, true).second && observed_once_) newly.push_back(t);
    }
    // Only trials that are pending and running now stay in the running list.
    for (auto it = running_.begin(); it != running_.end();) {
      const bool running = it->first < static_cast<int>(trials.size()) &&
                           trials[it->first].state == TrialState::Pending &&
                           pending_phase(trials[it->first]) == PendingPhase::Running;
      const bool reported_below = std::any_of(newly.begin(), newly.end(), [&](const Trial& n) { return n.id == it->first; });
      it = running || reported_below ? std::next(it) : running_.erase(it);
    }
    if (!observed_once_) finished_before_ = finished_ = n_finished;
    observed_once_ = true;
  }
  // Each new trial is reported with the best among those finished up to it.
  auto better = [&](const Trial& a, const std::optional<Trial>& b) {
    return a.state == TrialState::Complete && a.values.empty() && (!b || (minimize_ ? *a.value < *b->value : *a.value > *b->value));
  };
  std::optional<Trial> best;
  for (const auto& t : trials) {
    const bool is_new = std::any_of(newly.begin(), newly.end(), [&](const Trial& n) { return n.id == t.id; });
    if (!is_new && better(t, best)) best = t;
  }
  int count = n_finished - static_cast<int>(newly.size());
  for (const auto& t : newly) {
    if (better(t, best)) best = t;
    finished(t, ++count, best);
  }
  if (newly.empty() && terminal_) {
    std::lock_guard lock(mutex_);
    finished_ = n_finished;
    draw();
  }
}

}  // namespace kbo::cli
