#pragma once
// The Schedule stage of BO: what step t of a study is, decided from the step's index and the run's budget
// alone, so the phases of a run read as one table (Schedule::table) instead of conditions spread over a
// step. The data decide only within a phase (a local step whose neighbourhood is degenerate is taken as a
// global one, say).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/strategy/config.hpp"

namespace kbo {

enum class Phase { Design, Global, Local };
template <>
struct EnumNames<Phase> {
  static constexpr std::array<std::pair<Phase, const char*>, 4> table{
      {{Phase::Design, "design"}, {Phase::Global, "global"}, {Phase::Local, "local"}}};
};

/// One step's plan.
struct StepPlan {
  Phase phase = Phase::Design;        // what the step is when the data allow it
  bool local = false;                 // scheduled as a local (trust-region) step: the end-game's
  bool early = false;                 // exploration first: UCB's β is early_beta
  double beta = 0.0;                  // UCB's β for this step
  std::optional<double> endgame;      // in the end-game: the share of its steps still to come, in [0, 1)
};

/// A stretch of consecutive trials with the same plan, for Schedule::table.
struct ScheduleRow {
  int first = 0, last = 0;  // trial indices, inclusive
  std::string what;
};

class Schedule {
 public:
  Schedule(const StrategyConfig& config, const BOModelOptions& options);
  /// The plan of trial `trial_index` (trials counted from 0) when the run's budget is `budget` (nullopt:
  /// open-ended ask/tell, no end-game).
  StepPlan plan(int trial_index, std::optional<int> budget) const;
  /// Whether trial t is (was) scheduled as a local step (the trust region replays the history with it).
  bool is_local(int trial_index, std::optional<int> budget) const { return plan(trial_index, budget).local; }
  /// The whole run as stretches of equal plans (up to `budget` trials, or `horizon` when open-ended).
  std::vector<ScheduleRow> table(std::optional<int> budget, int horizon = 100) const;
  /// The exploration-first steps for this budget: early_steps, at most a quarter of a known budget's BO steps.
  int early_steps(std::optional<int> budget) const;

 private:
  std::optional<double> endgame_remaining(int trial_index, std::optional<int> budget) const;
  int n_init_;
  double beta_;
  int early_steps_;
  double early_beta_;
  double endgame_fraction_;
};

/// The opening of every model-based strategy (GP-BO, several objectives): the initial design's unit-cube
/// point while trial_index < n_init, a uniform one (`random`) while fewer than two trials have completed, and
/// nothing once a model can be fitted. info["phase"] says which: "init", "random" or "bo".
std::optional<Vec> opening_point(const Mat& design, int n_init, Eigen::Index n_complete, int trial_index,
                                 const std::function<Vec()>& random, nlohmann::json& info);

}  // namespace kbo
