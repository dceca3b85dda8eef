// A study stored by kbo 0.1.0 whose options.bo carry keys that are not options of the default model any
// more (tests/fixtures/study_with_former_bo_keys.sql: local_radius, endgame_fraction_2d, local_fail_2d,
// local_fit_power_2d, hmc_max_n, fit_evaluations, warm_refit_below, structure_averaging, pair_moves, each at
// its old default) opens, shows and resumes as a user runs kbo: `kbo show`, `kbo optimize` with more
// iterations, and `kbo ask`/`tell` on its stored options. The same keys at other values, given by a user,
// are one-line errors naming what replaced them, exit 2.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

std::string fixture_sql() {
  std::ifstream in(std::string(KBO_SOURCE_DIR) + "/tests/fixtures/study_with_former_bo_keys.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  return sql.str();
}

// The fixture's SQL executed into a fresh SQLite file.
void load_fixture(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* msg = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
  const std::string err = msg ? msg : "";
  sqlite3_free(msg);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << err;
}

}  // namespace

TEST(FormerOptionsCli, AStoredStudyWithFormerKeysOpensAndResumes) {
  TempDir dir("former_options_cli");
  const std::string db = dir / "f.db";
  const std::string sql = fixture_sql();
  for (const char* key : {"endgame_fraction_2d", "local_fail_2d", "local_radius", "hmc_max_n", "pair_moves"})
    ASSERT_NE(sql.find(std::string("\"") + key + "\":"), std::string::npos) << "the stored options carry " << key;
  load_fixture(db, sql);
  const std::string st = " --storage " + quote("sqlite:" + db) + " --study former";
  // The stored trials' points, as the fixture's rows hold them.
  std::vector<json> stored;
  const std::regex row(R"(INSERT INTO trials VALUES\(1,(\d+),'(\[[^']*\])')");
  for (std::sregex_iterator it(sql.begin(), sql.end(), row), end; it != end; ++it) stored.push_back(json::parse((*it)[2].str()));
  ASSERT_EQ(stored.size(), 8u);

  // Resumed to 5 + 6 trials (a writing command: it also brings the storage to the current schema): the
  // stored 8 are kept as they were, 3 new ones complete; `kbo show` then reads them all.
  const CmdResult resumed = run_kbo("optimize --problem branin --iters 6 --json" + st, dir);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  const json after = resumed.json();
  ASSERT_EQ(after["n_complete"].get<int>(), 11);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(after["trials"][i]["x"], stored[static_cast<std::size_t>(i)]) << i;
  const CmdResult shown = run_kbo("show --json" + st, dir);
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(shown.json()["n_complete"].get<int>(), 11);

  // ask/tell by a fresh process builds the strategy from the stored options alone.
  const CmdResult asked = run_kbo("ask" + st, dir);
  ASSERT_EQ(asked.code, 0) << asked.err;
  const int trial = asked.json()["trial"].get<int>();
  EXPECT_EQ(trial, 11);
  EXPECT_EQ(run_kbo("tell --trial 11 --value 3.5" + st, dir).code, 0);
}

TEST(FormerOptionsCli, AFormerKeyAtAnotherValueNamesItsReplacement) {
  TempDir dir("former_options_bad");
  struct Case {
    const char* options;
    const char* says;
  };
  for (const Case& c : {Case{R"({"bo": {"local_radius": 0.3}})", "options.bo.local_radius was removed: the trust region starts at half width 0.1"},
                        Case{R"({"bo": {"endgame_fraction_2d": 0.5}})", "the planar preset sets endgame_fraction 0.6"},
                        Case{R"({"bo": {"hmc_max_n": 20}})", "no HMC"}}) {
    const CmdResult r = run_kbo("optimize --problem branin --iters 2 --storage memory --options " + quote(c.options), dir);
    EXPECT_EQ(r.code, 2) << c.options;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
  // … also from a config file's [options.bo] table.
  std::ofstream(dir / "c.toml") << "problem = \"branin\"\niters = 2\nstorage = \"memory\"\n[options.bo]\nlocal_fail = 4\n";
  const CmdResult cfg = run_kbo("optimize --config " + (dir / "c.toml"), dir);
  EXPECT_EQ(cfg.code, 2) << cfg.err;
  EXPECT_EQ(cfg.err_lines(), 1) << cfg.err;
  EXPECT_NE(cfg.err.find("local_fail was removed"), std::string::npos) << cfg.err;
}
