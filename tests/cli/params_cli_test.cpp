// Named, typed parameters as a user runs them: `kbo optimize --param ...` (and --params JSON, TOML
// [[params]] tables), the objective's payload, `kbo show` tables/JSON/CSV, and bad input (exit 2, nothing
// stored).
#include <gtest/gtest.h>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

// Fails (exit 3) unless the payload holds the typed params and x; value from the params.
void write_objective(const std::string& path) {
  std::ofstream f(path);
  f << "import json, math, sys\n"
       "p = json.loads(sys.stdin.readline())\n"
       "q = p['params']\n"
       "assert isinstance(p['trial'], int) and isinstance(p['x'], list)\n"
       "assert isinstance(q['lr'], float) and 1e-4 <= q['lr'] <= 1.0, q\n"
       "assert isinstance(q['layers'], int) and not isinstance(q['layers'], bool) and 1 <= q['layers'] <= 6, q\n"
       "assert q['opt'] in ('adam', 'sgd'), q\n"
       "assert q['seed'] == 3, q\n"
       "v = (math.log10(q['lr']) + 2) ** 2 + (q['layers'] - 4) ** 2 + (0 if q['opt'] == 'adam' else 1)\n"
       "print(v)\n";
}

const char* kParams = "--param 'lr=float:1e-4:1:log' --param 'layers=int:1:6' --param 'opt=cat:adam,sgd' --param 'seed=fixed:3'";

void expect_typed(const json& params) {
  EXPECT_TRUE(params["lr"].is_number_float());
  EXPECT_TRUE(params["layers"].is_number_integer());
  EXPECT_TRUE(params["opt"].is_string());
  EXPECT_EQ(params["seed"], 3);
}

}  // namespace

TEST(ParamsCli, OptimizeWithNamedParamsPassesTypedValuesAndShowNamesThem) {
  TempDir dir("params_optimize");
  write_objective(dir / "obj.py");
  const std::string storage = "--storage " + quote("sqlite:" + (dir / "s.db"));
  const CmdResult r = run_kbo("optimize --objective " + quote("python3 " + (dir / "obj.py")) + " " + kParams +
                                  " --init 4 --iters 4 --seed 1 --json " + storage,
                              dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  ASSERT_EQ(j["n_complete"], 8) << r.out;  // every payload passed the objective's type asserts
  EXPECT_EQ(j["space"]["type"], "params");
  expect_typed(j["best_params"]);
  for (const auto& t : j["trials"]) expect_typed(t["params"]);

  const CmdResult show = run_kbo("show " + storage, dir);
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("lr float [0.0001, 1] log; layers int [1, 6]; opt {adam, sgd}; seed = 3"), std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("layers="), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("best: trial"), std::string::npos);
  EXPECT_NE(show.out.find(" opt="), std::string::npos) << show.out;
  const CmdResult csv = run_kbo("show --format csv " + storage, dir);
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("id,state,value,lr,layers,opt,seed,x0,", 0), 0u) << csv.out;

  const CmdResult ask = run_kbo("ask " + storage, dir);
  ASSERT_EQ(ask.code, 0) << ask.err;
  expect_typed(json::parse(ask.out)["params"]);
}

TEST(ParamsCli, ParamsJsonAndTomlTablesMakeTheSameSpaceAsParamFlags) {
  TempDir dir("params_forms");
  write_objective(dir / "obj.py");
  const std::string obj = "--objective " + quote("python3 " + (dir / "obj.py")) + " --init 2 --iters 0 --json";
  const CmdResult a = run_kbo("optimize " + obj + " " + kParams, dir);
  ASSERT_EQ(a.code, 0) << a.err;
  const std::string js =
      R"([{"name":"lr","type":"float","low":1e-4,"high":1,"log":true},"layers=int:1:6",)"
      R"({"name":"opt","type":"categorical","choices":["adam","sgd"]},{"name":"seed","type":"fixed","value":3}])";
  const CmdResult b = run_kbo("optimize " + obj + " --params " + quote(js), dir);
  ASSERT_EQ(b.code, 0) << b.err;
  {
    std::ofstream f(dir / "study.toml");
    f << "objective = \"python3 obj.py\"\ninit = 2\niters = 0\n"
         "[[params]]\nname = \"lr\"\ntype = \"float\"\nlow = 1e-4\nhigh = 1.0\nlog = true\n"
         "[[params]]\nname = \"layers\"\ntype = \"int\"\nlow = 1\nhigh = 6\n"
         "[[params]]\nname = \"opt\"\ntype = \"categorical\"\nchoices = [\"adam\", \"sgd\"]\n"
         "[[params]]\nname = \"seed\"\ntype = \"fixed\"\nvalue = 3\n";
  }
  const CmdResult c = run_kbo("optimize --json --config " + quote(dir / "study.toml"), dir);
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(a.json()["space"], b.json()["space"]);
  EXPECT_EQ(a.json()["space"], c.json()["space"]);
  EXPECT_EQ(a.json()["trials"][0]["params"], c.json()["trials"][0]["params"]);  // same seed, same point
}

