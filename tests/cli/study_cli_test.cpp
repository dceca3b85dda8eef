// `kbo optimize / ask / tell / show` as a user runs them: JSON contract, reproducibility, config
// files, external objectives with failures, resume, ask/tell across processes, concurrent askers and
// durability under kill -9.
#include <gtest/gtest.h>

#include <signal.h>

#include <set>
#include <thread>

#include "cli_support.hpp"
#include "kbo/storage/sqlite.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

// Objective script: value = Σ (x_i − 0.3)², read from the JSON on stdin, after an optional delay.
// Fails (exit 3) on trial ids listed in $FAIL_TRIALS.
void write_objective(const std::string& path, double delay_s) {
  std::ofstream f(path);
  f << "#!/bin/sh\n"
       "read -r line\n"
       "id=$(echo \"$line\" | sed 's/.*\"trial\":\\([0-9]*\\).*/\\1/')\n"
       "for t in $FAIL_TRIALS; do [ \"$t\" = \"$id\" ] && { echo 'boom' >&2; exit 3; }; done\n"
    << (delay_s > 0 ? "sleep " + std::to_string(delay_s) + "\n" : std::string())
    << "echo \"$line\" | sed 's/.*\\[\\(.*\\)\\].*/\\1/' | "
       "awk -F, '{s=0; for(i=1;i<=NF;i++) s+=($i-0.3)^2; printf \"%.17g\\n\", s}'\n";
}

std::vector<std::vector<double>> points(const json& j) {
  std::vector<std::vector<double>> out;
  for (const auto& t : j["trials"]) out.push_back(t["x"].get<std::vector<double>>());
  return out;
}

}  // namespace

TEST(OptimizeCli, JsonContractOnABuiltinProblem) {
  TempDir dir("json");
  const CmdResult r = run_kbo("optimize --problem branin --init 3 --iters 4 --seed 1 --json", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);  // exactly one JSON object
  const json j = r.json();
  ASSERT_EQ(j["n_trials"].get<int>(), 7);
  ASSERT_EQ(j["trials"].size(), 7u);
  double best = 1e300;
  for (int i = 0; i < 7; ++i) {
    const auto& t = j["trials"][i];
    EXPECT_EQ(t["id"].get<int>(), i);
    EXPECT_EQ(t["state"], "complete");
    ASSERT_EQ(t["x"].size(), 2u);
    // The value is Branin at x (recomputed here from the closed form).
    const double x1 = t["x"][0], x2 = t["x"][1];
    const double b = 5.1 / (4 * M_PI * M_PI), c = 5 / M_PI, s = 10, tt = 1 / (8 * M_PI);
    const double f = std::pow(x2 - b * x1 * x1 + c * x1 - 6, 2) + s * (1 - tt) * std::cos(x1) + s;
    EXPECT_NEAR(t["value"].get<double>(), f, 1e-9 * std::max(1.0, f));
    EXPECT_GE(x1, -5.0);
    EXPECT_LE(x1, 10.0);
    best = std::min(best, t["value"].get<double>());
  }
  EXPECT_EQ(j["best_value"].get<double>(), best);
  EXPECT_EQ(j["best_x"].size(), 2u);
}

TEST(OptimizeCli, SameSeedSameTrialsAndTableOutput) {
  TempDir dir("seed");
  const json a = run_kbo("optimize --problem hartmann6 --init 4 --iters 3 --seed 7 --json", dir).json();
  const json b = run_kbo("optimize --problem hartmann6 --init 4 --iters 3 --seed 7 --json", dir).json();
  const json c = run_kbo("optimize --problem hartmann6 --init 4 --iters 3 --seed 8 --json", dir).json();
  EXPECT_EQ(points(a), points(b));
  EXPECT_EQ(a["best_value"], b["best_value"]);
  EXPECT_NE(points(a), points(c));
  const CmdResult t = run_kbo("optimize --problem hartmann6 --init 4 --iters 3 --seed 7", dir);
  ASSERT_EQ(t.code, 0);
  EXPECT_NE(t.out.find("best: trial " + std::to_string(a["best_trial"].get<int>())), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("7 trials: 7 complete, 0 failed, 0 pending"), std::string::npos) << t.out;
}

