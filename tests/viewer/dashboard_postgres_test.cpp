// kbo dashboard on a PostgreSQL study, as a user runs it: it serves the study, sees a trial told by another
// process within a poll, and stops cleanly on Ctrl-C. (The SQLite cases, the browser and read-only checks are
// in tests/python/test_viewer_*.py.)
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <thread>

#include <httplib.h>

#include "cli/cli_support.hpp"
#include "postgres_server.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

// The port from the dashboard's startup line "kbo dashboard: http://127.0.0.1:PORT/ …" (0 if none in 20 s).
int dashboard_port(const std::string& out_file) {
  for (int i = 0; i < 200; ++i) {
    const std::string out = slurp(out_file);
    const std::string prefix = "kbo dashboard: http://127.0.0.1:";
    if (out.rfind(prefix, 0) == 0 && out.find('/', prefix.size()) != std::string::npos)
      return std::stoi(out.substr(prefix.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return 0;
}

json get_json(httplib::Client& client, const std::string& path) {
  auto res = client.Get(path.c_str());
  if (!res) throw std::runtime_error("GET " + path + " failed");
  if (res->status != 200) throw std::runtime_error("GET " + path + ": " + std::to_string(res->status) + " " + res->body);
  return json::parse(res->body);
}

}  // namespace

TEST(DashboardPostgres, ServesTheStudyAndSeesTrialsToldByOthers) {
  KBO_REQUIRE_POSTGRES(server);
  TempDir dir("dashboard_pg");
  const std::string url = server->new_database("dashboard");
  const std::string st = " --storage " + quote(url) + " --study b";
  ASSERT_EQ(run_kbo("optimize --problem branin --init 4 --iters 1 --seed 1 --json" + st, dir).code, 0);
  const json asked = run_kbo("ask" + st, dir).json();

  const pid_t pid = spawn_kbo("dashboard --port 0 --storage " + quote(url), dir / "out", dir / "err");
  ASSERT_GT(pid, 0);
  const int port = dashboard_port(dir / "out");
  ASSERT_GT(port, 0) << slurp(dir / "err");
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(20, 0);

  const json studies = get_json(client, "/api/studies");
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0]["name"], "b");
  EXPECT_EQ(studies[0]["n_pending"], 1);
  json view = get_json(client, "/api/view?study=b");
  EXPECT_EQ(view["n_complete"], 5);
  EXPECT_TRUE(view["analysis"]["model"]["ok"].get<bool>());

  // Another process tells the pending trial; the kept connection sees the commit at the next request.
  ASSERT_EQ(run_kbo("tell --trial " + std::to_string(asked["trial"].get<int>()) + " --value 0.5" + st, dir).code, 0);
  view = get_json(client, "/api/view?study=b");
  EXPECT_EQ(view["n_complete"], 6);
  EXPECT_EQ(view["n_pending"], 0);
  EXPECT_EQ(view["analysis"]["model"]["n_points"], 6);  // refitted with the new trial

  kill(pid, SIGINT);
  EXPECT_EQ(wait_exit_code(pid), 0) << slurp(dir / "err");
  EXPECT_NE(slurp(dir / "out").find("kbo dashboard: stopped"), std::string::npos);
}
