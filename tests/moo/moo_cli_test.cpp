// Studies with several objectives run the way a user runs them: `kbo optimize --directions` with an external
// objective printing {"values": [...]}, `kbo show --pareto`, `kbo ask` / `kbo tell --values`, and every bad
// input as one line, exit 2, nothing stored. The reported front and hypervolume are checked against brute
// force on the reported trials.
#include <gtest/gtest.h>

#include "cli/cli_support.hpp"

using namespace kbo::test;

namespace {

// f1 = x0, f2 = (1 − x0)² + x1 (both minimised): the front is x1 = 0, x0 ∈ [0, 1]. A script file keeps the
// shell quoting simple; {x} passes the point as arguments.
std::string objective(const TempDir& dir, int n_values = 2) {
  const std::string path = dir / "objective.sh";
  std::ofstream(path) << "echo \"$@\" | awk '{printf \"{\\\"values\\\": [%.17g, %.17g" << (n_values == 3 ? ", 1" : "")
                      << "]}\\n\", $1, (1-$1)^2+$2}'\n";
  return "--objective " + quote("sh " + path + " {x}");
}

std::vector<double> values_of(const nlohmann::json& t) { return t["values"].get<std::vector<double>>(); }

bool dominates_min(const std::vector<double>& a, const std::vector<double>& b) {
  bool strictly = false;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (a[j] > b[j]) return false;
    strictly = strictly || a[j] < b[j];
  }
  return strictly;
}

void expect_one_line_error(const CmdResult& r, const std::string& expect) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(expect), std::string::npos) << "expected '" << expect << "' in: " << r.err;
}

}  // namespace