TEST(OptimizeCli, ConfigFileEqualsFlagsAndFlagsOverrideIt) {
  TempDir dir("config");
  std::ofstream(dir / "study.toml") << "problem = \"branin\"\ninit = 3\niters = 2\nseed = 5\nkernel = \"matern32\"\n"
                                       "no_ard = true\nacq-optimizer = \"multistart\"\nbeta = 2.0\n";
  const json from_file = run_kbo("optimize --config " + (dir / "study.toml") + " --json", dir).json();
  const json from_flags =
      run_kbo("optimize --problem branin --init 3 --iters 2 --seed 5 --kernel matern32 --no-ard --beta 2 --json", dir).json();
  EXPECT_EQ(points(from_file), points(from_flags));
  EXPECT_EQ(from_file["n_trials"].get<int>(), 5);
  const json overridden = run_kbo("optimize --config " + (dir / "study.toml") + " --iters 4 --json", dir).json();
  EXPECT_EQ(overridden["n_trials"].get<int>(), 7);
  // bounds as an array of pairs in TOML, objective command, maximize.
  std::ofstream(dir / "ext.toml") << "objective = \"echo 1\"\nbounds = [[0, 1], [-2, 2.5]]\nmaximize = true\n"
                                     "init = 2\niters = 0\n";
  const json ext = run_kbo("optimize --config " + (dir / "ext.toml") + " --json", dir).json();
  EXPECT_EQ(ext["space"]["upper"], json({1.0, 2.5}));
  EXPECT_EQ(ext["direction"], "maximize");
}

