#pragma once
// The value types of a study: trials and the study record. Storage backends include only this file
// (no model, no strategy): they persist these values and nothing else.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/enum_names.hpp"
#include "kbo/core/linalg.hpp"

namespace kbo {

enum class TrialState { Pending, Complete, Failed };
template <>
struct EnumNames<TrialState> {
  static constexpr std::array<std::pair<TrialState, const char*>, 3> table{
      {{TrialState::Pending, "pending"}, {TrialState::Complete, "complete"}, {TrialState::Failed, "failed"}}};
};
inline std::string to_string(TrialState s) { return enum_name(s); }  // "pending" | "complete" | "failed"
inline TrialState parse_trial_state(const std::string& s) { return parse_enum<TrialState>("trial state", s); }

struct Trial {
  int id = -1;                  // 0, 1, 2, … within the study (also the strategy's trial_index)
  Vec x;                        // point in the space's original coordinates
  std::optional<double> value;  // objective value as reported (complete trials only)
  TrialState state = TrialState::Pending;
  std::string reason;           // why a trial failed
  std::string worker;           // who asked for it, e.g. "optimize@host:1234"
  double created_at = 0.0;      // Unix time, seconds
  double finished_at = 0.0;     // 0 while pending
  double heartbeat_at = 0.0;    // last heartbeat of its worker (Unix time); 0 = none yet: an asked trial
                                // (`kbo ask`) is then given up only by its lease, a worker's trial
                                // --stale-after seconds after its creation (last_sign_of_life)
  double lease_until = 0.0;     // asked trials (`kbo ask --ask-timeout`): Unix time after which the trial is
                                // given up (kLeaseExpired) and its point re-offered; 0 = no lease
  int retry_of = -1;            // >= 0: this trial re-offers the point of that trial, whose worker was lost
  std::vector<double> constraints;  // outcome constraints of a complete trial (feasible iff all <= 0); empty: none
  std::vector<double> values;       // every objective's value of a complete trial of a study with several
                                    // (values[0] == *value); empty: one objective
  std::optional<double> sem;        // standard error of the mean of `value` (a noisy objective's known noise,
                                    // finite and >= 0); nullopt: not reported (the model learns the noise)
  nlohmann::json info = nlohmann::json::object();  // model diagnostics at ask time, e.g. {"kernel": "set-max"}
};

/// Whether a complete trial satisfies its outcome constraints (every c_i <= 0; true without constraints).
inline bool is_feasible(const Trial& t) {
  for (double c : t.constraints)
    if (!(c <= 0.0)) return false;
  return true;
}

/// Constraints ⇄ their stored text (a JSON array; "" for none). Throws std::runtime_error on bad text.
inline std::string constraints_text(const std::vector<double>& c) {
  return c.empty() ? std::string() : nlohmann::json(c).dump();
}
inline std::vector<double> constraints_from_text(const std::string& text) {
  if (text.empty()) return {};
  return nlohmann::json::parse(text).get<std::vector<double>>();
}
/// Objective values and directions are stored the same way (a JSON array; "" / NULL for one objective).
inline std::string values_text(const std::vector<double>& v) { return constraints_text(v); }
inline std::vector<double> values_from_text(const std::string& text) { return constraints_from_text(text); }
inline std::string directions_text(const std::vector<std::string>& d) {
  return d.empty() ? std::string() : nlohmann::json(d).dump();
}
inline std::vector<std::string> directions_from_text(const std::string& text) {
  if (text.empty()) return {};
  return nlohmann::json::parse(text).get<std::vector<std::string>>();
}

/// Reason of a trial whose worker stopped heart-beating (or died on this host) while it was pending.
/// Such a trial does not count toward the budget: its point is re-offered as a new trial.
inline constexpr const char* kWorkerLost = "worker lost";
/// Reason of an asked trial whose lease ran out before anyone told its result (re-offered like kWorkerLost).
inline constexpr const char* kLeaseExpired = "ask lease expired";
/// Reason of a pending trial given up by hand (`kbo pending --abandon`): not counted, not re-offered.
inline constexpr const char* kAbandoned = "abandoned";

/// False for trials that failed without being evaluated (worker lost, lease expired, abandoned): they
/// neither count toward the budget nor mark their point as failed.
inline bool counts_toward_budget(const Trial& t) {
  return !(t.state == TrialState::Failed &&
           (t.reason == kWorkerLost || t.reason == kLeaseExpired || t.reason == kAbandoned));
}

/// What a pending trial is waiting for.
enum class PendingPhase {
  Running,  // a worker (`kbo optimize`, `kbo worker`) evaluates it and heart-beats; only it may tell the result
  Asked,    // handed out by an ask (`kbo ask`, Python Study.ask) and not heart-beating: waits for a tell
  Queued,   // no owner (re-offered, or handed back by an interrupted run): the next worker or run takes it
};
template <>
struct EnumNames<PendingPhase> {
  static constexpr std::array<std::pair<PendingPhase, const char*>, 3> table{
      {{PendingPhase::Running, "running"}, {PendingPhase::Asked, "asked"}, {PendingPhase::Queued, "queued"}}};
};
inline std::string to_string(PendingPhase p) { return enum_name(p); }
/// Whether the trial's owner is an ask (`kbo ask`, Python's Study.ask: worker "ask@…"), which hands the point
/// out and waits for a tell.
inline bool owned_by_ask(const Trial& t) { return t.worker.rfind("ask@", 0) == 0; }
/// Whether the trial's owner is a worker loop that evaluates it (`kbo optimize`, `kbo worker`, Python's
/// optimize: worker_id "optimize@…" or "worker@…"), which heart-beats from just after its ask.
inline bool owned_by_worker_loop(const Trial& t) {
  return t.worker.rfind("optimize@", 0) == 0 || t.worker.rfind("worker@", 0) == 0;
}
/// The phase of a pending trial (meaningless for finished ones). A worker loop's trial is running from its
/// ask on, before its first heartbeat too: a worker killed between the two leaves a trial that is given up.
inline PendingPhase pending_phase(const Trial& t) {
  if (t.worker.empty()) return PendingPhase::Queued;
  if (t.heartbeat_at > 0.0 || owned_by_worker_loop(t)) return PendingPhase::Running;
  return PendingPhase::Asked;
}
/// When a running trial's worker last showed it is alive: its last heartbeat, or the trial's creation if the
/// worker has not beaten yet (so "--stale-after seconds without a heartbeat" covers every moment after the ask).
inline double last_sign_of_life(const Trial& t) { return t.heartbeat_at > 0.0 ? t.heartbeat_at : t.created_at; }

/// A pending trial from `kbo ask` or Python's Study.ask (worker "ask@…", no heartbeat): it counts toward a
/// run's budget only once told, so a forgotten ask never keeps `kbo optimize` from meeting its budget.
inline bool awaits_ask_tell(const Trial& t) {
  return t.state == TrialState::Pending && t.heartbeat_at <= 0.0 && owned_by_ask(t);
}

/// What a study is: its identity (name), the meaning of its points (space) and values (direction),
/// and the strategy configuration that `kbo ask` uses to suggest points.
struct StudyRecord {
  std::string name;
  bool minimize = true;   // of the (first) objective
  /// "minimize" | "maximize" per objective for a study with several (directions[0] agrees with minimize);
  /// empty: one objective.
  std::vector<std::string> directions;
  int n_objectives() const { return directions.empty() ? 1 : static_cast<int>(directions.size()); }
  nlohmann::json space;   // {"type":"box","lower":[...],"upper":[...]} (sets add set_size, element_dim)
  nlohmann::json config;  // to_json(StrategyConfig)
  double created_at = 0.0;
  /// Total number of trials the study should finish (set by `kbo optimize` = --init + --iters), so that
  /// `kbo worker` processes know when to stop. nullopt: none stored (workers then need --max-trials).
  std::optional<int> budget;
};

/// A point evaluated elsewhere (`kbo tell` of a new point, `kbo import`, Study.add_evaluated), stored as a
/// complete trial by Storage::add_completed.
struct EvaluatedPoint {
  Vec x;
  double value = 0.0;
  std::vector<double> constraints;
  std::vector<double> values;  // several objectives: all of them (values[0] == value); empty: one
  std::optional<double> sem;   // standard error of the mean of value (Trial::sem); nullopt: not reported
};

}  // namespace kbo
