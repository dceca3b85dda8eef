// Noisy objectives as a user runs them: an external objective printing {"value", "sem"}, `kbo tell --sem`,
// replicates from `kbo enqueue`, the recommendation (`recommended` vs `best_observed`) in `kbo optimize --json`
// and `kbo show`, the sem column of `kbo show --format csv` imported back, and every bad sem as one line,
// exit 2, nothing stored.
#include <gtest/gtest.h>

#include <cmath>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

// value = Σ (x_i − 0.3)² printed with a standard error $SEM (default 0.2).
std::string noisy_sem_objective(const TempDir& dir) {
  const std::string path = dir / "noisy.sh";
  std::ofstream(path) << "echo \"$@\" | awk -v sem=\"${SEM:-0.2}\" "
                         "'{s=0; for(i=1;i<=NF;i++) s+=($i-0.3)^2; printf \"{\\\"value\\\": %.17g, \\\"sem\\\": %s}\\n\", s, sem}'\n";
  return "--objective " + quote("sh " + path + " {x}");
}

void expect_noisy_one_line_error(const CmdResult& r, const std::string& expect) {
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(expect), std::string::npos) << "expected '" << expect << "' in: " << r.err;
}

int noisy_complete_count(const json& s) {
  int n = 0;
  for (const auto& t : s["trials"]) n += t["state"] == "complete";
  return n;
}

}  // namespace

