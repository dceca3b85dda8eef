// The end-game at dimension <= 2 as a user meets it (`kbo optimize --json`): by default the last
// ⌈endgame_fraction_2d · (budget − init)⌉ = ⌈0.6 · 15⌉ = 9 BO trials of a 5 + 15 run in 2-d are end-game local
// steps (ids 11…19), whose trust region halves after local_fail_2d = 3 failed local steps in a row; in 3-d the
// d >= 3 values hold (⌈0.34 · 15⌉ = 6 trials, ids 14…19; halved after 2 failures); and an explicit
// endgame_fraction applies in 2-d too. Each trial's radius is recomputed here from the printed values alone.
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

TEST(Endgame2dCli, TwoDimensionsTakeTheLongerEndgameAndTheSlowerShrinkByDefault) {
  TempDir dir("endgame_2d_cli");
  const std::string common = "optimize --problem bbob:6:1 --init 5 --iters 15 --seed 1 --json --storage memory";
  const CmdResult d2 = run_kbo(common + " --dim 2", dir);
  ASSERT_EQ(d2.code, 0) << d2.err;
  EXPECT_EQ(check_endgame(d2.json(), 11, 3), 9);
  const CmdResult d3 = run_kbo(common + " --dim 3", dir);
  ASSERT_EQ(d3.code, 0) << d3.err;
  EXPECT_EQ(check_endgame(d3.json(), 14, 2), 6);
  // An explicit endgame_fraction (without endgame_fraction_2d) applies in 2-d too: ⌈0.2 · 15⌉ = 3 trials;
  // an explicit local_fail likewise.
  const CmdResult explicit_share =
      run_kbo(common + " --dim 2 --options " + quote(R"({"bo": {"endgame_fraction": 0.2, "local_fail": 1}})"), dir);
  ASSERT_EQ(explicit_share.code, 0) << explicit_share.err;
  EXPECT_EQ(check_endgame(explicit_share.json(), 17, 1), 3);
  // … and the _2d keys set the 2-d values alone: ⌈0.4 · 15⌉ = 6 trials, halved after 2 failures.
  const CmdResult own =
      run_kbo(common + " --dim 2 --options " +
                  quote(R"({"bo": {"endgame_fraction": 0.2, "endgame_fraction_2d": 0.4, "local_fail_2d": 2}})"),
              dir);
  ASSERT_EQ(own.code, 0) << own.err;
  EXPECT_EQ(check_endgame(own.json(), 14, 2), 6);
  // Bad values are one-line errors naming the key, exit 2.
  for (const char* bad : {R"({"bo": {"endgame_fraction_2d": 1.5}})", R"({"bo": {"local_fail_2d": -1}})"}) {
    const CmdResult r = run_kbo("optimize --problem branin --iters 2 --options " + quote(bad), dir);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("_2d"), std::string::npos) << r.err;
  }
}

// A converged end-game proposes points it has already evaluated (the sphere's optimum, again): no trial
// repeats an earlier one, and each replaced suggestion says so in its trial info.
TEST(Endgame2dCli, RepeatedSuggestionsAreReplacedAndSaidInTheTrialInfo) {
  TempDir dir("endgame_2d_repeat");
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
