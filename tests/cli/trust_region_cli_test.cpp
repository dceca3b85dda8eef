// The local steps' trust region as a user meets it: `kbo optimize --options '{"bo": {"local_radius": ...}}'`
// records each local step's radius in the trial's info; with local_fail = local_succ = 1 the radius must be
// the initial one doubled for every local trial that improved on all before it and halved for every other
// (clamped to [local_radius_min, local_radius_max]), and each step lies within it of the incumbent — also
// after the study was resumed by a second process, since the radius is replayed from the stored trials.
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

/// Checks every trial of `out` (kbo optimize --json on bbob:8:1, box [−5, 5]²); returns the local trials.
int check_trials(const json& out, double initial) {
  double radius = initial, best = std::numeric_limits<double>::infinity();
  std::vector<double> best_x;
  int local = 0;
  for (const auto& t : out["trials"]) {
    const int id = t["id"].get<int>();
    const std::vector<double> x = t["x"];
    const double v = t["value"].get<double>();
    if (id >= 5) {  // local_every 1: every BO trial is a local step
      EXPECT_TRUE(t.contains("info") && t["info"].contains("local")) << id;
      if (!t.contains("info") || !t["info"].contains("local")) continue;
      const json& l = t["info"]["local"];
      ++local;
      EXPECT_NEAR(l["trust_region"]["radius"].get<double>(), radius, 1e-15 * radius) << id;
      const double used = l.value("radius_used", radius);
      EXPECT_LE(used, radius * (1 + 1e-12)) << id;
      for (std::size_t j = 0; j < x.size(); ++j)  // unit cube: (x − x_best) / 10
        EXPECT_LE(std::abs(x[j] - best_x[j]) / 10.0, used + 1e-9) << id << " coordinate " << j;
      radius = std::clamp(v < best ? 2.0 * radius : radius / 2.0, 1e-6, 0.5);
    }
    if (v < best) best = v, best_x = x;
  }
  return local;
}

}  // namespace

TEST(TrustRegionCli, RadiusFollowsSuccessesAndFailuresAndSurvivesAResume) {
  TempDir dir("trust_region_cli");
  const std::string options =
      quote(R"({"bo": {"local_every": 1, "local_model": "quadratic", "local_radius": 0.2, "local_fail": 1, "local_succ": 1, )"
            R"("local_restart": 0}})");  // the halving/doubling rule alone; restarts: the next test
  const std::string common = "optimize --problem bbob:8:1 --dim 2 --init 5 --seed 3 --json --options " + options;
  const CmdResult once = run_kbo(common + " --iters 16 --storage memory", dir);
  ASSERT_EQ(once.code, 0) << once.err;
  EXPECT_EQ(check_trials(once.json(), 0.2), 16);
  // Interrupted after 6 BO trials and resumed by a second process on the same storage.
  const std::string db = "sqlite:" + (dir.path / "s.db").string();
  ASSERT_EQ(run_kbo(common + " --iters 6 --storage " + db, dir).code, 0);
  const CmdResult resumed = run_kbo(common + " --iters 16 --storage " + db, dir);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(check_trials(resumed.json(), 0.2), 16);
  // Bad values are one-line errors naming the key, exit 2.
  const CmdResult bad = run_kbo("optimize --problem branin --iters 2 --options " + quote(R"({"bo": {"local_radius": -1}})"), dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err_lines(), 1);
  EXPECT_NE(bad.err.find("local_radius"), std::string::npos);
}