TEST(NoisyCli, ExternalObjectiveWithSemIsStoredShownExportedAndRecommended) {
  TempDir dir("noisy_external");
  const std::string where = " --storage sqlite:" + (dir / "n.db") + " --study n";
  const CmdResult r = run_kbo("optimize " + noisy_sem_objective(dir) + " --bounds 0:1,0:1 --init 4 --iters 4 --seed 2 --json" + where, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = r.json();
  ASSERT_EQ(noisy_complete_count(s), 8);
  for (const auto& t : s["trials"]) EXPECT_EQ(t["sem"].get<double>(), 0.2);
  // The recommendation: a complete trial with its posterior (the study has a fitted model), and the best draw.
  ASSERT_TRUE(s["recommended"].is_object());
  ASSERT_TRUE(s["best_observed"].is_object());
  EXPECT_TRUE(s["noisy"].get<bool>());
  EXPECT_EQ(s["recommended"]["by"], "posterior_mean");
  EXPECT_TRUE(std::isfinite(s["recommended"]["mean"].get<double>()));
  EXPECT_GT(s["recommended"]["sd"].get<double>(), 0.0);
  EXPECT_EQ(s["best_trial"], s["recommended"]["trial"]);  // a noisy study's best_* are the recommendation's
  EXPECT_EQ(s["best_x"], s["recommended"]["x"]);
  double best_value = 1e300;
  for (const auto& t : s["trials"]) best_value = std::min(best_value, t["value"].get<double>());
  EXPECT_EQ(s["best_observed"]["value"].get<double>(), best_value);

  // kbo show: the same keys; the table names both; the CSV has a sem column that kbo import reads back.
  const json shown = run_kbo("show --json" + where, dir).json();
  EXPECT_EQ(shown["recommended"], s["recommended"]);
  EXPECT_EQ(shown["best_observed"], s["best_observed"]);
  const CmdResult table = run_kbo("show" + where, dir);
  EXPECT_NE(table.out.find("recommended: trial"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("best observed: trial"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("+- 0.2"), std::string::npos) << table.out;
  const CmdResult csv = run_kbo("show --format csv" + where, dir);
  ASSERT_EQ(csv.code, 0);
  EXPECT_EQ(csv.out.rfind("id,state,value,sem,", 0), 0u) << csv.out;
  std::ofstream(dir / "n.csv") << csv.out;
  ASSERT_EQ(run_kbo("import --csv " + (dir / "n.csv") + " --bounds 0:1,0:1 --storage sqlite:" + (dir / "n.db") + " --study copy", dir).code, 0);
  const json copy = run_kbo("show --json --storage sqlite:" + (dir / "n.db") + " --study copy", dir).json();
  ASSERT_EQ(copy["trials"].size(), s["trials"].size());
  for (std::size_t i = 0; i < copy["trials"].size(); ++i) {
    EXPECT_EQ(copy["trials"][i]["sem"], s["trials"][i]["sem"]);
    EXPECT_EQ(copy["trials"][i]["value"], s["trials"][i]["value"]);
  }
}

TEST(NoisyCli, AnObjectivePrintingABadSemStopsTheRunWithNothingStored) {
  TempDir dir("noisy_bad_objective");
  int k = 0;
  for (const std::string sem : {"-0.5", "\\\"big\\\""}) {
    const std::string where = " --storage sqlite:" + (dir / "b.db") + " --study b" + std::to_string(k++);
    const CmdResult bad = run_kbo("optimize --objective " + quote("echo {\\\"value\\\": 1, \\\"sem\\\": " + sem + "}") +
                                      " --bounds 0:1 --init 2 --iters 3" + where,
                                  dir);
    expect_noisy_one_line_error(bad, "sem");
    const json after = run_kbo("show --json" + where, dir).json();
    EXPECT_EQ(noisy_complete_count(after), 0);  // the trial was handed back: no value stored
  }
}

TEST(NoisyCli, TellWithSemAndEveryBadSemIsOneLineExitTwoNothingStored) {
  TempDir dir("noisy_tell");
  const std::string where = " --storage sqlite:" + (dir / "t.db") + " --study t";
  const json a = run_kbo("ask --bounds 0:1,0:1 --init 3 --seed 1" + where, dir).json();
  const int id = a["trial"].get<int>();
  for (const std::string bad : {"-0.1", "nan", "inf"})
    expect_noisy_one_line_error(run_kbo("tell --trial " + std::to_string(id) + " --value 1.5 --sem " + bad + where, dir), "sem");
  expect_noisy_one_line_error(run_kbo("tell --trial " + std::to_string(id) + " --failed oops --sem 0.1" + where, dir), "--sem");
  json s = run_kbo("show --json" + where, dir).json();
  EXPECT_EQ(s["trials"][0]["state"], "pending");
  const CmdResult told = run_kbo("tell --trial " + std::to_string(id) + " --value 1.5 --sem 0.25" + where, dir);
  ASSERT_EQ(told.code, 0) << told.err;
  EXPECT_EQ(told.json()["sem"].get<double>(), 0.25);
  // A point evaluated elsewhere, with its standard error; a bad one adds nothing.
  ASSERT_EQ(run_kbo("tell --point '[0.5, 0.5]' --value 2 --sem 1e-3" + where, dir).code, 0);
  expect_noisy_one_line_error(run_kbo("tell --point '[0.5, 0.5]' --value 2 --sem -3" + where, dir), "sem");
  s = run_kbo("show --json" + where, dir).json();
  ASSERT_EQ(s["trials"].size(), 2u);
  EXPECT_EQ(s["trials"][0]["sem"].get<double>(), 0.25);
  EXPECT_EQ(s["trials"][1]["sem"].get<double>(), 1e-3);
  // Several objectives: refused in one line.
  const std::string moo = " --storage sqlite:" + (dir / "t.db") + " --study m";
  const json m = run_kbo("ask --bounds 0:1 --directions minimize,maximize" + moo, dir).json();
  expect_noisy_one_line_error(run_kbo("tell --trial " + std::to_string(m["trial"].get<int>()) + " --values 1,2 --sem 0.1" + moo, dir),
                        "one objective");
}

TEST(NoisyCli, EnqueueingAnEvaluatedPointIsAReplicateTheModelTakes) {
  TempDir dir("noisy_replicate");
  const std::string where = " --storage sqlite:" + (dir / "r.db") + " --study r";
  const std::string run = "optimize " + noisy_sem_objective(dir) + " --bounds 0:1,0:1 --init 4 --seed 3 --json" + where;
  const json first = run_kbo(run + " --iters 3", dir).json();
  const json x2 = first["trials"][2]["x"];
  const json x5 = first["trials"][5]["x"];
  for (const std::string& x : {x2.dump(), x2.dump(), x5.dump()}) {
    const CmdResult q = run_kbo("enqueue --point '" + x + "'" + where, dir);
    ASSERT_EQ(q.code, 0) << q.err;
  }
  // The queued replicates run first, then the model (which now has equal rows) suggests the rest.
  const CmdResult r = run_kbo(run + " --iters 9", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = r.json();
  ASSERT_EQ(noisy_complete_count(s), 13);
  int at2 = 0, at5 = 0;
  for (const auto& t : s["trials"]) at2 += t["x"] == x2, at5 += t["x"] == x5;
  EXPECT_EQ(at2, 3);
  EXPECT_EQ(at5, 2);
  for (std::size_t i = 10; i < s["trials"].size(); ++i)
    EXPECT_EQ(s["trials"][i]["info"].value("repeat_replaced_by_random", false), false) << s["trials"][i];
  EXPECT_TRUE(s["recommended"].is_object());
}

TEST(NoisyCli, DeterministicStudyRecommendsTheBestObservedTrial) {
  TempDir dir("noisy_deterministic");
  const CmdResult r = run_kbo("optimize --problem branin --init 5 --iters 15 --seed 3 --json", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = r.json();
  ASSERT_TRUE(s["recommended"].is_object());
  // No sem, no point evaluated twice: deterministic, its observations are the objective's values.
  EXPECT_FALSE(s["noisy"].get<bool>());
  EXPECT_EQ(s["recommended"]["by"], "best_observed");
  EXPECT_EQ(s["recommended"]["trial"], s["best_observed"]["trial"]);
  EXPECT_EQ(s["best_trial"], s["best_observed"]["trial"]);
  // The model's posterior there is given too, and it interpolates the observation (to 1 % of the values' range).
  double lo = 1e300, hi = -1e300;
  for (const auto& t : s["trials"]) lo = std::min(lo, t["value"].get<double>()), hi = std::max(hi, t["value"].get<double>());
  EXPECT_NEAR(s["recommended"]["mean"].get<double>(), s["recommended"]["value"].get<double>(), 0.01 * (hi - lo));
  EXPECT_LT(s["recommended"]["sd"].get<double>(), 0.01 * (hi - lo));
  // Random search has no model: the best observed trial, said so, without a posterior.
  const json rnd = run_kbo("optimize --problem branin --init 5 --iters 5 --seed 3 --strategy random --json", dir).json();
  EXPECT_EQ(rnd["recommended"]["trial"], rnd["best_observed"]["trial"]);
  EXPECT_TRUE(rnd["recommended"]["mean"].is_null());
  EXPECT_TRUE(rnd["recommended"]["sd"].is_null());
  EXPECT_EQ(rnd["recommended"]["by"], "best_observed");
}

TEST(NoisyCli, ALuckyLowDrawAmongHighValuesIsNotRecommended) {
  // f(x) = 10 + 20 (x − 0.8)² on [0, 1], minimised; draws within ±0.6 of f; at x = 0.3 (f = 15) one low draw
  // of 7: the best observed value. With a standard error of 2 on every trial it is a lucky draw, four standard
  // errors low, and the posterior mean there stays near its neighbours'; with 0.01 the same 7 is believed.
  TempDir dir("noisy_outlier");
  for (const double sem : {2.0, 0.01}) {
    const std::string name = sem > 1.0 ? "large" : "small";
    std::ofstream csv(dir / (name + ".csv"));
    csv << "x0,value,sem\n";
    for (int i = 0; i <= 20; ++i) {
      const double x = i / 20.0;
      const double f = 10.0 + 20.0 * (x - 0.8) * (x - 0.8);
      csv << x << "," << (i == 6 ? 7.0 : f + 0.6 * std::sin(7.0 * i)) << "," << sem << "\n";
    }
    csv.close();
    const std::string where = " --storage sqlite:" + (dir / "o.db") + " --study " + name;
    ASSERT_EQ(run_kbo("import --csv " + (dir / (name + ".csv")) + " --bounds 0:1 --init 3 --seed 1" + where, dir).code, 0);
    ASSERT_EQ(run_kbo("ask" + where, dir).code, 0);  // a BO step: the model is fitted and its state stored
    const json s = run_kbo("show --json" + where, dir).json();
    EXPECT_EQ(s["best_observed"]["trial"].get<int>(), 6);
    EXPECT_EQ(s["best_observed"]["value"].get<double>(), 7.0);
    ASSERT_EQ(s["recommended"]["by"], "posterior_mean");
    EXPECT_EQ(s["best_trial"], s["recommended"]["trial"]);
    if (sem > 1.0) {
      EXPECT_NE(s["recommended"]["trial"].get<int>(), 6);
      EXPECT_NEAR(s["recommended"]["x"][0].get<double>(), 0.8, 0.15);
      EXPECT_NEAR(s["recommended"]["mean"].get<double>(), 10.0, 1.5);  // near f's minimum
    } else {
      EXPECT_EQ(s["recommended"]["trial"].get<int>(), 6);
      EXPECT_NEAR(s["recommended"]["mean"].get<double>(), 7.0, 0.5);
    }
  }
}