TEST(MooCli, OptimizeReportsTheFrontAndItsHypervolume) {
  TempDir dir("moo_optimize");
  const std::string where = "--storage sqlite:" + dir / "s.db" + " --study m";
  const CmdResult r = run_kbo("optimize " + objective(dir) + " --bounds 0:1,0:1 --directions minimize,minimize --init 6 "
                              "--iters 6 --seed 1 --json " + where, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json s = r.json();
  EXPECT_EQ(s["strategy"], "moo");
  EXPECT_EQ(s["directions"], nlohmann::json({"minimize", "minimize"}));
  EXPECT_EQ(s["n_complete"], 12);
  EXPECT_TRUE(s["best_value"].is_null());
  // Every trial's values are the objective's; the front is exactly the trials no other trial dominates.
  std::vector<int> expected_front;
  for (const auto& t : s["trials"]) {
    const auto v = values_of(t);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_DOUBLE_EQ(v[0], t["x"][0].get<double>());
    EXPECT_NEAR(v[1], std::pow(1 - t["x"][0].get<double>(), 2) + t["x"][1].get<double>(), 1e-12);
    EXPECT_DOUBLE_EQ(t["value"].get<double>(), v[0]);
    bool dominated = false;
    for (const auto& o : s["trials"]) dominated = dominated || dominates_min(values_of(o), v);
    if (!dominated) expected_front.push_back(t["id"].get<int>());
  }
  std::vector<int> front;
  for (const auto& p : s["pareto_front"]) front.push_back(p["id"].get<int>());
  EXPECT_EQ(front, expected_front);
  // Hypervolume by an independent sweep over the reported front and reference point (minimised).
  const auto ref = s["hypervolume"]["reference_point"].get<std::vector<double>>();
  EXPECT_EQ(s["hypervolume"]["reference"], "inferred");
  std::vector<std::vector<double>> pts;
  for (const auto& p : s["pareto_front"]) pts.push_back(values_of(p));
  std::sort(pts.begin(), pts.end());
  double hv = 0.0, top = ref[1];
  for (const auto& p : pts)
    if (p[0] < ref[0] && p[1] < top) hv += (ref[0] - p[0]) * (top - p[1]), top = p[1];
  EXPECT_NEAR(s["hypervolume"]["value"].get<double>(), hv, 1e-9);
  // BoTorch's inference: nadir + 10 % of the front's range (minimised terms).
  double lo = 1e300, hi = -1e300;
  for (const auto& p : pts) lo = std::min(lo, p[0]), hi = std::max(hi, p[0]);
  EXPECT_NEAR(ref[0], hi + 0.1 * (hi - lo), 1e-12);

  // kbo show --pareto (JSON and table) reads the same front.
  const CmdResult shown = run_kbo("show --pareto --json " + where, dir);
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(shown.json()["pareto_front"], s["pareto_front"]);
  EXPECT_EQ(shown.json()["hypervolume"], s["hypervolume"]);
  const CmdResult table = run_kbo("show --pareto " + where, dir);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("hypervolume"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("minimize,minimize"), std::string::npos) << table.out;

  // A given reference point is used as given.
  const CmdResult given = run_kbo("optimize " + objective(dir) + " --bounds 0:1,0:1 --directions minimize,minimize "
                                  "--init 6 --iters 6 --seed 1 --json --ref-point 2,3 " + where, dir);
  ASSERT_EQ(given.code, 0) << given.err;
  EXPECT_EQ(given.json()["hypervolume"]["reference_point"], nlohmann::json({2.0, 3.0}));
  EXPECT_EQ(given.json()["hypervolume"]["reference"], "given");
}

TEST(MooCli, AskTellWithValues) {
  TempDir dir("moo_ask_tell");
  const std::string where = "--storage sqlite:" + dir / "s.db" + " --study m";
  const CmdResult asked = run_kbo("ask --bounds 0:1,0:1 --directions minimize,maximize " + where, dir);
  ASSERT_EQ(asked.code, 0) << asked.err;
  const int id = asked.json()["trial"].get<int>();
  // Wrong number of values, --value on a study with two objectives: one line, exit 2, the trial stays pending.
  expect_one_line_error(run_kbo("tell --trial " + std::to_string(id) + " --values 1 " + where, dir), "2 objectives");
  expect_one_line_error(run_kbo("tell --trial " + std::to_string(id) + " --values 1,2,3 " + where, dir), "3 values");
  expect_one_line_error(run_kbo("tell --trial " + std::to_string(id) + " --value 1 " + where, dir), "2 objectives");
  EXPECT_EQ(run_kbo("show --json " + where, dir).json()["n_pending"], 1);
  const CmdResult told = run_kbo("tell --trial " + std::to_string(id) + " --values 1.5,-2 " + where, dir);
  ASSERT_EQ(told.code, 0) << told.err;
  EXPECT_EQ(told.json()["values"], nlohmann::json({1.5, -2.0}));
  const nlohmann::json s = run_kbo("show --json " + where, dir).json();
  EXPECT_EQ(s["trials"][0]["values"], nlohmann::json({1.5, -2.0}));
  EXPECT_EQ(s["pareto_front"].size(), 1u);
  // A new point evaluated elsewhere.
  const CmdResult point = run_kbo("tell --point '[0.2, 0.3]' --values 1,-1 " + where, dir);
  ASSERT_EQ(point.code, 0) << point.err;
  // (1, -1) dominates (1.5, -2): lower first objective (minimised), higher second (maximised).
  EXPECT_EQ(run_kbo("show --json " + where, dir).json()["pareto_front"].size(), 1u);
}

TEST(MooCli, BadInputIsOneLineAndStoresNothing) {
  TempDir dir("moo_bad");
  const std::string where = "--storage sqlite:" + dir / "s.db";
  expect_one_line_error(run_kbo("optimize " + objective(dir) + " --bounds 0:1,0:1 --directions minimize,upward " + where, dir),
                        "unknown direction 'upward'");
  expect_one_line_error(run_kbo("optimize --problem branin --ref-point 1,2 " + where, dir), "several objectives");
  expect_one_line_error(run_kbo("optimize " + objective(dir) + " --bounds 0:1,0:1 --directions minimize,minimize "
                                "--ref-point 1 " + where, dir), "--ref-point has 1");
  expect_one_line_error(run_kbo("optimize " + objective(dir) + " --bounds 0:1,0:1 --directions minimize,minimize "
                                "--strategy gpucb " + where, dir), "optimises one objective");
  // --values on a one-objective study.
  ASSERT_EQ(run_kbo("ask --problem branin " + where + " --study one", dir).code, 0);
  expect_one_line_error(run_kbo("tell --trial 0 --values 1,2 " + where + " --study one", dir), "has one: use --value");
  EXPECT_EQ(run_kbo("show --json " + where + " --study one", dir).json()["n_pending"], 1);
  // An objective printing three values for a study with two: the run stops, the trial is handed back.
  const std::string three = objective(dir, 3);
  expect_one_line_error(run_kbo("optimize " + three + " --bounds 0:1,0:1 --directions minimize,minimize --init 2 "
                                "--iters 0 " + where + " --study three", dir), "3 values");
  const nlohmann::json s = run_kbo("show --json " + where + " --study three", dir).json();
  EXPECT_EQ(s["n_complete"], 0);
  EXPECT_EQ(s["n_failed"], 0);
}
