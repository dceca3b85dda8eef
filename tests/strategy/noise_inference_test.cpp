// options.bo noise "infer": replicates decide between a rugged deterministic objective and a noisy one,
// and the evidence then picks the noise level (include/kbo/strategy/noise_inference.hpp, bo_refit.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kbo/strategy/noise_inference.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {
namespace {

TEST(ReplicateVerdict, NoneExactOrNoisyByBruteForceOverPairs) {
  Mat X(4, 2);
  X << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8;
  Vec y(4);
  y << 1.0, 2.0, 3.0, 4.0;
  EXPECT_EQ(replicate_verdict(X, y), ReplicateVerdict::None);
  X.row(3) = X.row(1);  // trial 3 repeats trial 1
  y[3] = 2.0;
  EXPECT_EQ(replicate_verdict(X, y), ReplicateVerdict::Exact);
  y[3] = 2.0 + 1e-12;  // within 1e-9 of the spread (2): the same value printed by a deterministic program
  EXPECT_EQ(replicate_verdict(X, y), ReplicateVerdict::Exact);
  y[3] = 2.01;
  EXPECT_EQ(replicate_verdict(X, y), ReplicateVerdict::Noisy);
  // A row that differs in the last bit is another point, not a replicate.
  X(3, 0) = std::nextafter(X(1, 0), 1.0);
  EXPECT_EQ(replicate_verdict(X, y), ReplicateVerdict::None);
  EXPECT_TRUE(contains_row(X, X.row(2).transpose()));
  EXPECT_FALSE(contains_row(X, Vec::Constant(2, 0.9)));
}

// Runs GP-UCB on f (+ Gaussian noise of sd `noise`) for n trials, returning the data and the last info.
struct Observed {
  Mat X;
  Vec y;
  int replicates_asked = 0;
  bool noisy_at_end = false;
};
template <class F>
Observed run(F f, double noise, int n, int D) {
  auto space = std::make_shared<BoxSpace>(Box::unit(D));
  StrategyConfig c;
  c.seed = 3;
  auto strategy = make_strategy(c, space);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  Observed r;
  r.X.resize(0, D);
  r.y.resize(0);
  for (int t = 0; t < n; ++t) {
    const Vec x = strategy->suggest(r.X, r.y, Mat(0, D), t);
    const nlohmann::json info = strategy->last_info();
    if (info.contains("noise")) {
      r.replicates_asked += info["noise"].value("replicate", false) ? 1 : 0;
      r.noisy_at_end = info["noise"].value("noisy", false);
    }
    r.X.conservativeResize(t + 1, D);
    r.X.row(t) = x.transpose();
    r.y.conservativeResize(t + 1);
    r.y[t] = -(f(x) + noise * normal(rng));  // the strategy maximises
  }
  return r;
}

// Rastrigin-type: deterministic, but rugged at the scale of a 40-point design, so the evidence favours noise.
double rugged(const Vec& x) {
  double s = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double z = 5.12 * (2.0 * x[i] - 1.0) - 0.7;
    s += z * z - 10.0 * std::cos(2.0 * M_PI * z) + 10.0;
  }
  return s;
}
double bowl(const Vec& x) { return (x.array() - 0.3).square().sum(); }

TEST(NoiseInference, ARuggedDeterministicObjectiveIsTestedOnceAndStaysExact) {
  const Observed r = run(rugged, 0.0, 40, 3);
  EXPECT_EQ(r.replicates_asked, 1);
  EXPECT_EQ(replicate_verdict(r.X, r.y), ReplicateVerdict::Exact);
  EXPECT_FALSE(r.noisy_at_end);
}

TEST(NoiseInference, ANoisyObjectiveIsConfirmedByItsReplicateAndModelledAsNoisy) {
  // Noise sd 0.05 on a bowl whose values span about 0 .. 1.5: ~5 % of the range.
  const Observed r = run(bowl, 0.05, 40, 3);
  EXPECT_EQ(r.replicates_asked, 1);
  EXPECT_EQ(replicate_verdict(r.X, r.y), ReplicateVerdict::Noisy);
  EXPECT_TRUE(r.noisy_at_end);
}

TEST(NoiseInference, ASmoothDeterministicObjectiveSpendsNoEvaluationOnATest) {
  const Observed r = run(bowl, 0.0, 30, 3);
  EXPECT_EQ(r.replicates_asked, 0);
  EXPECT_EQ(replicate_verdict(r.X, r.y), ReplicateVerdict::None);
}

}  // namespace
}  // namespace kbo
