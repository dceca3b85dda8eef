// Trials that nobody will finish are given up, run the way a user runs kbo: a running trial whose worker died
// between its ask and its first heartbeat (no heartbeat row) is stale --stale-after seconds after its creation,
// so `kbo pending --stale` clears it and `kbo optimize --workers 2` re-offers it and meets the budget (SQLite and
// PostgreSQL); and a PostgreSQL server frozen mid-run (SIGSTOP) ends the run with exit 74 after the reconnect
// limit instead of a wait without end.
#include <gtest/gtest.h>

#include <csignal>

#include <sys/wait.h>

#include "cli_support.hpp"
#include "kbo/storage/storage.hpp"
#include "postgres_server.hpp"

using namespace kbo::test;

namespace {

/// A pending trial of a worker on another host that died right after its ask: owner set, no heartbeat.
int insert_trial_without_heartbeat(const std::string& url, const std::string& study) {
  return kbo::open_storage(url)
      ->ask(study, [](const std::vector<kbo::Trial>&) { return kbo::Vec{{1.0, 2.0}}; }, "worker@another-host:4242")
      .id;
}

void expect_stale_trials_given_up(const std::string& url, const TempDir& dir) {
  const std::string base = "--storage " + quote(url) + " --study s";
  ASSERT_EQ(run_kbo("optimize --problem branin --init 2 --iters 0 --strategy random " + base, dir).code, 0);

  // kbo pending --stale: the trial is stale from its creation on, though it never had a heartbeat.
  const int first = insert_trial_without_heartbeat(url, "s");
  usleep(1500000);
  CmdResult r = run_kbo("pending --stale --stale-after 1 --json " + base, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["abandoned"], nlohmann::json::array({first})) << r.out;
  EXPECT_TRUE(r.json()["pending"].empty()) << r.out;

  // kbo optimize --workers 2: the stuck trial is re-offered and the budget (6) is met by evaluated trials.
  const int second = insert_trial_without_heartbeat(url, "s");
  usleep(1500000);
  r = run_kbo("optimize --problem branin --init 2 --iters 4 --strategy random --workers 2 --stale-after 1 --json " +
                  base,
              dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j["n_complete"], 6) << r.out;
  EXPECT_EQ(j["n_pending"], 0) << r.out;
  EXPECT_EQ(j["trials"][second]["state"], "failed");
  EXPECT_EQ(j["trials"][second]["reason"], "worker lost");
}


}  // namespace

TEST(StaleTrialsCli, ATrialWithoutHeartbeatIsGivenUpOnSqlite) {
  TempDir dir("stale_sqlite");
  expect_stale_trials_given_up("sqlite:" + (dir / "s.db"), dir);
}

TEST(StaleTrialsCli, ATrialWithoutHeartbeatIsGivenUpOnPostgres) {
  KBO_REQUIRE_POSTGRES(server);
  TempDir dir("stale_pg");
  expect_stale_trials_given_up(server->new_database("stale"), dir);
}

TEST(FrozenPostgresCli, AServerStoppedMidRunEndsItWithExit74AndAReRunResumes) {
  KBO_REQUIRE_POSTGRES(server);
  TempDir dir("pg_frozen");
  const std::string url = server->new_database("frozen");
  const std::string objective = dir / "slow.sh";
  std::ofstream(objective) << "#!/bin/sh\nread l\nsleep 0.2\necho 0.5\n";
  fs::permissions(objective, fs::perms::owner_all);
  const std::string cmd = "optimize --storage " + quote(url) + " --study f --objective " + quote(objective) +
                          " --bounds 0:1 --init 4 --iters 16 --strategy random";
  // The test hook shortens the 60 s limit (reconnect_seconds) to 3 s for this run.
  ::setenv("KBO_TEST_RECONNECT_SECONDS", "3", 1);
  const std::string out = dir / "out", err = dir / "err";
  const pid_t pid = spawn_kbo(cmd, out, err);
  ::unsetenv("KBO_TEST_RECONNECT_SECONDS");
  ASSERT_GT(pid, 0);
  ASSERT_GE(wait_until_complete(url, "f", 2, 60.0), 2) << slurp(err);
  server->signal_processes(SIGSTOP);
  // A watchdog, not a speed assertion: without a client-side deadline the run waits as long as the server is
  // stopped; 120 s is far beyond the 3 s limit plus one 10 s reconnect attempt.
  int status = 0;
  bool exited = false;
  for (int waited = 0; waited < 1200 && !exited; ++waited) {
    exited = waitpid(pid, &status, WNOHANG) == pid;
    if (!exited) usleep(100000);
  }
  server->signal_processes(SIGCONT);
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(exited) << "kbo optimize still waited for the stopped server after 120 s";
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 74) << slurp(err);
  EXPECT_NE(slurp(err).find("did not answer"), std::string::npos) << slurp(err);
  // The server is back: the same command resumes the study and meets its budget.
  const CmdResult again = run_kbo(cmd + " --json", dir);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["n_complete"], 20);
}