TEST(ParamsCli, BadParamsAreOneLineErrorsExit2AndNothingIsStored) {
  TempDir dir("params_bad");
  write_objective(dir / "obj.py");
  const std::string db = dir / "s.db";
  const std::string base = "optimize --objective " + quote("python3 " + (dir / "obj.py")) + " --storage " +
                           quote("sqlite:" + db) + " --init 2 --iters 0 ";
  struct Case {
    std::string args, expect;
  };
  for (const Case& k : {Case{"--param 'lr=floot:0:1'", "param 'lr': unknown type 'floot'"},
                        Case{"--param 'opt=cat:'", "param 'opt': a categorical parameter needs at least one choice"},
                        Case{"--param 'a=float:2:1'", "param 'a': needs low < high"},
                        Case{"--param 'lr=float:0:1:log'", "param 'lr': log scale needs low > 0"},
                        Case{"--params '[{\"name\":\"c\",\"type\":\"categorical\",\"choices\":[]}]'",
                             "param 'c': a categorical parameter needs at least one choice"},
                        Case{"--param 'a=float:0:1' --bounds 0:1", "mutually exclusive"}}) {
    const CmdResult r = run_kbo(base + k.args, dir);
    EXPECT_EQ(r.code, 2) << k.args << "\n" << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(k.expect), std::string::npos) << k.args << "\n" << r.err;
  }
  EXPECT_FALSE(fs::exists(db)) << "a rejected command must not create the study file";
}

namespace {
// {"value": x0 + x1, "constraints": [1 - x0^2 - x1^2]}; with $TWO_AFTER=k, trials >= k return two constraints.
void write_constrained(const std::string& path) {
  std::ofstream f(path);
  f << "import json, os, sys\n"
       "p = json.loads(sys.stdin.readline())\n"
       "x = p['x']\n"
       "c = [1 - x[0] ** 2 - x[1] ** 2]\n"
       "if p['trial'] >= int(os.environ.get('TWO_AFTER', '1000000')): c.append(0.0)\n"
       "print(json.dumps({'value': x[0] + x[1], 'constraints': c}))\n";
}
}  // namespace

TEST(ConstraintsCli, BestIsTheBestFeasibleTrialAndConstraintsAreStored) {
  TempDir dir("constraints");
  write_constrained(dir / "obj.py");
  const std::string storage = "--storage " + quote("sqlite:" + (dir / "s.db"));
  const CmdResult r = run_kbo("optimize --objective " + quote("python3 " + (dir / "obj.py")) +
                                  " --bounds 0:1,0:1 --init 5 --iters 10 --seed 2 --json " + storage,
                              dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = run_kbo("show --json " + storage, dir).json();  // read back from the file
  double best_feasible = 1e9;
  for (const auto& t : j["trials"]) {
    ASSERT_EQ(t["constraints"].size(), 1u);
    const auto x = t["x"].get<std::vector<double>>();
    EXPECT_NEAR(t["constraints"][0].get<double>(), 1 - x[0] * x[0] - x[1] * x[1], 1e-12);
    EXPECT_EQ(t["feasible"].get<bool>(), t["constraints"][0].get<double>() <= 0);
    if (t["feasible"].get<bool>()) best_feasible = std::min(best_feasible, t["value"].get<double>());
  }
  ASSERT_LT(best_feasible, 1e9);
  EXPECT_EQ(j["best_value"].get<double>(), best_feasible);
  EXPECT_LT(best_feasible, 1.15);  // feasible optimum 1 (on the unit circle at an axis)
}

TEST(ConstraintsCli, AConstraintListWhoseLengthChangesStopsWithExit2) {
  TempDir dir("constraints_len");
  write_constrained(dir / "obj.py");
  const std::string db = dir / "s.db";
  const CmdResult r = run_kbo("optimize --objective " + quote("TWO_AFTER=3 python3 " + (dir / "obj.py")) +
                                  " --bounds 0:1,0:1 --init 5 --iters 0 --storage " + quote("sqlite:" + db),
                              dir);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("constraints: the objective returned 2 constraint value(s), but trial 0 has 1"), std::string::npos)
      << r.err;
  const json j = run_kbo("show --json --storage " + quote("sqlite:" + db), dir).json();
  EXPECT_EQ(j["n_complete"], 3);  // trial 3 was handed back, not recorded
}

