// The GP-UCB baselines with empirical β: fixed lengthscales maximise the constant-β UCB of the
// standardised data; MAP and HMC report lengthscales inside their support.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"

namespace kbo {
namespace {

StrategyConfig cfg(int n_init, std::uint64_t seed) {
  StrategyConfig c;
  c.n_init = n_init;
  c.init_method = SamplingMethod::Uniform;
  c.seed = seed;
  c.acq_optimizer.raw_samples = 256;
  c.acq_optimizer.num_starts = 4;
  c.acq_optimizer.threads = 1;
  return c;
}

// Independent UCB on standardised data with a unit-variance Gaussian kernel.
double ucb_std(const Mat& X, const Vec& y, double ell, double s2, double beta_sqrt, double x) {
  const int n = static_cast<int>(X.rows());
  const double m = y.mean();
  const double sd = std::sqrt((y.array() - m).square().sum() / (n - 1));
  const Vec z = (y.array() - m) / sd;
  Mat K(n, n);
  Vec k(n);
  for (int i = 0; i < n; ++i) {
    k[i] = std::exp(-0.5 * std::pow((X(i, 0) - x) / ell, 2));
    for (int j = 0; j < n; ++j) K(i, j) = std::exp(-0.5 * std::pow((X(i, 0) - X(j, 0)) / ell, 2));
  }
  K.diagonal().array() += s2;
  const Eigen::LLT<Mat> llt(K);
  const double mu = k.dot(llt.solve(z)), var = 1.0 - k.dot(llt.solve(k));
  return mu + beta_sqrt * std::sqrt(std::max(var, 0.0));
}

TEST(Baselines, FixedModeMaximisesConstantBetaUcb) {
  BaselineOptions o;
  o.mode = HyperMode::Fixed;
  o.theta = {0.15};
  o.beta_sqrt = 2.0;
  o.noise_var = 1e-3;
  HyperGpucbStrategy s(cfg(3, 5), std::make_shared<BoxSpace>(Box::unit(1)), o);
  Mat X(0, 1);
  Vec y(0);
  for (int k = 0; k < 10; ++k) {
    const Vec x = s.suggest(X, y, Mat(0, 1), k);
    if (k >= 3) {
      double best = -1e300;
      for (int i = 0; i <= 4000; ++i) best = std::max(best, ucb_std(X, y, 0.15, 1e-3, 2.0, i / 4000.0));
      EXPECT_GE(ucb_std(X, y, 0.15, 1e-3, 2.0, x[0]), best - 1e-6) << "step " << k;
    }
    X.conservativeResize(k + 1, 1);
    X(k, 0) = x[0];
    y.conservativeResize(k + 1);
    y[k] = std::sin(10 * x[0]) + x[0];
  }
}

TEST(Baselines, MapAndHmcReportLengthscalesInTheirSupport) {
  for (HyperMode mode : {HyperMode::Map, HyperMode::Hmc}) {
    BaselineOptions o;
    o.mode = mode;
    o.hmc_warmup = 60;
    o.hmc_samples = 40;
    o.theta_lower = 0.01;
    o.theta_upper = 5.0;
    HyperGpucbStrategy s(cfg(4, 2), std::make_shared<BoxSpace>(Box::unit(2)), o);
    Mat X(0, 2);
    Vec y(0);
    for (int k = 0; k < 8; ++k) {
      const Vec x = s.suggest(X, y, Mat(0, 2), k);
      X.conservativeResize(k + 1, 2);
      X.row(k) = x.transpose();
      y.conservativeResize(k + 1);
      y[k] = std::sin(6 * x[0]) * x[1];
      if (k >= 4) {
        const auto info = s.last_info();
        const std::vector<double> th = info["theta"];
        for (double t : th) {
          EXPECT_GE(t, 0.01 * (1 - 1e-9));
          EXPECT_LE(t, 5.0 * (1 + 1e-9));
        }
        if (mode == HyperMode::Hmc) {
          EXPECT_GT(info["hmc_accept"].get<double>(), 0.3);
        }
      }
    }
  }
  EXPECT_THROW(BaselineOptions::from_json({{"theta_lower", 2.0}, {"theta_upper", 1.0}}, 1), InputError);
}

// Pending points enter through acquisition/fantasy.hpp with config.fantasy: the modes give different
// models, and a pending point is never suggested again (fantasy "none" leaves the model blind to it).
TEST(Baselines, PendingPointsUseTheConfiguredFantasy) {
  BaselineOptions o;
  o.mode = HyperMode::Fixed;
  o.theta = {0.2};
  auto space = std::make_shared<BoxSpace>(Box::unit(1));
  Mat X(5, 1);
  X << 0.05, 0.3, 0.5, 0.7, 0.95;
  Vec y(5);
  for (int i = 0; i < 5; ++i) y[i] = std::sin(6 * X(i, 0));
  auto suggest = [&](const std::string& fantasy, const Mat& pending) {
    StrategyConfig c = cfg(2, 9);
    c.fantasy = parse_fantasy_mode(fantasy);
    HyperGpucbStrategy s(c, space, o);
    const Vec x = s.suggest(X, y, pending, 7);
    return std::make_pair(x, s.last_info());
  };
  const Vec x0 = suggest("kriging_believer", Mat(0, 1)).first;
  const Mat pending = x0.transpose();
  const auto [kb, kb_info] = suggest("kriging_believer", pending);
  const auto [worst, worst_info] = suggest("constant_liar_worst", pending);
  const auto [none, none_info] = suggest("none", pending);
  EXPECT_EQ(kb_info["fantasy"], "kriging_believer");
  EXPECT_EQ(worst_info["fantasy"], "constant_liar_worst");
  EXPECT_GT(std::abs(kb[0] - x0[0]), 1e-6);
  EXPECT_GT(std::abs(worst[0] - x0[0]), 1e-6);
  EXPECT_NE(kb[0], worst[0]);
  // "none": the same model as without the pending point, so the maximiser lands on it again and a
  // uniform random point replaces it.
  EXPECT_TRUE(none_info.value("repeat_replaced_by_random", false));
  EXPECT_GT(std::abs(none[0] - x0[0]), 1e-9);
  EXPECT_FALSE(kb_info.contains("repeat_replaced_by_random"));

  // An unknown mode cannot reach the typed config: it is rejected where text is read.
  EXPECT_THROW(parse_fantasy_mode("optimistic"), InputError);
}

}  // namespace
}  // namespace kbo
