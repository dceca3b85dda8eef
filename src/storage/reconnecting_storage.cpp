// Retries of storage calls across a lost server connection (see include/kbo/storage/reconnecting.hpp).
#include "kbo/storage/reconnecting.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <sstream>
#include <thread>

#include "kbo/core/error.hpp"
#include "kbo/storage/stored_text.hpp"

namespace kbo {

namespace {
std::atomic<void (*)()> g_wait_check{nullptr};

/// Sleeps `seconds` in slices of at most 0.1 s, calling the wait check before each (it may throw).
void interruptible_sleep(double seconds) {
  using Clock = std::chrono::steady_clock;
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (auto now = Clock::now(); now < until; now = Clock::now()) {
    if (auto check = g_wait_check.load()) check();
    std::this_thread::sleep_for(std::min<Clock::duration>(until - now, std::chrono::milliseconds(100)));
  }
}
}  // namespace

void set_reconnect_wait_check(void (*check)()) { g_wait_check.store(check); }

double reconnect_seconds() {
  static const double seconds = [] {
    const char* v = std::getenv("KBO_TEST_RECONNECT_SECONDS");
    const double d = v ? std::atof(v) : 0.0;
    return std::isfinite(d) && d > 0.0 ? d : kReconnectSeconds;
  }();
  return seconds;
}

ReconnectingStorage::ReconnectingStorage(std::shared_ptr<Storage> inner, double give_up_after)
    : inner_(std::move(inner)), give_up_after_(give_up_after) {}

template <class F>
auto ReconnectingStorage::retry(const F& body) -> decltype(body(0)) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  double wait = 0.1;
  for (int attempt = 0;; ++attempt) {
    try {
      return body(attempt);
    } catch (const ConnectionLost& e) {
      const double waited = std::chrono::duration<double>(Clock::now() - start).count();
      if (waited + wait > give_up_after_) {
        std::ostringstream msg;
        msg << e.what() << " (the connection stayed broken for " << static_cast<int>(waited)
            << " s; kbo waits at most " << give_up_after_ << " s): re-run the same command to resume";
        throw StorageError(msg.str());
      }
      interruptible_sleep(wait);
      wait = std::min(2.0 * wait, 5.0);
    }
  }
}

StudyRecord ReconnectingStorage::create_study_if_absent(const StudyRecord& wanted) {
  return retry([&](int) { return inner_->create_study_if_absent(wanted); });
}

std::optional<StudyRecord> ReconnectingStorage::load_study(const std::string& name) {
  return retry([&](int) { return inner_->load_study(name); });
}

std::vector<std::string> ReconnectingStorage::study_names() {
  return retry([&](int) { return inner_->study_names(); });
}

void ReconnectingStorage::update_study_config(const std::string& name, const nlohmann::json& config) {
  retry([&](int) { inner_->update_study_config(name, config); });
}

void ReconnectingStorage::update_study_budget(const std::string& name, std::optional<int> budget) {
  retry([&](int) { inner_->update_study_budget(name, budget); });
}

Trial ReconnectingStorage::ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) {
  const double started = unix_now();
  return retry([&](int attempt) {
    if (attempt > 0) {
      // The first attempt may have committed before its connection broke: then its trial is ours.
      for (const Trial& t : inner_->trials(study))
        if (t.state == TrialState::Pending && t.worker == worker && t.created_at >= started) return t;
    }
    return inner_->ask(study, suggest, worker);
  });
}

std::optional<Trial> ReconnectingStorage::claim_pending(const std::string& study, const TrialPredicate& claimable,
                                                        const std::string& worker, bool running) {
  return retry([&](int) { return inner_->claim_pending(study, claimable, worker, running); });
}

Trial ReconnectingStorage::finish(const std::string& study, int trial_id, TrialState state,
                                  std::optional<double> value, const std::string& reason, const Teller& by,
                                  const std::vector<double>& constraints, const std::vector<double>& values,
                                  std::optional<double> sem) {
  return retry([&](int attempt) {
    if (attempt > 0) {
      // Already finished as asked by the first attempt (its COMMIT went through): done, not an error.
      for (const Trial& t : inner_->trials(study))
        if (t.id == trial_id && t.state == state &&
            (state == TrialState::Complete ? t.value == value : t.reason == stored_reason(reason)))
          return t;
    }
    return inner_->finish(study, trial_id, state, value, reason, by, constraints, values, sem);
  });
}

std::vector<Trial> ReconnectingStorage::add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                                      const std::string& worker) {
  const double started = unix_now();
  return retry([&](int attempt) {
    if (attempt > 0) {
      // The first attempt may have committed before its connection broke: then these rows are ours.
      std::vector<Trial> ours;
      for (const Trial& t : inner_->trials(study))
        if (t.state == TrialState::Complete && t.worker == worker && t.created_at >= started) ours.push_back(t);
      if (ours.size() == rows.size()) return ours;
    }
    return inner_->add_completed(study, rows, worker);
  });
}

// Both are one idempotent statement: repeating one whose COMMIT went through changes nothing.
bool ReconnectingStorage::set_lease(const std::string& study, int trial_id, double lease_until) {
  return retry([&](int) { return inner_->set_lease(study, trial_id, lease_until); });
}

bool ReconnectingStorage::set_info(const std::string& study, int trial_id, const nlohmann::json& info) {
  return retry([&](int) { return inner_->set_info(study, trial_id, info); });  // idempotent
}

bool ReconnectingStorage::release(const std::string& study, int trial_id, const std::string& worker) {
  return retry([&](int) { return inner_->release(study, trial_id, worker); });
}

bool ReconnectingStorage::heartbeat(const std::string& study, int trial_id, const std::string& worker) {
  return retry([&](int) { return inner_->heartbeat(study, trial_id, worker); });
}

std::vector<Trial> ReconnectingStorage::reap_lost(const std::string& study, double stale_after, double now,
                                                  const TrialPredicate& lost) {
  return retry([&](int) { return inner_->reap_lost(study, stale_after, now, lost); });
}

std::vector<Trial> ReconnectingStorage::trials(const std::string& study) {
  return retry([&](int) { return inner_->trials(study); });
}

nlohmann::json ReconnectingStorage::load_model_state(const std::string& study) {
  return retry([&](int) { return inner_->load_model_state(study); });
}

// One idempotent upsert.
void ReconnectingStorage::save_model_state(const std::string& study, const nlohmann::json& state) {
  retry([&](int) { inner_->save_model_state(study, state); });
}

}  // namespace kbo