TEST(WarmStartCli, EnqueueTellPointAndImportBeforeAndDuringAStudy) {
  TempDir dir("warm");
  write_objective(dir / "obj.py");
  const std::string storage = "--storage " + quote("sqlite:" + (dir / "s.db"));
  const std::string space = std::string(kParams) + " ";
  // Before the study: queue a point (creates the study) and tell one evaluated elsewhere.
  const CmdResult q = run_kbo("enqueue " + space + storage +
                                  " --point '{\"lr\": 0.01, \"layers\": 4, \"opt\": \"adam\"}'",
                              dir);
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(json::parse(q.out)["state"], "queued");
  const CmdResult t = run_kbo("tell " + storage + " --point '{\"lr\": 1.0, \"layers\": 1, \"opt\": \"sgd\"}' --value 14", dir);
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(json::parse(t.out)["state"], "complete");
  {
    std::ofstream f(dir / "old.csv");
    f << "lr,layers,opt,value\n0.001,6,sgd,6\n0.1,2,adam,5\n";
  }
  const CmdResult im = run_kbo("import --csv " + quote(dir / "old.csv") + " " + storage, dir);
  ASSERT_EQ(im.code, 0) << im.err;
  // The run evaluates the queued point first.
  const CmdResult r = run_kbo("optimize --objective " + quote("python3 " + (dir / "obj.py")) + " " + space +
                                  "--init 3 --iters 2 --json " + storage,
                              dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["trials"][0]["params"]["layers"], 4);
  EXPECT_NEAR(j["trials"][0]["value"].get<double>(), 0.0, 1e-12);  // the optimum, queued by hand
  EXPECT_EQ(j["best_trial"], 0);
  EXPECT_EQ(j["trials"][2]["params"]["opt"], "sgd");  // imported rows
  EXPECT_EQ(j["trials"][2]["value"].get<double>(), 6.0);
  // Bad points: a wrong name, a value out of range; exit 2 and nothing added.
  const int n = j["n_trials"].get<int>();
  const CmdResult bad1 = run_kbo("enqueue " + storage + " --point '{\"lr\": 0.01, \"layers\": 4, \"optim\": \"adam\"}'", dir);
  EXPECT_EQ(bad1.code, 2);
  EXPECT_NE(bad1.err.find("param 'optim': not a parameter of this study"), std::string::npos) << bad1.err;
  const CmdResult bad2 = run_kbo("tell " + storage + " --point '{\"lr\": 0.01, \"layers\": 9, \"opt\": \"adam\"}' --value 1", dir);
  EXPECT_EQ(bad2.code, 2);
  EXPECT_NE(bad2.err.find("param 'layers': 9 is outside [1, 6]"), std::string::npos) << bad2.err;
  EXPECT_EQ(run_kbo("show --json " + storage, dir).json()["n_trials"].get<int>(), n);
}

// An enqueued point is the next suggestion of every ask path, exactly once: `kbo ask` hands it out (phase
// 'asked', the study's next ask is a new point), and `kbo worker` evaluates a point queued later.
TEST(WarmStartCli, AskHandsOutEnqueuedPointsOnceAndWorkersEvaluateThem) {
  TempDir dir("warm_ask");
  write_objective(dir / "obj.py");
  const std::string storage = "--storage " + quote("sqlite:" + (dir / "s.db"));
  const std::string space = std::string(kParams) + " ";
  ASSERT_EQ(run_kbo("enqueue " + space + storage + " --point '{\"lr\": 0.01, \"layers\": 4, \"opt\": \"adam\"}'", dir).code, 0);
  ASSERT_EQ(run_kbo("enqueue " + storage + " --point '{\"lr\": 0.5, \"layers\": 2, \"opt\": \"sgd\"}'", dir).code, 0);
  const CmdResult a = run_kbo("ask " + storage + " --n 3", dir);
  ASSERT_EQ(a.code, 0) << a.err;
  std::vector<json> asked;
  std::istringstream lines(a.out);
  for (std::string line; std::getline(lines, line);) asked.push_back(json::parse(line));
  ASSERT_EQ(asked.size(), 3u);
  EXPECT_EQ(asked[0]["trial"], 0);  // the queued trials, in order, same ids
  EXPECT_EQ(asked[0]["params"]["layers"], 4);
  EXPECT_EQ(asked[1]["trial"], 1);
  EXPECT_EQ(asked[1]["params"]["opt"], "sgd");
  EXPECT_EQ(asked[2]["trial"], 2);  // then a new suggestion
  json j = run_kbo("show --json " + storage, dir).json();
  ASSERT_EQ(j["n_trials"], 3);
  for (const auto& t : j["trials"]) EXPECT_EQ(t["phase"], "asked") << t.dump();
  // Asked once: a second ask does not hand a queued point out again.
  const json again = json::parse(run_kbo("ask " + storage, dir).out);
  EXPECT_EQ(again["trial"], 3);
  ASSERT_EQ(run_kbo("tell " + storage + " --trial 0 --value 0", dir).code, 0);
  // Queued after the asks: a worker evaluates it first.
  ASSERT_EQ(run_kbo("enqueue " + storage + " --point '{\"lr\": 0.1, \"layers\": 1, \"opt\": \"adam\"}'", dir).code, 0);
  const CmdResult w = run_kbo("worker " + storage + " --study default --max-trials 1 --json -- python3 " +
                                  quote(dir / "obj.py"),
                              dir);
  ASSERT_EQ(w.code, 0) << w.err;
  j = run_kbo("show --json " + storage, dir).json();
  ASSERT_EQ(j["n_trials"], 5);
  EXPECT_EQ(j["trials"][4]["state"], "complete");
  EXPECT_EQ(j["trials"][4]["params"]["layers"], 1);
  EXPECT_NEAR(j["trials"][4]["value"].get<double>(), 1.0 + 9.0, 1e-9);  // (log10 0.1 + 2)^2 + (1 - 4)^2
}
