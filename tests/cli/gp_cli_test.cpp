// `kbo gp`'s default fit is MAP: at n = 50 on Ackley-6, ML-II lands on degenerate lengthscales
// and predicts worse; the default must not. `--ml` keeps ML-II reachable, `--map` names the default.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "cli_support.hpp"

using namespace kbo::test;

namespace {

double ackley_unit(const std::vector<double>& u) {  // Ackley on [−32.768, 32.768]^d read through [0, 1]^d
  const double d = static_cast<double>(u.size());
  double sq = 0, cs = 0;
  for (double v : u) {
    const double x = 65.536 * v - 32.768;
    sq += x * x;
    cs += std::cos(2 * M_PI * x);
  }
  return -20 * std::exp(-0.2 * std::sqrt(sq / d)) - std::exp(cs / d) + 20 + std::exp(1.0);
}

void write_ackley(const std::string& path, int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unif(0, 1);
  std::ofstream out(path);
  out.precision(17);
  for (int i = 0; i < n; ++i) {
    std::vector<double> u(6);
    for (double& v : u) v = unif(rng), out << v << ",";
    out << ackley_unit(u) << "\n";
  }
}

}  // namespace

TEST(GpCli, DefaultFitIsMapAndBeatsMaximumLikelihoodAtSmallN) {
  TempDir dir("gp_default_map");
  double rmse_default = 0, rmse_ml = 0;
  const int sets = 3;
  for (int s = 0; s < sets; ++s) {
    std::mt19937_64 rng(100 + s);
    const std::string train = dir / ("train" + std::to_string(s) + ".csv"), test = dir / ("test" + std::to_string(s) + ".csv");
    write_ackley(train, 50, rng);
    write_ackley(test, 2000, rng);
    const std::string common = "gp --train " + quote(train) + " --test " + quote(test) + " --ard --json";
    const CmdResult def = run_kbo(common, dir), map = run_kbo(common + " --map", dir), ml = run_kbo(common + " --ml", dir);
    ASSERT_EQ(def.code, 0) << def.err;
    ASSERT_EQ(map.code, 0) << map.err;
    ASSERT_EQ(ml.code, 0) << ml.err;
    EXPECT_EQ(def.json()["hyperparameters"], map.json()["hyperparameters"]) << "the default is MAP";
    EXPECT_NE(def.json()["hyperparameters"], ml.json()["hyperparameters"]);
    // No degenerate lengthscale: the inputs span about 1, Ackley's structure lives at 0.05..1.
    for (auto& [name, value] : def.json()["hyperparameters"].items())
      if (name.rfind("lengthscale", 0) == 0) {
        EXPECT_GT(value.get<double>(), 0.02) << name << " of data set " << s;
        EXPECT_LT(value.get<double>(), 50.0) << name << " of data set " << s;
      }
    rmse_default += def.json()["rmse"].get<double>() / sets;
    rmse_ml += ml.json()["rmse"].get<double>() / sets;
  }
  EXPECT_LT(rmse_default, 0.97 * rmse_ml) << "default (MAP) " << rmse_default << ", ML-II " << rmse_ml;
}

TEST(GpCli, MapAndMlExcludeEachOther) {
  TempDir dir("gp_map_ml");
  std::mt19937_64 rng(1);
  write_ackley(dir / "train.csv", 10, rng);
  const CmdResult r = run_kbo("gp --train " + quote(dir / "train.csv") + " --map --ml", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--ml"), std::string::npos) << r.err;
}
