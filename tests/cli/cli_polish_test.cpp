// What users expect of a command line: --version, did-you-mean for
// unknown flags and config keys (all reported at once), --help that names the storage a command needs,
// one prefix per error line, resumes that say what changed, a finished study that says how to extend it,
// [options.*] tables in config files; numbers out of range refused instead of wrapped, underflowed or
// printed as NaN.
#include <gtest/gtest.h>

#include <regex>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

/// The project version from CMakeLists.txt's project(kbo VERSION x.y.z).
std::string project_version() {
  const std::string cmake = slurp(fs::path(KBO_SOURCE_DIR) / "CMakeLists.txt");
  std::smatch m;
  if (!std::regex_search(cmake, m, std::regex(R"(project\(kbo VERSION ([0-9.]+))"))) return "?";
  return m[1];
}

/// A CSV file with `rows` (each a vector of numbers) under a header x1..xd,y.
void write_csv(const std::string& path, const std::vector<std::vector<double>>& rows) {
  std::ofstream f(path);
  f.precision(17);
  for (std::size_t j = 0; j + 1 < rows[0].size(); ++j) f << "x" << j + 1 << ",";
  f << "y\n";
  for (const auto& r : rows) {
    for (std::size_t j = 0; j < r.size(); ++j) f << (j ? "," : "") << r[j];
    f << "\n";
  }
}

}  // namespace

TEST(CliPolish, VersionIsTheProjectVersion) {
  TempDir dir("version");
  const CmdResult r = run_kbo("--version", dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "kbo " + project_version() + "\n");
}

TEST(CliPolish, UnknownFlagsAndConfigKeysSuggestTheClosestAndAreReportedTogether) {
  TempDir dir("didyoumean");
  const CmdResult flag = run_kbo("optimize --problem branin --kernal rbf --iter 3", dir);
  EXPECT_EQ(flag.code, 2);
  EXPECT_EQ(flag.err_lines(), 1) << flag.err;
  EXPECT_NE(flag.err.find("'--kernal' (did you mean '--kernel'?)"), std::string::npos) << flag.err;
  EXPECT_NE(flag.err.find("'--iter' (did you mean '--iters'?)"), std::string::npos) << flag.err;

  std::ofstream(dir / "typos.toml") << "problem = \"branin\"\nitres = 3\nkernal = \"rbf\"\nzzzzzz = 1\n";
  const CmdResult keys = run_kbo("optimize --config " + quote(dir / "typos.toml"), dir);
  EXPECT_EQ(keys.code, 2);
  EXPECT_EQ(keys.err_lines(), 1) << keys.err;
  EXPECT_NE(keys.err.find("'itres' (line 2) (did you mean 'iters'?)"), std::string::npos) << keys.err;
  EXPECT_NE(keys.err.find("'kernal' (line 3) (did you mean 'kernel'?)"), std::string::npos) << keys.err;
  EXPECT_NE(keys.err.find("'zzzzzz' (line 4)"), std::string::npos) << keys.err;
  EXPECT_EQ(keys.err.find("'zzzzzz' (line 4) (did you mean"), std::string::npos) << keys.err;

  const CmdResult command = run_kbo("optimise --problem branin", dir);
  EXPECT_EQ(command.code, 2);
  EXPECT_NE(command.err.find("did you mean 'optimize'?"), std::string::npos) << command.err;
}

TEST(CliPolish, HelpOfStoredStudyCommandsNamesTheStorageTheyNeed) {
  TempDir dir("help_storage");
  for (const std::string cmd : {"ask", "tell", "show"}) {
    const CmdResult r = run_kbo(cmd + " --help", dir);
    ASSERT_EQ(r.code, 0) << cmd;
    const auto at = r.out.find("--storage");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string line = r.out.substr(at, r.out.find("\n  -", at + 1) - at);
    EXPECT_EQ(line.find("default memory"), std::string::npos) << cmd << ": " << line;
    EXPECT_NE(line.find("required"), std::string::npos) << cmd << ": " << line;
  }
}

