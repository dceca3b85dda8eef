// `kbo kfo` as a user runs it (KBO_BINARY): the --json keys and value ranges on small data sets, bad input
// (exit 2, one line naming the problem), and `kbo gp --kernel-file` on a kernel saved by `kbo kfo --save-kernel`.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "cli/cli_support.hpp"

using namespace kbo::test;

namespace {

// A small budget so each command takes well under a second.
const std::string kSmall = " --subspaces 1 --iterations 2 --init 2 --no-tune --cv-folds 3 --seed 3";

/// Two Gaussian blobs in 3-D (classification) or a smooth function of 3 features plus noise (regression), with
/// a header and features on different scales (the CLI scales them to [0,1]).
void write_data(const std::string& path, bool classification, int n = 60) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> g(0.0, 1.0);
  std::ofstream f(path);
  f << "a,b,c,target\n";
  for (int i = 0; i < n; ++i) {
    const int cls = i % 2;
    const double a = g(rng) + 2.0 * cls, b = 100.0 + 10.0 * g(rng), c = 0.01 * g(rng) + 0.02 * cls;
    const double y = classification ? cls : std::sin(a) + 0.01 * (b - 100.0) + 0.1 * g(rng);
    f << a << "," << b << "," << c << "," << y << "\n";
  }
}

void expect_method_keys(const nlohmann::json& j, const std::vector<std::string>& methods, const std::string& metric) {
  ASSERT_TRUE(j.contains("methods")) << j.dump();
  EXPECT_EQ(j["methods"].size(), methods.size()) << j.dump();
  for (const auto& m : methods) {
    ASSERT_TRUE(j["methods"].contains(m)) << m << " missing in " << j.dump();
    const auto& r = j["methods"][m];
    ASSERT_TRUE(r.contains(metric) && r[metric].is_number()) << m;
    ASSERT_TRUE(r.contains("time_s") && r["time_s"].is_number()) << m;
    EXPECT_GE(r["time_s"].get<double>(), 0.0) << m;
    EXPECT_TRUE(std::isfinite(r[metric].get<double>())) << m;
    if (metric == "test_error") {
      EXPECT_GE(r[metric].get<double>(), 0.0) << m;
      EXPECT_LE(r[metric].get<double>(), 1.0) << m;
    }
  }
}

}  // namespace

