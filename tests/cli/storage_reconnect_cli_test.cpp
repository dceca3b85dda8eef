// A PostgreSQL server restarted under a running `kbo optimize` (in-process and with worker processes):
// the run waits for it (ReconnectingStorage, up to kReconnectSeconds) and completes its budget, with no
// trial lost or duplicated, instead of exiting 1.
#include <gtest/gtest.h>

#include <csignal>
#include <set>

#include <sys/wait.h>

#include "cli_support.hpp"
#include "kbo/storage/storage.hpp"
#include "postgres_server.hpp"

using namespace kbo::test;


TEST(StorageReconnectCli, OptimizeAndItsWorkersRideOutAPostgresRestart) {
  KBO_REQUIRE_POSTGRES(server);
  for (const int workers : {1, 2}) {
    SCOPED_TRACE("workers " + std::to_string(workers));
    TempDir dir("pg_restart_" + std::to_string(workers));
    const std::string url = server->new_database("restart");
    const int budget = 12;
    // Value = x0, after a short evaluation so that the restart falls in the middle of the run.
    const std::string objective = dir / "x0.sh";
    std::ofstream(objective) << "#!/bin/sh\nread l\nsleep 0.3\necho \"$l\" | sed 's/.*\\[\\(.*\\)\\].*/\\1/'\n";
    fs::permissions(objective, fs::perms::owner_all);
    const std::string out = dir / "out", err = dir / "err";
    const pid_t pid = spawn_kbo("optimize --storage " + quote(url) + " --study r --objective " + quote(objective) +
                                    " --bounds 0:1 --init 4 --iters " + std::to_string(budget - 4) +
                                    " --workers " + std::to_string(workers) + " --json",
                                out, err);
    ASSERT_GT(pid, 0);
    ASSERT_GE(wait_until_complete(url, "r", 3, 30.0), 3) << slurp(err);
    server->restart(2.0);  // every connection is cut; the server is away for 2 s
    const int code = wait_exit_code(pid);
    ASSERT_EQ(code, 0) << slurp(err);
    const auto j = nlohmann::json::parse(slurp(out));
    EXPECT_EQ(j["n_complete"].get<int>(), budget) << slurp(out);
    // Every point once, but for a replicate the model asked for on purpose (the noise test, trial info).
    std::set<double> points;
    int replicates = 0;
    for (const auto& t : j["trials"]) {
      if (t["state"] != "complete") continue;
      points.insert(t["x"][0].get<double>());
      replicates += t.contains("info") && t["info"].contains("noise") && t["info"]["noise"].value("replicate", false);
    }
    EXPECT_EQ(points.size() + replicates, static_cast<std::size_t>(budget)) << "a trial was evaluated twice";
  }
}

TEST(StorageReconnectCli, AStopDuringAnOutageEndsTheRunWithoutWaitingForTheServer) {
  // Ctrl-C/SIGTERM while the server is away: the reconnect backoff (up to 60 s) must not hold the run, which
  // ends with the interrupt's status while the server is still down; a re-run after it is back completes.
  KBO_REQUIRE_POSTGRES(server);
  TempDir dir("pg_stop_in_outage");
  const std::string url = server->new_database("outage");
  const std::string objective = dir / "slow.sh";
  std::ofstream(objective) << "#!/bin/sh\nread l\nsleep 0.3\necho 0.5\n";
  fs::permissions(objective, fs::perms::owner_all);
  const std::string cmd = "optimize --storage " + quote(url) + " --study o --objective " + quote(objective) +
                          " --bounds 0:1 --init 4 --iters 36 --strategy random";
  const std::string out = dir / "out", err = dir / "err";
  const pid_t pid = spawn_kbo(cmd, out, err);
  ASSERT_GT(pid, 0);
  ASSERT_GE(wait_until_complete(url, "o", 3, 30.0), 3) << slurp(err);
  server->stop();
  usleep(1500000);  // the run is now retrying its storage call
  kill(pid, SIGTERM);
  int status = 0, code = -1;
  for (int polls = 0; polls < 900 && code < 0; ++polls) {  // the server stays down for up to 45 s meanwhile
    if (waitpid(pid, &status, WNOHANG) == pid) code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    else usleep(50000);
  }
  const bool ended_while_down = code >= 0;
  server->start();
  if (code < 0) code = wait_exit_code(pid);
  EXPECT_TRUE(ended_while_down) << "the run waited for the server to come back: " << slurp(err);
  EXPECT_EQ(code, 128 + SIGTERM) << slurp(err);
  EXPECT_NE(slurp(err).find("re-run the same command to resume"), std::string::npos) << slurp(err);
  const CmdResult again = run_kbo(cmd, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE((again.out + again.err).find("40 trials: 40 complete, 0 failed, 0 pending"), std::string::npos)
      << again.out << again.err;
}
