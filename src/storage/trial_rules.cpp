// Rules every storage backend applies inside its transactions (see storage.hpp): who may record a trial's
// result (finish) and which pending trials are given up (reap_lost).
#include <cmath>

#include "kbo/core/error.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo {

void check_finishable(const std::optional<Trial>& t, int trial_id, int n_trials, const std::string& study,
                      const Teller& by, double now) {
  const std::string which = "trial " + std::to_string(trial_id) + " of study '" + study + "'";
  if (!t)
    throw InputError("study '" + study + "' has no trial " + std::to_string(trial_id) + " (ids 0.." +
                     std::to_string(n_trials - 1) + ")");
  if (t->state != TrialState::Pending) {
    if (t->reason == kLeaseExpired)
      throw InputError(which + " was given up when its ask lease expired (--ask-timeout) and its point was "
                               "re-offered as a new trial; ask again (or use a longer --ask-timeout)");
    throw InputError(which + " is already " + to_string(t->state) +
                     (t->state == TrialState::Failed ? " (" + t->reason + ")" : std::string()) +
                     " (only pending trials can be told)");
  }
  if (by.force || pending_phase(*t) != PendingPhase::Running || t->worker == by.worker) return;
  std::string since;
  if (t->heartbeat_at > 0.0)
    since = ", last heartbeat " + std::to_string(static_cast<long long>(std::lround(now - t->heartbeat_at))) + " s ago";
  throw InputError(which + " is running under " + t->worker + since +
                   ", which will record its result (`kbo tell --force` records yours instead and drops the worker's)");
}

void check_constraint_count(const std::optional<Trial>& first_complete, const std::vector<double>& constraints) {
  if (!first_complete || first_complete->constraints.size() == constraints.size()) return;
  throw ConstraintCountError("constraints: the objective returned " + std::to_string(constraints.size()) +
                             " constraint value(s), but trial " + std::to_string(first_complete->id) + " has " +
                             std::to_string(first_complete->constraints.size()) +
                             " (every trial of a study needs the same number)");
}

Trial completed_trial(const EvaluatedPoint& row, int id, const std::string& worker, double now) {
  Trial t;
  t.id = id;
  t.x = row.x;
  t.value = row.value;
  t.state = TrialState::Complete;
  t.worker = worker;
  t.created_at = now;
  t.finished_at = now;
  t.constraints = row.constraints;
  t.values = row.values;
  t.sem = row.sem;
  return t;
}

const char* given_up_reason(const Trial& t, double stale_after, double now, const Storage::TrialPredicate& lost) {
  if (t.state != TrialState::Pending) return nullptr;
  switch (pending_phase(t)) {
    case PendingPhase::Running:  // with or without a heartbeat yet: silence counts from the ask
      return (stale_after > 0.0 && now - last_sign_of_life(t) > stale_after) || (lost && lost(t)) ? kWorkerLost
                                                                                                  : nullptr;
    case PendingPhase::Asked:
      return t.lease_until > 0.0 && now > t.lease_until ? kLeaseExpired : nullptr;
    case PendingPhase::Queued:
      return nullptr;
  }
  return nullptr;
}

void throw_damaged_trial(const std::string& url, int trial_id, const std::string& what) {
  throw InputError("storage '" + url + "' is damaged: trial " + std::to_string(trial_id) + ": " + what +
                   " (changed outside kbo? restore the file or repair that row)");
}

nlohmann::json parse_trial_info(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : nlohmann::json::object();
}

}  // namespace kbo