TEST(KfoCli, ClassificationJsonHasEveryMethodWithAnErrorFraction) {
  TempDir dir("kfo_cls");
  write_data(dir / "blobs.csv", true);
  const CmdResult r = run_kbo("kfo --data " + quote(dir / "blobs.csv") + " --task classification --json" + kSmall, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = r.json();
  EXPECT_EQ(j["task"], "classification");
  EXPECT_EQ(j["n_train"].get<int>() + j["n_test"].get<int>(), 60);
  EXPECT_EQ(j["n_test"].get<int>(), 12);  // --test-fraction 0.2
  expect_method_keys(j, {"kfo", "kfo_learned", "rbf", "matern32", "mkl", "rbf_svm"}, "test_error");
  // Two well-separated blobs: libsvm's RBF cannot be near chance, and the error is a multiple of 1/12.
  EXPECT_LT(j["methods"]["rbf_svm"]["test_error"].get<double>(), 0.4);
  const double e = j["methods"]["kfo"]["test_error"].get<double>() * 12.0;
  EXPECT_NEAR(e, std::round(e), 1e-9);
  for (const auto& [name, m] : j["methods"].items()) {
    EXPECT_GE(m["cv_accuracy"].get<double>(), 0.0) << name;
    EXPECT_LE(m["cv_accuracy"].get<double>(), 1.0) << name;
  }
}

TEST(KfoCli, RegressionJsonHasEveryMethodAndTheKernelLoadsInKboGp) {
  TempDir dir("kfo_reg");
  write_data(dir / "reg.csv", false);
  for (const std::string psd : {"alpha-clip", "flip"}) {
    const CmdResult r = run_kbo("kfo --data " + quote(dir / "reg.csv") + " --task regression --json --gp-psd " + psd +
                                    " --save-kernel " + quote(dir / "k.json") + kSmall,
                                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = r.json();
    EXPECT_EQ(j["task"], "regression");
    expect_method_keys(j, {"kfo", "kfo_learned", "rbf", "rbf_ard", "matern32", "matern52_ard", "mkl"}, "test_nll");
    EXPECT_FALSE(j["methods"].contains("rbf_svm"));
    const nlohmann::json k = nlohmann::json::parse(slurp(dir / "k.json"));
    EXPECT_EQ(k["type"], "kfo_functional");
    EXPECT_EQ(k["flip"].is_null(), psd != "flip");
    // The saved kernel is an ordinary kernel for `kbo gp` on the raw CSV (it carries the feature scaling).
    const CmdResult g = run_kbo("gp --train " + quote(dir / "reg.csv") + " --kernel-file " + quote(dir / "k.json") + " --json", dir);
    ASSERT_EQ(g.code, 0) << g.err;
    EXPECT_TRUE(std::isfinite(g.json()["log_marginal_likelihood"].get<double>()));
    EXPECT_NE(g.json()["kernel"].get<std::string>().find("functional"), std::string::npos);
  }
}

TEST(KfoCli, BadInputExitsWithTwoAndNamesTheProblem) {
  TempDir dir("kfo_bad");
  write_data(dir / "ok.csv", true);
  {
    std::ofstream f(dir / "text.csv");
    f << "a,b,target\n1,2,0\n3,x7,1\n5,6,0\n7,8,1\n9,10,0\n";
  }
  {
    std::ofstream f(dir / "k_bad.json");
    f << "{\"type\": \"kfo_functional\", \"lambda_h\": 0.5}\n";
  }
  struct Case {
    std::string args, expect;
  };
  const std::vector<Case> cases = {
      {"kfo --data " + quote(dir / "missing.csv") + " --task classification", "missing.csv"},
      {"kfo --data " + quote(dir / "ok.csv") + " --task clustering", "unknown task 'clustering'"},
      {"kfo --data " + quote(dir / "text.csv") + " --task classification", "line 3"},
      {"kfo --data " + quote(dir / "ok.csv") + " --task regression --gp-psd clip", "allowed: alpha-clip, flip, none"},
      {"kfo --data " + quote(dir / "ok.csv") + " --task classification --svm-fix foo", "allowed: none, clip, flip"},
      {"kfo --task classification", "--data"},
      {"kfo --data " + quote(dir / "ok.csv") + " --task classification --input-scaling relevance", "allowed: ard, none"},
      {"bench kfo --parts gp --input-scaling isotropic --out " + quote(dir / "out"), "allowed: ard, none"},
      {"gp --train " + quote(dir / "ok.csv") + " --kernel-file " + quote(dir / "nope.json"), "nope.json"},
      {"gp --train " + quote(dir / "ok.csv") + " --kernel-file " + quote(dir / "k_bad.json"), "lengthscale"},
      {"gp --train " + quote(dir / "ok.csv") + " --kernel-file " + quote(dir / "k_bad.json") + " --kernel rbf", "--kernel"},
  };
  for (const auto& c : cases) {
    const CmdResult r = run_kbo(c.args, dir);
    EXPECT_EQ(r.code, 2) << c.args << "\nstderr: " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << c.args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << "\nexpected '" << c.expect << "' in: " << r.err;
  }
}

TEST(KfoCli, ProgressGoesToStderrWithPhaseEvaluationBestAndTime) {
  TempDir dir("kfo_progress");
  write_data(dir / "blobs.csv", true);
  const CmdResult r = run_kbo("kfo --data " + quote(dir / "blobs.csv") + " --task classification --json" + kSmall, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  // --subspaces 1 --init 2 --iterations 2: 4 evaluations; the last one is always reported.
  EXPECT_NE(r.err.find("kfo: baseline rbf"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("hyperkernel setting 1 of 1, evaluation 4 of 4, best CV accuracy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kfo: final fit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kfo: input scales (ARD"), std::string::npos) << r.err;  // the default relevance step
  EXPECT_NE(r.err.find(" s\n"), std::string::npos) << r.err;
  EXPECT_NO_THROW(r.json());  // stdout stays one JSON object
}

TEST(KfoCli, BenchDataSetNamesAreCheckedCaseInsensitively) {
  TempDir dir("kfo_bench_names");
  std::filesystem::create_directories(dir / "empty");
  struct Case {
    std::string args, expect;
  };
  const std::vector<Case> cases = {
      {"bench kfo --parts svm --svm-datasets nosuchset --out " + quote(dir / "out"), "unknown data set 'nosuchset'"},
      {"bench kfo --parts gp --gp-datasets nosuchset --out " + quote(dir / "out"), "allowed: Fertility"},
      // 'SONAR' names Sonar (case-insensitive); its file is absent from this data directory.
      {"bench kfo --parts svm --svm-datasets SONAR --data-dir " + quote(dir / "empty") + " --out " + quote(dir / "out"),
       "sonar.csv' not found"},
      {"bench kfo --parts nosuchpart --out " + quote(dir / "out"), "unknown bench part 'nosuchpart'"},
  };
  for (const auto& c : cases) {
    const CmdResult r = run_kbo(c.args, dir);
    EXPECT_EQ(r.code, 2) << c.args << "\nstderr: " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << c.args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << "\nexpected '" << c.expect << "' in: " << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "out/svm.md"));
}

TEST(KfoCli, DefaultsStayWithinTenPercentOfTheRbfBaselineOnAShippedSet) {
  // `kbo kfo` as a user runs it on data/fertility.csv (a regression set where the learned kernel does not
  // validate better than the RBF baseline on split 0): the kfo row is the cross-validated choice, so its test
  // NLL is within 10 % of the RBF GP's, and it is exactly the chosen kernel's row.
  TempDir dir("kfo_fallback");
  std::string data = KBO_SOURCE_DIR "/data/";
  data += "fertility.csv";
  const CmdResult r = run_kbo("kfo --data " + quote(data) + " --task regression --seed 0 --json", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json m = r.json()["methods"];
  const double kfo = m["kfo"]["test_nll"], rbf = m["rbf"]["test_nll"], learned = m["kfo_learned"]["test_nll"];
  EXPECT_LE(kfo, rbf + 0.1 * std::abs(rbf));
  const double cv_kfo = m["kfo"]["validated_cv_nll"]["kfo"], cv_rbf = m["kfo"]["validated_cv_nll"]["rbf"];
  const std::string selected = m["kfo"]["selected"];
  EXPECT_EQ(selected, cv_kfo < cv_rbf ? "kfo" : "rbf");
  EXPECT_DOUBLE_EQ(kfo, selected == "kfo" ? learned : rbf);
}