TEST(CliPolish, ErrorLinesNameTheCommandOnce) {
  TempDir dir("prefix");
  std::ofstream(dir / "bad.toml") << "iters = -1\n";
  const std::vector<std::string> bad = {
      "tell --storage " + quote(dir / "x.db"),
      "tell --storage " + quote(dir / "x.db") + " --trial 0",
      "tell --trial 0 --value 1",
      "show",
      "ask --problem branin",
      "worker --storage memory --study s --problem branin",
      "worker --storage " + quote(dir / "x.db") + " --study s",
      "optimize --config " + quote(dir / "bad.toml"),
      "gp --train " + quote(dir / "none.csv"),
  };
  for (const auto& args : bad) {
    const std::string command = "kbo " + args.substr(0, args.find(' '));
    const CmdResult r = run_kbo(args, dir);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind(command + ": ", 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(r.err.find(command, command.size()), std::string::npos) << "doubled prefix: " << r.err;
  }
}

TEST(CliPolish, AResumeWithChangedSettingsSaysWhatChanged) {
  TempDir dir("changed");
  const std::string base = "optimize --problem branin --init 3 --storage " + quote("sqlite:" + (dir / "c.db")) +
                           " --study s --json --iters ";
  ASSERT_EQ(run_kbo(base + "1 --kernel rbf --seed 4", dir).code, 0);
  const CmdResult same = run_kbo(base + "2 --kernel rbf --seed 4", dir);
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_EQ(same.err.find("changed settings"), std::string::npos) << same.err;  // more iterations: no setting
  const CmdResult changed = run_kbo(base + "3 --seed 4", dir);  // --kernel left out: back to the default
  ASSERT_EQ(changed.code, 0) << changed.err;
  EXPECT_NE(changed.err.find("study 's' continues with changed settings: kernel rbf -> matern52"), std::string::npos)
      << changed.err;
  EXPECT_EQ(changed.json()["n_complete"].get<int>(), 6);
}

TEST(CliPolish, AFinishedStudyRerunSaysItsBudgetIsMetAndHowToExtendIt) {
  TempDir dir("budget");
  const std::string cmd = "optimize --problem branin --init 3 --iters 2 --storage " + quote("sqlite:" + (dir / "b.db")) +
                          " --study s --json";
  ASSERT_EQ(run_kbo(cmd, dir).code, 0);
  const CmdResult again = run_kbo(cmd, dir);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("has met its budget: 5 of 5 trials finished"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("raise --iters, e.g. --iters 12"), std::string::npos) << again.err;
  EXPECT_EQ(again.json()["n_trials"].get<int>(), 5);
  const CmdResult extended = run_kbo("optimize --problem branin --init 3 --iters 12 --storage " +
                                         quote("sqlite:" + (dir / "b.db")) + " --study s --json",
                                     dir);
  ASSERT_EQ(extended.code, 0) << extended.err;
  EXPECT_EQ(extended.json()["n_complete"].get<int>(), 15);
}

TEST(CliPolish, ModuleOptionsAsTomlTablesOrAsJsonText) {
  TempDir dir("options_table");
  // The same module options three ways: a TOML table, JSON text in the config file, and the --options flag.
  const std::string json_text = R"({"bo": {"prior_mean": "worst", "output_warp": "copula"}})";
  std::ofstream(dir / "table.toml") << "problem = \"branin\"\ninit = 3\niters = 3\n[options.bo]\nprior_mean = \"worst\"\n"
                                       "output_warp = \"copula\"\n";
  std::ofstream(dir / "text.toml") << "problem = \"branin\"\ninit = 3\niters = 3\noptions = '" << json_text << "'\n";
  std::ofstream(dir / "bad.toml") << "problem = \"branin\"\noptions = '{\"bo\": '\n";
  auto xs = [](const json& study) {
    std::vector<std::vector<double>> out;
    for (const auto& t : study["trials"]) out.push_back(t["x"].get<std::vector<double>>());
    return out;
  };
  std::vector<std::vector<std::vector<double>>> trials;
  for (const std::string& args : {"--config " + quote(dir / "table.toml"), "--config " + quote(dir / "text.toml"),
                                  "--problem branin --init 3 --iters 3 --options " + quote(json_text)}) {
    const CmdResult r = run_kbo("optimize --json " + args, dir);
    ASSERT_EQ(r.code, 0) << args << ": " << r.err;
    trials.push_back(xs(r.json()));
  }
  EXPECT_EQ(trials[0], trials[2]);
  EXPECT_EQ(trials[1], trials[2]);
  const CmdResult defaults = run_kbo("optimize --json --problem branin --init 3 --iters 3", dir);
  ASSERT_EQ(defaults.code, 0);
  EXPECT_NE(xs(defaults.json()), trials[2]) << "the options made no difference: were they applied?";
  const CmdResult bad = run_kbo("optimize --config " + quote(dir / "bad.toml"), dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("options must be a JSON object or a table"), std::string::npos) << bad.err;
}

TEST(CliPolish, NumbersOutOfRangeAreRefusedNamingTheFlag) {
  TempDir dir("ranges");
  write_csv(dir / "t.csv", {{0, 1}, {1, 2}, {2, 1.5}, {3, 0.3}});
  const std::string db = quote("sqlite:" + (dir / "r.db"));
  ASSERT_EQ(run_kbo("ask --problem branin --storage " + db, dir).code, 0);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"tell --storage " + db + " --trial 0 --value 1e-400", "--value"},
      {"tell --storage " + db + " --trial 0 --value -1e-320", "--value"},
      {"tell --storage " + db + " --trial -1 --value 1", "--trial"},
      {"gp --train " + quote(dir / "t.csv") + " --seed -1", "--seed"},
      {"gp --train " + quote(dir / "t.csv") + " --restarts -2", "--restarts"},
      {"worker --storage " + db + " --study default --problem branin --max-trials -1", "--max-trials"},
      {"worker --storage " + db + " --study default --problem branin --heartbeat -0.5", "--heartbeat"},
      {"worker --storage " + db + " --study default --problem branin --stale-after inf", "--stale-after"},
      {"ask --storage " + db + " --n -3", "--n"},
      {"optimize --problem branin --seed -1", "--seed"},
      {"kfo --data " + quote(dir / "t.csv") + " --task regression --seed -1", "--seed"},
      {"bench gp --seed -1", "--seed"},
  };
  for (const auto& [args, flag] : bad) {
    const CmdResult r = run_kbo(args, dir);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << args << ": " << r.err;
  }
  // Still pending: nothing was stored by the refused tells.
  const CmdResult shown = run_kbo("show --storage " + db + " --json", dir);
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(shown.json()["n_pending"].get<int>(), 1);
  // A tiny value that a double holds exactly is kept exactly.
  const CmdResult tiny = run_kbo("tell --storage " + db + " --trial 0 --value 1e-300", dir);
  ASSERT_EQ(tiny.code, 0) << tiny.err;
  EXPECT_EQ(tiny.json()["value"].get<double>(), 1e-300);
}

