#pragma once
// The value types of a study: trials and the study record. Storage backends include only this file
// (no model, no strategy): they persist these values and nothing else.
#include <optional>
#include <string>

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
  double heartbeat_at = 0.0;    // last heartbeat of its worker (Unix time); 0 = the trial has no heartbeat
                                // (e.g. from `kbo ask`) and is never given up as lost
  int retry_of = -1;            // >= 0: this trial re-offers the point of that trial, whose worker was lost
};

/// Reason of a trial whose worker stopped heart-beating (or died on this host) while it was pending.
/// Such a trial does not count toward the budget: its point is re-offered as a new trial.
inline constexpr const char* kWorkerLost = "worker lost";

/// True unless the trial failed because its worker was lost (see kWorkerLost).
inline bool counts_toward_budget(const Trial& t) { return !(t.state == TrialState::Failed && t.reason == kWorkerLost); }

/// What a study is: its identity (name), the meaning of its points (space) and values (direction),
/// and the strategy configuration that `kbo ask` uses to suggest points.
struct StudyRecord {
  std::string name;
  bool minimize = true;
  nlohmann::json space;   // {"type":"box","lower":[...],"upper":[...]} (sets add set_size, element_dim)
  nlohmann::json config;  // to_json(StrategyConfig)
  double created_at = 0.0;
  /// Total number of trials the study should finish (set by `kbo optimize` = --init + --iters), so that
  /// `kbo worker` processes know when to stop. nullopt: none stored (workers then need --max-trials).
  std::optional<int> budget;
};

}  // namespace kbo
