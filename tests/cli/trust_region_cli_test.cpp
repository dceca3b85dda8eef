// The end-game's trust region as a user meets it: `kbo optimize --json` records each local step's radius in
// the trial's info. With endgame_fraction 1 every BO trial is a local step, and the radius must follow the
// default model's rule, recomputed here from the printed values alone: half width 0.1 of the box, halved after
// 2 failed local steps in a row, doubled after 3 improving ones in a row, within [1e-6, 0.5]; after 5 halvings
// with no improving step in between the region is reset once per run to the radius of the last improving step.
// Each step lies within the radius of the incumbent (unless it repeated an observation and was replaced by a
// random point, as its trial says) — also after the study was resumed by a second process,
// since the radius is replayed from the stored trials.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

struct Replayed {
  int local = 0, halvings = 0, restarts = 0;
};

/// Checks every trial of `out` (kbo optimize --json on bbob:F:I, box [−5, 5]²).
Replayed check_trials(const json& out) {
  double radius = 0.1, success_radius = 0.1, best = std::numeric_limits<double>::infinity();
  int failures = 0, successes = 0, stalled = 0;
  std::vector<double> best_x;
  Replayed r;
  for (const auto& t : out["trials"]) {
    const int id = t["id"].get<int>();
    const std::vector<double> x = t["x"];
    const double v = t["value"].get<double>();
    // A replicate of the incumbent (the noise test, options.bo.noise infer) takes a scheduled local step's
    // place: no local model, but the region counts it like a local step that did not improve.
    const bool replicate = t.contains("info") && t["info"].contains("noise") && t["info"]["noise"].value("replicate", false);
    if (id >= 5 && replicate) {
      successes = 0;
      if (++failures == 2) {
        radius = std::max(radius / 2.0, 1e-6), failures = 0, ++r.halvings;
        if (++stalled >= 5 && r.restarts < 1) ++r.restarts, radius = success_radius, stalled = 0;
      }
      ++r.local;
    } else if (id >= 5) {  // endgame_fraction 1: every other BO trial is a local step
      EXPECT_TRUE(t.contains("info") && t["info"].contains("local")) << id;
      if (!t.contains("info") || !t["info"].contains("local")) continue;
      const json& l = t["info"]["local"];
      ++r.local;
      EXPECT_NEAR(l["trust_region"]["radius"].get<double>(), radius, 1e-15 * radius) << id;
      EXPECT_EQ(l["trust_region"]["restarts"].get<int>(), r.restarts) << id;
      const double used = l.value("radius_used", radius);
      EXPECT_LE(used, radius * (1 + 1e-12)) << id;
      // A step that repeated an observation was replaced by a random point, and the trial says so.
      if (!t["info"].value("repeat_replaced_by_random", false)) {
        for (std::size_t j = 0; j < x.size(); ++j) {  // unit cube: (x − x_best) / 10
          EXPECT_LE(std::abs(x[j] - best_x[j]) / 10.0, used + 1e-9) << id << " coordinate " << j;
        }
      }
      if (v < best) {
        success_radius = radius;
        failures = stalled = 0;
        if (++successes == 3) radius = std::min(2.0 * radius, 0.5), successes = 0;
      } else {
        successes = 0;
        if (++failures == 2) {
          radius = std::max(radius / 2.0, 1e-6), failures = 0, ++r.halvings;
          if (++stalled >= 5 && r.restarts < 1) ++r.restarts, radius = success_radius, stalled = 0;
        }
      }
    }
    if (v < best) best = v, best_x = x;
  }
  return r;
}

}  // namespace

TEST(TrustRegionCli, RadiusFollowsTheDefaultRuleAndSurvivesAResume) {
  TempDir dir("trust_region_cli");
  const std::string common = "optimize --problem PROBLEM --dim 2 --init 5 --seed 3 --json --options " +
                             quote(R"({"bo": {"endgame_fraction": 1}})");
  auto with = [&](const std::string& problem) {
    std::string c = common;
    return c.replace(c.find("PROBLEM"), 7, problem);
  };
  int restarts = 0;
  for (const std::string problem : {"bbob:8:1", "bbob:3:1"}) {
    const CmdResult once = run_kbo(with(problem) + " --iters 40 --storage memory", dir);
    ASSERT_EQ(once.code, 0) << once.err;
    const Replayed r = check_trials(once.json());
    EXPECT_EQ(r.local, 40) << problem;
    EXPECT_GE(r.halvings, 1) << problem;  // the history exercises the rule
    restarts += r.restarts;
    // Interrupted after 12 BO trials and resumed by a second process on the same storage.
    const std::string db = "sqlite:" + (dir.path / (problem.substr(5, 1) + ".db")).string();
    ASSERT_EQ(run_kbo(with(problem) + " --iters 12 --storage " + db, dir).code, 0);
    const CmdResult resumed = run_kbo(with(problem) + " --iters 40 --storage " + db, dir);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_EQ(check_trials(resumed.json()).local, 40) << problem;
  }
  EXPECT_GE(restarts, 1);  // … and one of them the restart
}
