// A PostgreSQL server restarted under a running `kbo optimize` (in-process and with worker processes):
// the run waits for it (ReconnectingStorage, up to kReconnectSeconds) and completes its budget, with no
// trial lost or duplicated, instead of exiting 1.
#include <gtest/gtest.h>

#include <set>

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
    int complete = 0;
    for (int polls = 0; polls < 600 && complete < 3; ++polls) {
      usleep(50000);
      try {
        complete = 0;
        for (const auto& t : kbo::open_storage(url)->trials("r")) complete += t.state == kbo::TrialState::Complete;
      } catch (const std::exception&) {
      }  // study not created yet
    }
    ASSERT_GE(complete, 3) << slurp(err);
    server->restart(2.0);  // every connection is cut; the server is away for 2 s
    const int code = wait_exit_code(pid);
    ASSERT_EQ(code, 0) << slurp(err);
    const auto j = nlohmann::json::parse(slurp(out));
    EXPECT_EQ(j["n_complete"].get<int>(), budget) << slurp(out);
    std::set<double> points;
    for (const auto& t : j["trials"])
      if (t["state"] == "complete") points.insert(t["x"][0].get<double>());
    EXPECT_EQ(points.size(), static_cast<std::size_t>(budget)) << "a trial was evaluated twice";
  }
}