TEST(CliPolish, BoundsThatOverflowAreRefusedAndHugeOnesWork) {
  TempDir dir("huge_bounds");
  // Objective: the value is x0 (a script, so that the command needs no nested shell quoting).
  std::ofstream(dir / "x0.sh") << "#!/bin/sh\nread l\necho \"$l\" | sed 's/.*\\[\\(.*\\)\\].*/\\1/'\n";
  fs::permissions(dir / "x0.sh", fs::perms::owner_all);
  const std::string objective = quote(dir / "x0.sh");
  const CmdResult wide = run_kbo("optimize --objective " + objective + " --bounds -1e308:1e308 --init 2 --iters 2", dir);
  EXPECT_EQ(wide.code, 2) << wide.err;
  EXPECT_EQ(wide.err_lines(), 1) << wide.err;
  EXPECT_NE(wide.err.find("too wide"), std::string::npos) << wide.err;
  const CmdResult narrow = run_kbo("optimize --objective " + objective + " --bounds 1e20:1.000000000000001e20", dir);
  EXPECT_EQ(narrow.code, 2) << narrow.err;
  EXPECT_NE(narrow.err.find("too narrow"), std::string::npos) << narrow.err;
  // x values up to ±1e307 (and objective values to match) model and optimise.
  const CmdResult huge =
      run_kbo("optimize --objective " + objective + " --bounds -1e307:1e307 --init 3 --iters 3 --json", dir);
  ASSERT_EQ(huge.code, 0) << huge.err;
  EXPECT_EQ(huge.json()["n_complete"].get<int>(), 6);
  EXPECT_LT(huge.json()["best_value"].get<double>(), -1e306);
}

TEST(CliPolish, GpNeverPrintsNaNForHugeOrTinyData) {
  TempDir dir("gp_huge");
  // The same data in three units: the fitted standardised GP is the same, so predictions scale exactly.
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 8; ++i) rows.push_back({i / 7.0, std::sin(4.0 * i / 7.0)});
  json unit;
  for (double c : {1.0, 1e300, 1e-300}) {
    std::vector<std::vector<double>> scaled = rows;
    for (auto& r : scaled) r[1] *= c;
    write_csv(dir / "d.csv", scaled);
    const CmdResult r = run_kbo("gp --train " + quote(dir / "d.csv") + " --test " + quote(dir / "d.csv") + " --json", dir);
    ASSERT_EQ(r.code, 0) << c << ": " << r.err;
    const json j = r.json();
    ASSERT_EQ(j["mean"].size(), 8u);
    if (c == 1.0) unit = j;
    for (std::size_t i = 0; i < 8; ++i) {
      ASSERT_TRUE(j["mean"][i].is_number()) << c << ": " << r.out;
      ASSERT_TRUE(j["std"][i].is_number()) << c << ": " << r.out;
      EXPECT_NEAR(j["mean"][i].get<double>() / c, unit["mean"][i].get<double>(), 1e-6) << c;
      EXPECT_NEAR(j["std"][i].get<double>() / c, unit["std"][i].get<double>(), 1e-6) << c;
    }
  }
  // Features 1e300 apart cannot be modelled as given: one line naming the column, not NaN.
  write_csv(dir / "x.csv", {{1e300, 1}, {-1e300, 2}, {5e299, 1.5}, {0, 0.3}});
  const CmdResult x = run_kbo("gp --train " + quote(dir / "x.csv") + " --test " + quote(dir / "x.csv") + " --json", dir);
  EXPECT_EQ(x.code, 2) << x.out << x.err;
  EXPECT_EQ(x.err_lines(), 1) << x.err;
  EXPECT_NE(x.err.find("feature column 1"), std::string::npos) << x.err;
}
