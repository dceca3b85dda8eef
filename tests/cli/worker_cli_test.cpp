// Many workers on one study, through the CLI as users run them (`kbo optimize --workers N` starts N
// `kbo worker` processes), on SQLite and on PostgreSQL (a throw-away cluster): no trial duplicated or
// lost, ids contiguous, the budget met exactly; a worker killed with -9 (or frozen with SIGSTOP, so
// only its missing heartbeats reveal it) loses its running trial, which is re-offered at the same point,
// and the study completes. Plus `kbo ask --n Q` and the worker's bad-input errors.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <future>
#include <map>
#include <random>
#include <set>

#include "cli_support.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/study.hpp"
#include "postgres_server.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

/// Objective: logs the trial id it evaluates, sleeps, prints x0 + 2 x1 (so a value proves its point).
void write_objective(const std::string& path, const std::string& log, double sleep_s) {
  std::ofstream(path) << "#!/bin/sh\nread line\necho \"$1\" >> '" << log << "'\nsleep " << sleep_s
                      << "\necho \"$2 $3\" | awk '{printf \"%.17g\\n\", $1 + 2 * $2}'\n";
}

std::vector<int> read_ids(const std::string& log) {
  std::vector<int> ids;
  std::ifstream in(log);
  for (int id; in >> id;) ids.push_back(id);
  return ids;
}

int pid_of_worker(const std::string& worker) {
  const auto colon = worker.rfind(':');
  return colon == std::string::npos ? -1 : std::stoi(worker.substr(colon + 1));
}

/// Freezes (SIGSTOP) a `kbo worker` that is running a trial, once `min_complete` trials are complete,
/// choosing among the running trials with `rng`. Race-free: after the stop, the trial is re-read and must
/// still be pending and owned by that worker (else the worker is resumed and another one is chosen).
/// Returns {pid, trial id}, or {-1, -1} if none was found in time.
std::pair<int, int> freeze_running_worker(const std::string& url, const std::string& study, int min_complete,
                                          std::mt19937& rng) {
  for (int polls = 0; polls < 3000; ++polls) {
    usleep(20000);
    std::vector<kbo::Trial> running;
    try {
      int complete = 0;
      for (const auto& t : kbo::open_storage(url)->trials(study)) {
        complete += t.state == kbo::TrialState::Complete;
        if (t.state == kbo::TrialState::Pending && t.worker.rfind("worker@", 0) == 0) running.push_back(t);
      }
      if (complete < min_complete || running.empty()) continue;
    } catch (const std::exception&) {
      continue;  // study not created yet
    }
    const kbo::Trial t = running[rng() % running.size()];
    const int pid = pid_of_worker(t.worker);
    if (kill(pid, SIGSTOP) != 0) continue;
    // A worker stopped inside a write transaction (a heartbeat, a tell) holds the storage's lock, and no storage
    // can take a lock from a live process: everyone would wait for it. Keep only a victim frozen outside one.
    auto probe = std::async(std::launch::async, [&] { return kbo::open_storage(url)->trials(study); });
    if (probe.wait_for(std::chrono::seconds(3)) != std::future_status::ready) {
      kill(pid, SIGCONT);
      probe.wait();
      continue;
    }
    const auto now = probe.get();
    if (now[t.id].state == kbo::TrialState::Pending && now[t.id].worker == t.worker) return {pid, t.id};
    kill(pid, SIGCONT);
  }
  return {-1, -1};
}

class WorkerCli : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = std::make_unique<TempDir>("worker_" + name.substr(0, name.find('/')) + "_" + GetParam());
    if (GetParam() == "postgres") {
      KBO_REQUIRE_POSTGRES(server);
      url_ = server->new_database("workers");
    } else {
      url_ = "sqlite:" + (*dir_ / "w.db");
    }
  }
  std::string st(const std::string& study) const { return " --storage " + quote(url_) + " --study " + study; }
  std::unique_ptr<TempDir> dir_;
  std::string url_;
};

