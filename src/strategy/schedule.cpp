// The Schedule stage (include/kbo/strategy/schedule.hpp).
#include "kbo/strategy/schedule.hpp"

#include <algorithm>
#include <cmath>

namespace kbo {

Schedule::Schedule(const StrategyConfig& config, const BOModelOptions& options)
    : n_init_(config.n_init),
      beta_(config.beta),
      early_steps_(options.early_steps),
      early_beta_(options.early_beta),
      endgame_fraction_(options.endgame_fraction) {}

std::optional<double> Schedule::endgame_remaining(int t, std::optional<int> budget) const {
  if (!(endgame_fraction_ > 0.0) || !budget || t < n_init_ || t >= *budget) return std::nullopt;
  const int steps = static_cast<int>(std::ceil(endgame_fraction_ * std::max(*budget - n_init_, 0)));
  const int remaining = *budget - t - 1;  // trials after this one
  if (steps <= 0 || remaining >= steps) return std::nullopt;
  return static_cast<double>(remaining) / steps;
}

int Schedule::early_steps(std::optional<int> budget) const {
  // The first steps choose what the rest polishes; a short run keeps three quarters of its steps for that.
  if (!budget) return early_steps_;
  return std::min(early_steps_, std::max(*budget - n_init_, 0) / 4);
}

StepPlan Schedule::plan(int t, std::optional<int> budget) const {
  StepPlan p;
  p.beta = beta_;
  if (t < n_init_) return p;
  p.endgame = endgame_remaining(t, budget);
  p.early = !p.endgame && t - n_init_ < early_steps(budget);
  if (p.early) p.beta = early_beta_;
  p.local = p.endgame.has_value();
  p.phase = p.local ? Phase::Local : Phase::Global;
  return p;
}

namespace {
std::string describe(const StepPlan& p) {
  std::string s = enum_name(p.phase);
  if (p.phase == Phase::Design) return "initial design";
  if (p.early) s += ", exploration first";
  if (p.endgame) s += ", end-game";
  return s;
}
}  // namespace

std::vector<ScheduleRow> Schedule::table(std::optional<int> budget, int horizon) const {
  std::vector<ScheduleRow> rows;
  const int end = budget ? *budget : horizon;
  for (int t = 0; t < end; ++t) {
    const std::string what = describe(plan(t, budget));
    if (!rows.empty() && rows.back().what == what && rows.back().last == t - 1)
      rows.back().last = t;
    else
      rows.push_back({t, t, what});
  }
  return rows;
}

std::optional<Vec> opening_point(const Mat& design, int n_init, Eigen::Index n_complete, int trial_index,
                                 const std::function<Vec()>& random, nlohmann::json& info) {
  if (trial_index < n_init) {
    info["phase"] = "init";
    return Vec(design.row(trial_index).transpose());
  }
  if (n_complete < 2) {
    info["phase"] = "random";  // too few completed trials to fit a model (initial points failed)
    return random();
  }
  info["phase"] = "bo";
  return std::nullopt;
}

}  // namespace kbo
