// logEHVI against Monte Carlo (fixed seed) over the exact HVI, its gradients against finite differences,
// and its behaviour far from the front (finite, monotone) where plain EHVI underflows to 0.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kbo/model/kernels/stationary.hpp"
#include "kbo/moo/box_decomposition.hpp"
#include "kbo/moo/ehvi.hpp"

namespace {

using kbo::Mat;
using kbo::Vec;

Mat front_2d() {
  Mat Y(4, 2);
  Y << 0.2, 0.9, 0.5, 0.6, 0.7, 0.4, 0.9, 0.1;
  return Y;
}

Mat front_3d() {
  Mat Y(5, 3);
  Y << 0.2, 0.9, 0.4, 0.5, 0.6, 0.6, 0.7, 0.4, 0.3, 0.9, 0.1, 0.5, 0.4, 0.4, 0.8;
  return Y;
}

void expect_matches_monte_carlo(const Mat& Y, const Vec& mean, const Vec& sd) {
  const Vec ref = Vec::Zero(Y.cols());
  const kbo::BoxDecomposition boxes = kbo::non_dominated_boxes(Y, ref);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> z(0.0, 1.0);
  const int N = 200000;
  double sum = 0.0, sum2 = 0.0;
  for (int s = 0; s < N; ++s) {
    Vec y(mean.size());
    for (int j = 0; j < mean.size(); ++j) y[j] = mean[j] + sd[j] * z(rng);
    const double h = kbo::hypervolume_improvement(boxes, y);
    sum += h, sum2 += h * h;
  }
  const double mc = sum / N;
  const double se = std::sqrt((sum2 / N - mc * mc) / N);
  EXPECT_NEAR(std::exp(kbo::log_ehvi(boxes, mean, sd)), mc, 4.0 * se + 1e-12);
}

TEST(LogEHVI, MatchesMonteCarlo2d) {
  Vec mu(2), sd(2);
  mu << 0.6, 0.7;
  sd << 0.2, 0.1;
  expect_matches_monte_carlo(front_2d(), mu, sd);
  mu << 0.3, 0.3;
  sd << 0.3, 0.5;
  expect_matches_monte_carlo(front_2d(), mu, sd);
}

TEST(LogEHVI, MatchesMonteCarlo3d) {
  Vec mu(3), sd(3);
  mu << 0.6, 0.6, 0.6;
  sd << 0.2, 0.1, 0.3;
  expect_matches_monte_carlo(front_3d(), mu, sd);
  mu << 0.1, 0.5, 0.9;
  sd << 0.4, 0.2, 0.05;
  expect_matches_monte_carlo(front_3d(), mu, sd);
}

TEST(LogEHVI, GradientMatchesFiniteDifferences) {
  const kbo::BoxDecomposition boxes = kbo::non_dominated_boxes(front_3d(), Vec::Zero(3));
  Vec mu(3), sd(3);
  mu << 0.45, 0.3, 0.62;
  sd << 0.15, 0.08, 0.2;
  Vec gm, gs;
  kbo::log_ehvi(boxes, mu, sd, &gm, &gs);
  const double h = 1e-6;
  for (int j = 0; j < 3; ++j) {
    Vec a = mu, b = mu;
    a[j] += h, b[j] -= h;
    EXPECT_NEAR(gm[j], (kbo::log_ehvi(boxes, a, sd) - kbo::log_ehvi(boxes, b, sd)) / (2 * h), 1e-5);
    Vec c = sd, d = sd;
    c[j] += h, d[j] -= h;
    EXPECT_NEAR(gs[j], (kbo::log_ehvi(boxes, mu, c) - kbo::log_ehvi(boxes, mu, d)) / (2 * h), 1e-5);
  }
}

TEST(LogEHVI, FiniteAndMonotoneFarBelowTheFront) {
  const kbo::BoxDecomposition boxes = kbo::non_dominated_boxes(front_2d(), Vec::Zero(2));
  Vec sd = Vec::Constant(2, 1e-3);
  double previous = -std::numeric_limits<double>::infinity();
  for (double m : {-3.0, -2.0, -1.0, -0.5, -0.1}) {  // 100 to 3000 standard deviations below ref
    const Vec mu = Vec::Constant(2, m);
    const double v = kbo::log_ehvi(boxes, mu, sd);
    EXPECT_TRUE(std::isfinite(v)) << m;
    EXPECT_GT(v, previous) << m;
    previous = v;
  }
}

TEST(LogEHVI, AcquisitionGradientMatchesFiniteDifferences) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Mat X(12, 2);
  Vec y1(12), y2(12);
  for (int i = 0; i < 12; ++i) {
    X(i, 0) = u(rng), X(i, 1) = u(rng);
    y1[i] = std::sin(3 * X(i, 0)) + X(i, 1);
    y2[i] = std::cos(2 * X(i, 1)) - X(i, 0);
  }
  kbo::GP g1(std::make_unique<kbo::StationaryKernel>(kbo::StationaryType::Matern52, 2, true, 0.3, 1.0), 1e-4);
  kbo::GP g2(std::make_unique<kbo::StationaryKernel>(kbo::StationaryType::Matern52, 2, true, 0.4, 1.0), 1e-4);
  g1.set_data(X, y1);
  g2.set_data(X, y2);
  Mat Y(12, 2);
  Y.col(0) = y1, Y.col(1) = y2;
  Vec ref(2);
  ref << y1.minCoeff() - 0.1, y2.minCoeff() - 0.1;
  kbo::LogExpectedHypervolumeImprovement acq({&g1, &g2}, kbo::non_dominated_boxes(Y, ref));
  for (int rep = 0; rep < 5; ++rep) {
    Vec x(2);
    x << u(rng), u(rng);
    Vec grad;
    const double v = acq.value_and_gradient(x, grad);
    EXPECT_NEAR(v, acq.value(x), 1e-12);
    const double h = 1e-6;
    for (int d = 0; d < 2; ++d) {
      Vec a = x, b = x;
      a[d] += h, b[d] -= h;
      EXPECT_NEAR(grad[d], (acq.value(a) - acq.value(b)) / (2 * h), 1e-4 * std::max(1.0, std::abs(grad[d])));
    }
    Mat one = x.transpose();
    EXPECT_NEAR(acq.values(one)[0], v, 1e-12);
  }
}

}  // namespace