// local_restart: after local_restart halvings in a row with no improving local step in between (here 2: with
// local_fail 1, two failed local steps in a row), the next scheduled local step is a global step (info.local:
// model "global", restart true) and the region restarts at local_radius — or, with local_restart_global
// false, the region is reset at once to the radius of the last improving local step and every step stays
// local; with local_restart_max 1 (the default) only the first restart happens. Computed here from the
// printed values alone, also across a resume by a second process.
TEST(TrustRegionCli, ACollapsedRegionRestarts) {
  TempDir dir("trust_region_restart_cli");
  auto check = [](const json& out, bool global, int restart_max) {
    double radius = 0.2, best = std::numeric_limits<double>::infinity();
    int restarts = 0, local = 0, stalled = 0;
    double success_radius = 0.2;  // the radius of the last improving local step
    for (const auto& t : out["trials"]) {
      const int id = t["id"].get<int>();
      const double v = t["value"].get<double>();
      if (id >= 5) {
        EXPECT_TRUE(t.contains("info") && t["info"].contains("local")) << id;
        if (!t.contains("info") || !t["info"].contains("local")) continue;
        const json& l = t["info"]["local"];
        const bool left = restart_max == 0 || restarts < restart_max;
        const bool due = global && stalled >= 2 && left;
        EXPECT_EQ(l.value("restart", false), due) << id;
        // (a quadratic that cannot be fitted leaves the local step to the local GP: "gp")
        EXPECT_EQ(l["model"].get<std::string>() == "global", due) << id;
        EXPECT_NEAR(l["trust_region"]["radius"].get<double>(), radius, 1e-15 * radius) << id;
        EXPECT_EQ(l["trust_region"]["restarts"].get<int>(), restarts) << id;
        if (due) {
          ++restarts;
          radius = success_radius = 0.2;
          stalled = 0;
        } else {
          ++local;
          if (v < best) success_radius = radius;
          radius = std::clamp(v < best ? 2.0 * radius : radius / 2.0, 1e-6, 0.5);
          stalled = v < best ? 0 : stalled + 1;
          if (!global && stalled >= 2 && left) ++restarts, radius = success_radius, stalled = 0;
        }
      }
      if (v < best) best = v;
    }
    // the history must exercise the rule (bbob:8:1 from seed 3 does): with no limit more than one restart
    if (restart_max == 0)
      EXPECT_GE(restarts, 2);
    else
      EXPECT_EQ(restarts, restart_max);
    return local + (global ? restarts : 0);
  };
  for (const int restart_max : {0, 1})
    for (const bool global : {true, false}) {
      // local_restart_max 1 is the default: not written, so the test also pins that default.
      const std::string options =
          quote(std::string(R"({"bo": {"local_every": 1, "local_model": "quadratic", "local_radius": 0.2, )") +
                R"("local_fail": 1, "local_succ": 1, "local_restart": 2, )" +
                (restart_max == 0 ? R"("local_restart_max": 0, )" : "") + R"("local_restart_global": )" +
                (global ? "true" : "false") + "}}");
      const std::string common = "optimize --problem bbob:8:1 --dim 2 --init 5 --seed 3 --json --options " + options;
      const std::string label = std::string(global ? "global" : "region") + " max " + std::to_string(restart_max);
      const CmdResult once = run_kbo(common + " --iters 20 --storage memory", dir);
      ASSERT_EQ(once.code, 0) << once.err;
      EXPECT_EQ(check(once.json(), global, restart_max), 20) << label;
      const std::string db = "sqlite:" + (dir.path / (std::string(global ? "g" : "l") + std::to_string(restart_max) + ".db")).string();
      ASSERT_EQ(run_kbo(common + " --iters 7 --storage " + db, dir).code, 0);
      const CmdResult resumed = run_kbo(common + " --iters 20 --storage " + db, dir);
      ASSERT_EQ(resumed.code, 0) << resumed.err;
      EXPECT_EQ(check(resumed.json(), global, restart_max), 20) << label;
    }
  const CmdResult bad = run_kbo("optimize --problem branin --iters 2 --options " + quote(R"({"bo": {"local_restart": -1}})"), dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err_lines(), 1);
  EXPECT_NE(bad.err.find("local_restart"), std::string::npos);
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"local_restart_max", "-1"},
                                   std::pair<std::string, std::string>{"local_auto_gp_points", R"("all")"}}) {
    const std::string opt = R"({"bo": {")" + key + R"(": )" + value + "}}";
    const CmdResult wrong = run_kbo("optimize --problem branin --iters 2 --options " + quote(opt), dir);
    EXPECT_EQ(wrong.code, 2) << opt;
    EXPECT_EQ(wrong.err_lines(), 1) << opt;
    EXPECT_NE(wrong.err.find(key), std::string::npos) << wrong.err;
  }
}