TEST(OptimizeCli, ExternalObjectiveFailuresAreRecordedAndTheRunGoesOn) {
  TempDir dir("ext");
  write_objective(dir / "obj.sh", 0.0);
  const CmdResult r = run_kbo("optimize --objective 'FAIL_TRIALS=\"1 4\" sh " + (dir / "obj.sh") +
                              "' --bounds 0:1,0:1 --init 3 --iters 3 --seed 2 --json",
                          dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  ASSERT_EQ(j["n_trials"].get<int>(), 6);
  EXPECT_EQ(j["n_failed"].get<int>(), 2);
  EXPECT_EQ(j["trials"][1]["state"], "failed");
  EXPECT_EQ(j["trials"][1]["reason"], "exit status 3: boom");
  EXPECT_TRUE(j["trials"][1]["value"].is_null());
  EXPECT_EQ(j["trials"][4]["state"], "failed");
  for (int i : {0, 2, 3, 5}) {
    const auto& t = j["trials"][i];
    ASSERT_EQ(t["state"], "complete");
    const double x0 = t["x"][0], x1 = t["x"][1];
    EXPECT_NEAR(t["value"].get<double>(), (x0 - 0.3) * (x0 - 0.3) + (x1 - 0.3) * (x1 - 0.3), 1e-12);
  }
  // Timeouts too.
  const json slow = run_kbo("optimize --objective 'sleep 5; echo 1' --bounds 0:1 --init 1 --iters 0 --eval-timeout 0.2 --json", dir).json();
  EXPECT_EQ(slow["trials"][0]["state"], "failed");
  EXPECT_NE(slow["trials"][0]["reason"].get<std::string>().find("timeout"), std::string::npos);
}

TEST(OptimizeCli, ResumeContinuesTheSameStudy) {
  TempDir dir("resume");
  const std::string st = " --storage sqlite:" + (dir / "r.db") + " --study r --json";
  const json first = run_kbo("optimize --problem branin --init 3 --iters 2 --seed 4" + st, dir).json();
  ASSERT_EQ(first["n_trials"].get<int>(), 5);
  const json again = run_kbo("optimize --problem branin --init 3 --iters 2 --seed 4" + st, dir).json();
  EXPECT_EQ(points(again), points(first));  // already finished: nothing new
  const json more = run_kbo("optimize --problem branin --init 3 --iters 5 --seed 4" + st, dir).json();
  ASSERT_EQ(more["n_trials"].get<int>(), 8);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(more["trials"][i], first["trials"][i]);
  // show --json prints the same object (without the run-only keys).
  json shown = run_kbo("show --storage sqlite:" + (dir / "r.db") + " --study r --json", dir).json();
  json expected = more;
  expected.erase("strategy");
  expected.erase("requested_trials");
  EXPECT_EQ(shown, expected);
}

TEST(AskTellCli, RoundTripAcrossProcesses) {
  TempDir dir("asktell");
  const std::string st = " --storage sqlite:" + (dir / "a.db") + " --study s";
  // The first ask creates the study from the space flags; later asks use the stored configuration.
  CmdResult a0 = run_kbo("ask --bounds 0:1,0:1 --init 2 --seed 3" + st, dir);
  ASSERT_EQ(a0.code, 0) << a0.err;
  json t0 = a0.json();
  EXPECT_EQ(t0["trial"].get<int>(), 0);
  ASSERT_EQ(run_kbo("tell --trial 0 --value 1.5" + st, dir).code, 0);
  json t1 = run_kbo("ask" + st, dir).json();
  EXPECT_EQ(t1["trial"].get<int>(), 1);
  const CmdResult told = run_kbo("tell --trial 1 --failed 'out of memory'" + st, dir);
  ASSERT_EQ(told.code, 0) << told.err;
  EXPECT_EQ(told.json()["state"], "failed");
  // Beyond the initial design: BO suggestions from a fresh process each time.
  for (int k = 0; k < 3; ++k) {
    const json t = run_kbo("ask" + st, dir).json();
    ASSERT_EQ(t["trial"].get<int>(), 2 + k);
    const double x0 = t["x"][0], x1 = t["x"][1];
    ASSERT_EQ(run_kbo("tell --trial " + std::to_string(t["trial"].get<int>()) + " --value " +
                      std::to_string((x0 - 0.3) * (x0 - 0.3) + x1 * x1) + st,
                  dir).code, 0);
  }
  const json s = run_kbo("show --json" + st, dir).json();
  ASSERT_EQ(s["n_trials"].get<int>(), 5);
  EXPECT_EQ(s["trials"][0]["value"].get<double>(), 1.5);
  EXPECT_EQ(s["trials"][0]["x"], t0["x"]);
  EXPECT_EQ(s["trials"][1]["state"], "failed");
  EXPECT_EQ(s["trials"][1]["reason"], "out of memory");
  EXPECT_EQ(s["n_complete"].get<int>(), 4);
  // The ask of a BO step saw the stored config (seed 3, init 2): same as a one-process replay.
  EXPECT_EQ(s["trials"][2]["worker"].get<std::string>().rfind("ask@", 0), 0u);
}

TEST(AskTellCli, ConcurrentAskersNeverGetTheSameTrial) {
  TempDir dir("concurrent");
  const std::string st = " --storage sqlite:" + (dir / "c.db") + " --study c";
  // Past the initial design so that every ask fits a GP (the slow path that holds the write lock).
  for (int i = 0; i < 3; ++i) {
    const json t = run_kbo("ask --bounds 0:1,0:1,0:1 --init 3 --seed 1" + st, dir).json();
    ASSERT_EQ(run_kbo("tell --trial " + std::to_string(t["trial"].get<int>()) + " --value " + std::to_string(i * 0.7) + st, dir).code, 0);
  }
  constexpr int kAskers = 4;
  std::vector<pid_t> pids;
  for (int i = 0; i < kAskers; ++i)
    pids.push_back(spawn_kbo("ask" + st, dir / ("ask" + std::to_string(i)), dir / ("askerr" + std::to_string(i))));
  std::set<int> ids;
  std::set<std::vector<double>> xs;
  for (int i = 0; i < kAskers; ++i) {
    ASSERT_EQ(wait_exit_code(pids[i]), 0) << slurp(dir / ("askerr" + std::to_string(i)));
    const json t = json::parse(slurp(dir / ("ask" + std::to_string(i))));
    ids.insert(t["trial"].get<int>());
    xs.insert(t["x"].get<std::vector<double>>());
  }
  EXPECT_EQ(ids, (std::set<int>{3, 4, 5, 6}));
  EXPECT_EQ(xs.size(), static_cast<size_t>(kAskers));  // each saw the others' pending points
}

TEST(OptimizeCli, DurableUnderKill9AndResumable) {
  TempDir dir("kill9");
  write_objective(dir / "slow.sh", 0.15);
  const std::string db = dir / "k.db";
  const std::string args = "optimize --objective 'sh " + (dir / "slow.sh") + "' --bounds 0:1,0:1 --init 4 --iters 8 --seed 6 "
                           "--storage sqlite:" + db + " --study k --json";
  const pid_t pid = spawn_kbo(args, dir / "run1.out", dir / "run1.err");
  ASSERT_GT(pid, 0);
  // Wait until at least 5 trials are complete, then kill -9 mid-run.
  auto complete = [&] {
    std::vector<kbo::Trial> done;
    try {
      kbo::SqliteStorage storage(db);
      for (const auto& t : storage.trials("k"))
        if (t.state == kbo::TrialState::Complete) done.push_back(t);
    } catch (const std::exception&) {
      // study not created yet
    }
    return done;
  };
  std::vector<kbo::Trial> before;
  for (int polls = 0; polls < 3000 && before.size() < 5; ++polls) {
    usleep(20000);
    before = complete();
  }
  ASSERT_GE(before.size(), 5u) << "the run did not make progress: " << slurp(dir / "run1.err");
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  EXPECT_EQ(wait_exit_code(pid), 128 + SIGKILL);
  before = complete();  // everything committed before the kill
  ASSERT_LT(before.size(), 12u) << "the run finished before the kill; make the objective slower";

  const CmdResult again = run_kbo(args, dir);
  ASSERT_EQ(again.code, 0) << again.err;
  const json j = again.json();
  EXPECT_EQ(j["n_trials"].get<int>(), 12);
  EXPECT_EQ(j["n_complete"].get<int>(), 12);
  EXPECT_EQ(j["n_pending"].get<int>(), 0);
  for (const auto& t : before) {
    const auto& r = j["trials"][t.id];
    EXPECT_EQ(r["state"], "complete");
    EXPECT_EQ(r["value"].get<double>(), *t.value) << "trial " << t.id;
    EXPECT_EQ(r["x"].get<std::vector<double>>(), std::vector<double>(t.x.data(), t.x.data() + t.x.size()));
  }
}

TEST(OptimizeCli, SetSpaceTrialsAreCanonicalSetsInTheElementBox) {
  TempDir dir("set");
  // f(set) = squared distance between the two elements' first coordinates: invariant to their order.
  const CmdResult r = run_kbo(
      "optimize --objective 'echo {x} | awk \"{printf \\\"%.17g\\\\n\\\", (\\$1-\\$3)^2}\"' --space set --set-size 3 --bounds 0:1,-1:1 "
      "--init 4 --iters 3 --seed 1 --json",
      dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["space"]["type"], "set");
  EXPECT_EQ(j["space"]["set_size"], 3);
  ASSERT_EQ(j["n_complete"].get<int>(), 7);
  for (const auto& t : j["trials"]) {
    const auto x = t["x"].get<std::vector<double>>();
    ASSERT_EQ(x.size(), 6u);  // 3 elements x 2 coordinates
    for (int e = 0; e < 3; ++e) {
      EXPECT_GE(x[2 * e], 0.0);
      EXPECT_LE(x[2 * e], 1.0);
      EXPECT_GE(x[2 * e + 1], -1.0);
      EXPECT_LE(x[2 * e + 1], 1.0);
      if (e > 0) { EXPECT_LE(x[2 * (e - 1)], x[2 * e]); }  // canonical: sorted by first coordinate
    }
    EXPECT_NEAR(t["value"].get<double>(), (x[0] - x[2]) * (x[0] - x[2]), 1e-12);
  }
}