/// The checks every finished multi-worker study must pass: ids 0..n-1, `budget` complete trials each
/// with the value of its own point, every lost trial re-offered exactly once at the same point.
void expect_complete_study(const json& s, int budget) {
  const auto& ts = s["trials"];
  int complete = 0, lost = 0;
  std::map<int, int> retries;  // lost id -> retry id
  for (size_t i = 0; i < ts.size(); ++i) {
    ASSERT_EQ(ts[i]["id"].get<int>(), static_cast<int>(i));
    const auto x = ts[i]["x"].get<std::vector<double>>();
    if (ts[i]["state"] == "complete") {
      ++complete;
      EXPECT_NEAR(ts[i]["value"].get<double>(), x[0] + 2 * x[1], 1e-12) << "trial " << i;
    } else {
      ASSERT_EQ(ts[i]["state"], "failed") << "trial " << i;
      ASSERT_EQ(ts[i]["reason"], kbo::kWorkerLost) << "trial " << i;
      ++lost;
    }
    if (ts[i].contains("retry_of")) {
      const int of = ts[i]["retry_of"].get<int>();
      EXPECT_EQ(ts[of]["reason"], kbo::kWorkerLost);
      EXPECT_EQ(ts[of]["x"], ts[i]["x"]);  // the same point, bit for bit
      EXPECT_EQ(retries.count(of), 0u) << "trial " << of << " re-offered twice";
      retries[of] = static_cast<int>(i);
    }
  }
  EXPECT_EQ(complete, budget);
  EXPECT_EQ(static_cast<int>(ts.size()), budget + lost);
  EXPECT_EQ(static_cast<int>(retries.size()), lost);
  EXPECT_EQ(s["n_pending"].get<int>(), 0);
}

}  // namespace

