// The planar preset as a user meets it (`kbo optimize --json`): on a space of at most 2 coordinates the last
// ⌈0.6 · (budget − init)⌉ = ⌈0.6 · 15⌉ = 9 BO trials of a 5 + 15 run are end-game local steps (ids 11…19) whose
// quadratic weighs its neighbours with local_fit_power 2; in 3-d the default model's values hold
// (⌈0.34 · 15⌉ = 6 trials, ids 14…19, unweighted); at every dimension the trust region halves after 2 failed
// local steps in a row; an explicit endgame_fraction wins over the preset; the removed _2d keys are accepted
// at their old defaults and refused otherwise, naming the preset. Each trial's radius is recomputed here
// from the printed values alone.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

/// Checks that exactly the trials from `first` on are (end-game) local steps and that each one's radius is
/// 0.1 halved after `fail` failed local steps in a row and doubled after 3 successes in a row (no restart
/// can fire: at most 9 local steps, a restart needs 5 halvings). Returns the number of end-game trials.
int check_endgame(const json& out, int first, int fail) {
  double radius = 0.1, best = std::numeric_limits<double>::infinity();
  int failures = 0, successes = 0, endgame = 0;
  for (const auto& t : out["trials"]) {
    const int id = t["id"].get<int>();
    const double v = t["value"].get<double>();
    // With local_every 0 (the default) a trial is a local step exactly when it is in the end-game.
    const bool local = t.contains("info") && t["info"].contains("local");
    EXPECT_EQ(local, id >= first) << id;
    if (local) {
      ++endgame;
      const json& l = t["info"]["local"];
      EXPECT_NEAR(l["trust_region"]["radius"].get<double>(), radius, 1e-15) << id;
      if (v < best) {
        failures = 0;
        if (++successes == 3) radius *= 2.0, successes = 0;
      } else {
        successes = 0;
        if (++failures == fail) radius /= 2.0, failures = 0;
      }
    }
    best = std::min(best, v);
  }
  return endgame;
}

}  // namespace

/// The fit power every local step of `out` reports (-1 if they differ or none was taken).
double local_fit_power(const json& out) {
  double power = -2.0;
  for (const auto& t : out["trials"]) {
    if (!t.contains("info") || !t["info"].contains("local")) continue;
    const double p = t["info"]["local"]["fit_power"].get<double>();
    if (power == -2.0) power = p;
    if (p != power) return -1.0;
  }
  return power;
}

TEST(PlanarPresetCli, TwoCoordinatesTakeTheLongerWeightedEndgameByDefault) {
  TempDir dir("planar_preset_cli");
  const std::string common = "optimize --problem bbob:6:1 --init 5 --iters 15 --seed 1 --json --storage memory";
  const CmdResult d2 = run_kbo(common + " --dim 2", dir);
  ASSERT_EQ(d2.code, 0) << d2.err;
  EXPECT_EQ(check_endgame(d2.json(), 11, 2), 9);
  EXPECT_EQ(local_fit_power(d2.json()), 2.0);
  const CmdResult d3 = run_kbo(common + " --dim 3", dir);
  ASSERT_EQ(d3.code, 0) << d3.err;
  EXPECT_EQ(check_endgame(d3.json(), 14, 2), 6);
  EXPECT_EQ(local_fit_power(d3.json()), 0.0);
  // An explicit endgame_fraction wins over the preset in 2-d: ⌈0.2 · 15⌉ = 3 trials; the fit power stays 2.
  const CmdResult explicit_share =
      run_kbo(common + " --dim 2 --options " + quote(R"({"bo": {"endgame_fraction": 0.2}})"), dir);
  ASSERT_EQ(explicit_share.code, 0) << explicit_share.err;
  EXPECT_EQ(check_endgame(explicit_share.json(), 17, 2), 3);
  EXPECT_EQ(local_fit_power(explicit_share.json()), 2.0);
  // The removed _2d keys at their old defaults change nothing (a stored study carrying them resumes) …
  const CmdResult old = run_kbo(common + " --dim 2 --options " +
                                    quote(R"({"bo": {"endgame_fraction_2d": 0.6, "local_fail_2d": 3, "local_fit_power_2d": 2}})"),
                                dir);
  ASSERT_EQ(old.code, 0) << old.err;
  auto points = [](const json& out) {
    std::vector<json> x;
    for (const auto& t : out["trials"]) x.push_back(t["x"]);
    return x;
  };
  EXPECT_EQ(points(old.json()), points(d2.json()));
  // … and any other value is a one-line error naming what replaced the key, exit 2.
  for (const char* bad : {R"({"bo": {"endgame_fraction_2d": 0.4}})", R"({"bo": {"local_fit_power_2d": 1}})"}) {
    const CmdResult r = run_kbo("optimize --problem branin --iters 2 --options " + quote(bad), dir);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("planar preset"), std::string::npos) << r.err;
  }
  const CmdResult fail = run_kbo("optimize --problem branin --iters 2 --options " + quote(R"({"bo": {"local_fail_2d": 2}})"), dir);
  EXPECT_EQ(fail.code, 2);
  EXPECT_EQ(fail.err_lines(), 1) << fail.err;
  EXPECT_NE(fail.err.find("2 failed local steps"), std::string::npos) << fail.err;
}

// A converged end-game proposes points it has already evaluated (the sphere's optimum, again): no trial
// repeats an earlier one, and each replaced suggestion says so in its trial info.
TEST(PlanarPresetCli, RepeatedSuggestionsAreReplacedAndSaidInTheTrialInfo) {
  TempDir dir("planar_preset_repeat");
  const CmdResult r = run_kbo("optimize --problem bbob:1:1 --dim 2 --init 5 --iters 65 --seed 0 --json --storage memory", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json out = r.json();
  std::vector<std::vector<double>> seen;
  int replaced = 0;
  for (const auto& t : out["trials"]) {
    const std::vector<double> x = t["x"].get<std::vector<double>>();
    for (const auto& s : seen) EXPECT_GT(std::hypot(x[0] - s[0], x[1] - s[1]), 1e-9) << t.dump();
    seen.push_back(x);
    replaced += t.contains("info") && t["info"].value("repeat_replaced_by_random", false);
  }
  EXPECT_GE(replaced, 1);
}
