// In-process study storage (see include/kbo/storage/memory.hpp).
#include "kbo/storage/memory.hpp"

#include "kbo/core/error.hpp"
#include "kbo/storage/stored_text.hpp"

namespace kbo {

MemoryStorage::Entry& MemoryStorage::entry(const std::string& name) {
  auto it = studies_.find(name);
  if (it == studies_.end()) throw InputError("no study named '" + name + "' in memory storage");
  return it->second;
}

StudyRecord MemoryStorage::create_study_if_absent(const StudyRecord& wanted) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = studies_.try_emplace(wanted.name);
  if (inserted) {
    it->second.record = wanted;
    if (it->second.record.created_at == 0.0) it->second.record.created_at = unix_now();
  }
  return it->second.record;
}

std::optional<StudyRecord> MemoryStorage::load_study(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = studies_.find(name);
  if (it == studies_.end()) return std::nullopt;
  return it->second.record;
}

std::vector<std::string> MemoryStorage::study_names() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [name, e] : studies_) names.push_back(name);
  return names;
}

void MemoryStorage::update_study_config(const std::string& name, const nlohmann::json& config) {
  std::lock_guard lock(mutex_);
  entry(name).record.config = config;
}

Trial MemoryStorage::ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) {
  std::lock_guard lock(mutex_);
  Entry& e = entry(study);
  const std::vector<Trial> snapshot = e.trials;
  Trial t;
  t.x = suggest(snapshot);
  t.id = static_cast<int>(e.trials.size());
  t.state = TrialState::Pending;
  t.worker = worker;
  t.created_at = unix_now();
  e.trials.push_back(t);
  return t;
}

std::optional<Trial> MemoryStorage::claim_pending(const std::string& study, const TrialPredicate& claimable,
                                                  const std::string& worker, bool running) {
  std::lock_guard lock(mutex_);
  for (Trial& t : entry(study).trials) {
    if (t.state == TrialState::Pending && claimable(t)) {
      t.worker = worker;
      t.heartbeat_at = running ? unix_now() : 0.0;  // a running owner is alive: not stale before its first heartbeat
      return t;
    }
  }
  return std::nullopt;
}

Trial MemoryStorage::finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
                            const std::string& reason, const Teller& by, const std::vector<double>& constraints,
                            const std::vector<double>& values, std::optional<double> sem) {
  std::lock_guard lock(mutex_);
  Entry& e = entry(study);
  const int n = static_cast<int>(e.trials.size());
  const bool exists = trial_id >= 0 && trial_id < n;
  check_finishable(exists ? std::optional<Trial>(e.trials[trial_id]) : std::nullopt, trial_id, n, study, by,
                   unix_now());
  if (state == TrialState::Complete) check_constraint_count(first_complete(e), constraints);
  Trial& t = e.trials[trial_id];
  t.state = state;
  t.value = state == TrialState::Complete ? value : std::nullopt;
  t.reason = state == TrialState::Failed ? stored_reason(reason) : std::string();
  t.finished_at = unix_now();
  t.constraints = state == TrialState::Complete ? constraints : std::vector<double>();
  t.values = state == TrialState::Complete ? values : std::vector<double>();
  t.sem = state == TrialState::Complete ? sem : std::nullopt;
  return t;
}

std::optional<Trial> MemoryStorage::first_complete(const Entry& e) {
  for (const Trial& t : e.trials)
    if (t.state == TrialState::Complete) return t;
  return std::nullopt;
}

std::vector<Trial> MemoryStorage::add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                                const std::string& worker) {
  std::lock_guard lock(mutex_);
  Entry& e = entry(study);
  std::optional<Trial> first = first_complete(e);
  std::vector<Trial> added;
  for (const EvaluatedPoint& r : rows) {
    check_constraint_count(first, r.constraints);  // before anything is added: all rows or none
    added.push_back(completed_trial(r, static_cast<int>(e.trials.size() + added.size()), worker, unix_now()));
    if (!first) first = added.back();
  }
  e.trials.insert(e.trials.end(), added.begin(), added.end());
  return added;
}

bool MemoryStorage::set_lease(const std::string& study, int trial_id, double lease_until) {
  std::lock_guard lock(mutex_);
  auto& ts = entry(study).trials;
  if (trial_id < 0 || trial_id >= static_cast<int>(ts.size()) || ts[trial_id].state != TrialState::Pending)
    return false;
  ts[trial_id].lease_until = lease_until;
  return true;
}

bool MemoryStorage::set_info(const std::string& study, int trial_id, const nlohmann::json& info) {
  std::lock_guard lock(mutex_);
  auto& ts = entry(study).trials;
  if (trial_id < 0 || trial_id >= static_cast<int>(ts.size())) return false;
  ts[trial_id].info = info;
  return true;
}

bool MemoryStorage::release(const std::string& study, int trial_id, const std::string& worker) {
  std::lock_guard lock(mutex_);
  auto& ts = entry(study).trials;
  if (trial_id < 0 || trial_id >= static_cast<int>(ts.size())) return false;
  Trial& t = ts[trial_id];
  if (t.state != TrialState::Pending || t.worker != worker) return false;
  t.worker.clear();
  t.heartbeat_at = 0.0;
  t.lease_until = 0.0;
  return true;
}

std::vector<Trial> MemoryStorage::trials(const std::string& study) {
  std::lock_guard lock(mutex_);
  return entry(study).trials;
}

}  // namespace kbo

namespace kbo {

void MemoryStorage::update_study_budget(const std::string& name, std::optional<int> budget) {
  std::lock_guard lock(mutex_);
  entry(name).record.budget = budget;
}

bool MemoryStorage::heartbeat(const std::string& study, int trial_id, const std::string& worker) {
  std::lock_guard lock(mutex_);
  auto& ts = entry(study).trials;
  if (trial_id < 0 || trial_id >= static_cast<int>(ts.size())) return false;
  Trial& t = ts[trial_id];
  if (t.state != TrialState::Pending || t.worker != worker) return false;
  t.heartbeat_at = unix_now();
  return true;
}

std::vector<Trial> MemoryStorage::reap_lost(const std::string& study, double stale_after, double now,
                                            const TrialPredicate& lost) {
  std::lock_guard lock(mutex_);
  auto& ts = entry(study).trials;
  std::vector<Trial> retries;
  const std::size_t n = ts.size();
  for (std::size_t i = 0; i < n; ++i) {
    Trial& t = ts[i];
    const char* why = given_up_reason(t, stale_after, now, lost);
    if (!why) continue;
    t.state = TrialState::Failed;
    t.reason = why;
    t.finished_at = now;
    Trial r;
    r.id = static_cast<int>(ts.size());
    r.x = t.x;
    r.created_at = now;
    r.retry_of = t.id;
    ts.push_back(r);  // may reallocate: `t` is not used below
    retries.push_back(r);
  }
  return retries;
}

nlohmann::json MemoryStorage::load_model_state(const std::string& study) {
  std::lock_guard lock(mutex_);
  return entry(study).model_state;
}

void MemoryStorage::save_model_state(const std::string& study, const nlohmann::json& state) {
  std::lock_guard lock(mutex_);
  entry(study).model_state = state;
}

}  // namespace kbo