TEST_P(WorkerCli, EightWorkersFiftyTrialsNoneDuplicatedOrLost) {
  const std::string obj = *dir_ / "obj.sh", log = *dir_ / "calls.log";
  write_objective(obj, log, 0.05);
  const CmdResult r = run_kbo("optimize --objective " + quote("sh " + obj + " {trial} {x}") +
                                  " --bounds 0:1,0:1 --strategy random --init 50 --iters 0 --seed 3 --workers 8 --json" +
                                  st("w"),
                              *dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = r.json();
  EXPECT_EQ(s["budget"].get<int>(), 50);
  EXPECT_EQ(s["workers"].get<int>(), 8);
  ASSERT_EQ(s["n_trials"].get<int>(), 50);
  expect_complete_study(s, 50);
  // The objective ran exactly once per trial.
  std::vector<int> calls = read_ids(log);
  std::sort(calls.begin(), calls.end());
  std::vector<int> expected(50);
  for (int i = 0; i < 50; ++i) expected[i] = i;
  EXPECT_EQ(calls, expected);
  // The work was shared (8 processes, 50 trials of 50 ms each: more than one of them got trials).
  std::set<std::string> workers;
  for (const auto& t : s["trials"]) workers.insert(t["worker"].get<std::string>());
  EXPECT_GT(workers.size(), 1u);
  for (const auto& w : workers) EXPECT_EQ(w.rfind("worker@", 0), 0u) << w;
}

TEST_P(WorkerCli, SixteenWorkersWithAsksSlowerThanStaleAfterLoseNoTrial) {
  // Every suggestion takes 3 s (test hook) and every evaluation 1.5 s, with --stale-after 2: a worker
  // that held the write lock while computing its suggestion would stall the others' heartbeats and tells
  // for seconds, and their live trials would be given up as lost. The suggestion is computed outside the
  // lock and heartbeats go on until the result is stored, so no trial is reaped, dropped or duplicated.
  // (--stale-after 1 with 1.5 s asks failed now and then on a loaded 2-core machine: 16 processes' heartbeat
  // threads then wait for a CPU longer than a second; 2 s keeps the asks slower than stale-after.)
  const std::string obj = *dir_ / "obj.sh", log = *dir_ / "calls.log";
  write_objective(obj, log, 1.5);
  setenv("KBO_TEST_SLOW_ASK_SECONDS", "3", 1);
  const CmdResult r = run_kbo("optimize --objective " + quote("sh " + obj + " {trial} {x}") +
                                  " --bounds 0:1,0:1 --init 2 --iters 30 --seed 5 --workers 16 --stale-after 2 --json" +
                                  st("slow"),
                              *dir_);
  unsetenv("KBO_TEST_SLOW_ASK_SECONDS");
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = r.json();
  EXPECT_EQ(s["n_trials"].get<int>(), 32) << "a live trial was given up as lost";
  expect_complete_study(s, 32);
  std::vector<int> calls = read_ids(log);
  std::sort(calls.begin(), calls.end());
  std::vector<int> expected(32);
  for (int i = 0; i < 32; ++i) expected[i] = i;
  EXPECT_EQ(calls, expected);  // each trial evaluated once: none duplicated, none dropped
  EXPECT_EQ(r.err.find("dropped"), std::string::npos) << r.err;
  std::set<std::vector<double>> xs;
  for (const auto& t : s["trials"]) xs.insert(t["x"].get<std::vector<double>>());
  EXPECT_EQ(xs.size(), 32u);  // askers that computed from the same snapshot did not reserve the same point
}

TEST_P(WorkerCli, KilledWorkersTrialIsReofferedAndTheStudyCompletes) {
  const std::string obj = *dir_ / "obj.sh", log = *dir_ / "calls.log";
  write_objective(obj, log, 0.4);
  const pid_t pid = spawn_kbo("optimize --objective " + quote("sh " + obj + " {trial} {x}") +
                                  " --bounds 0:1,0:1 --strategy random --init 50 --iters 0 --seed 5 --workers 8 "
                                  "--stale-after 30 --json" + st("k"),
                              *dir_ / "run.out", *dir_ / "run.err");
  ASSERT_GT(pid, 0);
  // Once some trials are complete, kill -9 the worker of a running trial (chosen by a fixed-seed draw;
  // frozen first, so that the trial it is killed on is known for sure).
  std::mt19937 rng(11);
  const auto [victim, victim_trial] = freeze_running_worker(url_, "k", 8, rng);
  ASSERT_GT(victim, 0) << "no running trial seen: " << slurp(*dir_ / "run.err");
  ASSERT_EQ(kill(victim, SIGKILL), 0);
  // A dead worker on this host is recognised at once (its pid is gone); --stale-after covers other hosts.
  EXPECT_EQ(wait_exit_code(pid), 0) << slurp(*dir_ / "run.err");
  const json s = json::parse(slurp(*dir_ / "run.out"));
  expect_complete_study(s, 50);
  const auto& lost = s["trials"][victim_trial];
  EXPECT_EQ(lost["state"], "failed");
  EXPECT_EQ(lost["reason"], kbo::kWorkerLost);
  bool reoffered = false;
  for (const auto& t : s["trials"])
    if (t.value("retry_of", -1) == victim_trial) reoffered = t["state"] == "complete";
  EXPECT_TRUE(reoffered) << "trial " << victim_trial << " was not re-offered and completed";
  EXPECT_NE(slurp(*dir_ / "run.err").find("worker processes failed"), std::string::npos);  // reported
}

TEST_P(WorkerCli, FrozenWorkerIsGivenUpAfterStaleAfterAndItsLateResultDropped) {
  // SIGSTOP keeps the process alive (its pid exists) but stops its heartbeats: only --stale-after finds it
  // (3 s: with 1.5 s a loaded machine delayed a live worker's heartbeat past it in a full -j2 run).
  const std::string obj = *dir_ / "obj.sh", log = *dir_ / "calls.log";
  write_objective(obj, log, 0.3);
  const pid_t pid = spawn_kbo("optimize --objective " + quote("sh " + obj + " {trial} {x}") +
                                  " --bounds 0:1,0:1 --strategy random --init 24 --iters 0 --seed 7 --workers 4 "
                                  "--stale-after 3 --json" + st("f"),
                              *dir_ / "run.out", *dir_ / "run.err");
  ASSERT_GT(pid, 0);
  std::mt19937 rng(3);
  const auto [victim, victim_trial] = freeze_running_worker(url_, "f", 4, rng);
  ASSERT_GT(victim, 0) << slurp(*dir_ / "run.err");
  // The others finish the study, re-running the frozen worker's point.
  bool done = false;
  for (int polls = 0; polls < 1500 && !done; ++polls) {
    usleep(20000);
    int complete = 0;
    for (const auto& t : kbo::open_storage(url_)->trials("f")) complete += t.state == kbo::TrialState::Complete;
    done = complete >= 24;
  }
  kill(victim, SIGCONT);  // it wakes up, finds its trial given up, drops its result and stops
  ASSERT_TRUE(done) << slurp(*dir_ / "run.err");
  ASSERT_EQ(wait_exit_code(pid), 0) << slurp(*dir_ / "run.err");
  const json s = json::parse(slurp(*dir_ / "run.out"));
  expect_complete_study(s, 24);
  EXPECT_EQ(s["trials"][victim_trial]["reason"], kbo::kWorkerLost);
}

TEST_P(WorkerCli, BayesianOptimisationWithTwoWorkersOnABuiltinProblem) {
  const CmdResult r =
      run_kbo("optimize --problem branin --init 4 --iters 4 --seed 2 --workers 2 --json" + st("b"), *dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = r.json();
  EXPECT_EQ(s["n_trials"].get<int>(), 8);
  EXPECT_EQ(s["n_complete"].get<int>(), 8);
  std::set<std::vector<double>> xs;
  for (const auto& t : s["trials"]) xs.insert(t["x"].get<std::vector<double>>());
  EXPECT_EQ(xs.size(), 8u);  // no point evaluated twice
}

TEST_P(WorkerCli, WorkersComeFromTheConfigFileAndTheFlagOverridesThem) {
  std::ofstream(*dir_ / "study.toml") << "problem = \"branin\"\ninit = 3\niters = 1\nseed = 4\nworkers = 3\n"
                                         "stale-after = 30\n";
  const std::string cfg = " --config " + quote(*dir_ / "study.toml");
  const CmdResult from_file = run_kbo("optimize --json" + cfg + st("c1"), *dir_);
  ASSERT_EQ(from_file.code, 0) << from_file.err;
  EXPECT_EQ(from_file.json()["workers"].get<int>(), 3);
  EXPECT_EQ(from_file.json()["n_complete"].get<int>(), 4);
  const CmdResult flag = run_kbo("optimize --json --workers 2" + cfg + st("c2"), *dir_);
  ASSERT_EQ(flag.code, 0) << flag.err;
  EXPECT_EQ(flag.json()["workers"].get<int>(), 2);
  std::ofstream(*dir_ / "bad.toml") << "problem = \"branin\"\nworkers = 0\n";
  const CmdResult bad = run_kbo("optimize --config " + quote(*dir_ / "bad.toml") + st("c3"), *dir_);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("workers"), std::string::npos) << bad.err;
}

TEST_P(WorkerCli, AskNReturnsDistinctPendingTrialsAndWorkersNeedABudget) {
  const std::string s = st("a");
  for (int i = 0; i < 3; ++i) {
    const json t = run_kbo("ask --bounds 0:1,0:1 --init 3 --seed 1" + s, *dir_).json();
    ASSERT_EQ(run_kbo("tell --trial " + std::to_string(t["trial"].get<int>()) + " --value " + std::to_string(0.3 * i) + s,
                      *dir_).code, 0);
  }
  const CmdResult batch = run_kbo("ask --n 4" + s, *dir_);
  ASSERT_EQ(batch.code, 0) << batch.err;
  std::istringstream lines(batch.out);
  std::set<int> ids;
  std::set<std::vector<double>> xs;
  for (std::string line; std::getline(lines, line);) {
    const json t = json::parse(line);
    ids.insert(t["trial"].get<int>());
    const auto x = t["x"].get<std::vector<double>>();
    for (double v : x) EXPECT_TRUE(v >= 0.0 && v <= 1.0);
    xs.insert(x);
  }
  EXPECT_EQ(ids, (std::set<int>{3, 4, 5, 6}));
  EXPECT_EQ(xs.size(), 4u);
  EXPECT_EQ(run_kbo("ask --n 0" + s, *dir_).code, 2);

  // This study was made by ask/tell: no budget stored, so a worker needs --max-trials.
  const CmdResult nobudget = run_kbo("worker" + s + " -- 'echo 1'", *dir_);
  EXPECT_EQ(nobudget.code, 2);
  EXPECT_NE(nobudget.err.find("--max-trials"), std::string::npos) << nobudget.err;
  EXPECT_EQ(nobudget.err_lines(), 1);
  const CmdResult two = run_kbo("worker --max-trials 2 --json" + s + " -- 'echo 1'", *dir_);
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(two.json()["evaluated"].get<int>(), 2);
  // The pending trials from `kbo ask --n` have no heartbeat: the worker left them alone.
  const json shown = run_kbo("show --json" + s, *dir_).json();
  EXPECT_EQ(shown["n_pending"].get<int>(), 4);
  EXPECT_EQ(shown["n_complete"].get<int>(), 5);
  const CmdResult noobj = run_kbo("worker" + s, *dir_);
  EXPECT_EQ(noobj.code, 2);
  EXPECT_NE(noobj.err.find("-- CMD ARGS"), std::string::npos) << noobj.err;
  EXPECT_EQ(run_kbo("worker --storage memory --study a -- 'echo 1'", *dir_).code, 2);
  EXPECT_EQ(run_kbo("worker --study nosuch" + std::string(" --storage ") + quote(url_) + " -- 'echo 1'", *dir_).code, 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, WorkerCli, ::testing::Values("sqlite", "postgres"));

TEST(WorkerCliErrors, UnreachablePostgresIsOneLineNamingTheUrlAndTheForms) {
  TempDir dir("worker_unreachable");
  const CmdResult r = run_kbo("show --storage 'postgresql:///x?host=/nonexistent-kbo' --study s", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("postgresql:///x?host=/nonexistent-kbo"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("postgresql://USER@HOST:PORT/DB"), std::string::npos) << r.err;
}
