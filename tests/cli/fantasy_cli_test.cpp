// --fantasy flag and TOML key: validated with a one-line error (exit 2), accepted and used otherwise.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_support.hpp"

using namespace kbo::test;

TEST(FantasyCli, BadValueIsOneLineErrorNamingTheModes) {
  TempDir dir("fantasy_bad");
  const CmdResult r = run_kbo("optimize --problem branin --iters 1 --fantasy believer", dir);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("'believer'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("constant_liar_worst"), std::string::npos) << r.err;

  std::ofstream(dir / "bad.toml") << "problem = \"branin\"\nfantasy = \"liar\"\n";
  const CmdResult t = run_kbo("optimize --config " + quote(dir / "bad.toml"), dir);
  EXPECT_EQ(t.code, 2) << t.err;
  EXPECT_NE(t.err.find("'liar'"), std::string::npos) << t.err;
}

TEST(FantasyCli, TomlKeyAndFlagAreAcceptedAndAskGivesDistinctPendingPoints) {
  TempDir dir("fantasy_ok");
  std::ofstream(dir / "s.toml") << "problem = \"branin\"\ninit = 3\niters = 3\nseed = 2\nfantasy = \"constant_liar_best\"\n";
  const std::string where = " --storage " + quote("sqlite:" + (dir / "s.db")) + " --study s";
  const CmdResult r = run_kbo("optimize --config " + quote(dir / "s.toml") + where + " --json", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["n_trials"], 6);
  // Two asks without tells: the second is asked with the first pending (a fantasy) and must differ.
  const CmdResult a = run_kbo("ask" + where + " --fantasy kriging_believer --json", dir);
  const CmdResult b = run_kbo("ask" + where + " --json", dir);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const auto xa = a.json()["x"], xb = b.json()["x"];
  ASSERT_EQ(xa.size(), 2u);
  EXPECT_NE(xa, xb);
  EXPECT_NE(a.json()["trial"], b.json()["trial"]);
}
