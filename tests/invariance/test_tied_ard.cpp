// Tied ARD for the max kernel: lengthscales shared by the coordinates the group mixes.
// Checked against an independent truth: the brute-force max over every group element of an ARD Matérn
// written out here, invariance under the group, the parameter layout, and analytic vs finite-difference
// gradients.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kbo/core/random.hpp"
#include "kbo/invariance/groups.hpp"
#include "kbo/invariance/kernels.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {
namespace {

double matern52(double r) { return (1.0 + std::sqrt(5.0) * r + 5.0 / 3.0 * r * r) * std::exp(-std::sqrt(5.0) * r); }

// max over the m! orderings of y's m elements (d coordinates each) of v·φ(‖(x − πy)/ℓ‖), ℓ per element coordinate.
double brute_set_max(const Vec& x, const Vec& y, int m, int d, const Vec& ell, double v) {
  std::vector<int> p(m);
  std::iota(p.begin(), p.end(), 0);
  double best = -1.0;
  do {
    double r2 = 0.0;
    for (int e = 0; e < m; ++e)
      for (int k = 0; k < d; ++k) r2 += std::pow((x[e * d + k] - y[p[e] * d + k]) / ell[k], 2);
    best = std::max(best, v * matern52(std::sqrt(r2)));
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

Mat random_points(int n, int D, Rng& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Mat X(n, D);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < D; ++j) X(i, j) = u(rng);
  return X;
}

KernelPtr tied_set_max(int m, int d, const Vec& ell, double v) {
  KernelPtr k = make_set_kernel("matern52", m, d, /*ard=*/true, SetKernelType::Max, 0, 1);
  Vec p(d + 1);
  p.head(d) = ell.array().log();
  p[d] = std::log(v);
  k->set_log_params(p);
  return k;
}

TEST(TiedArd, GroupsDeclareWhichCoordinatesTheyMix) {
  EXPECT_EQ(make_group("blocks:3", 6)->lengthscale_classes(), (std::vector<int>{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(make_group("signflip", 3)->lengthscale_classes(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(make_group("permutation", 4)->lengthscale_classes(), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(make_group("hyperoctahedral", 3)->lengthscale_classes(), (std::vector<int>{0, 0, 0}));
  // The generic rule (orbits of the coordinates under the enumerated elements) agrees with the overrides.
  const GroupPtr b = make_group("blocks:3", 6);
  EXPECT_EQ(b->Group::lengthscale_classes(), b->lengthscale_classes());
}

TEST(TiedArd, SetMaxKernelEqualsTheBruteForceMaxOfAnArdKernel) {
  const int m = 3, d = 2;
  const Vec ell = (Vec(2) << 0.15, 0.6).finished();  // very different per element coordinate
  const double v = 1.3;
  const KernelPtr k = tied_set_max(m, d, ell, v);
  EXPECT_EQ(k->num_params(), d + 1);  // d lengthscales shared by the m elements, and the variance
  Rng rng = make_rng(5);
  const Mat X = random_points(6, m * d, rng), Y = random_points(5, m * d, rng);
  const Mat K = k->cross(X, Y);
  for (int i = 0; i < X.rows(); ++i)
    for (int j = 0; j < Y.rows(); ++j)
      EXPECT_NEAR(K(i, j), brute_set_max(X.row(i).transpose(), Y.row(j).transpose(), m, d, ell, v), 1e-12);
  // Invariant under reordering the elements of either argument, and ARD does matter: swapping the two
  // lengthscales changes the kernel.
  const Vec x = X.row(0).transpose(), y = Y.row(0).transpose();
  Vec y2 = y;
  y2.segment(0, d) = y.segment(2 * d, d), y2.segment(2 * d, d) = y.segment(0, d);
  EXPECT_NEAR((*k)(x, y), (*k)(x, y2), 1e-12);
  const KernelPtr swapped = tied_set_max(m, d, ell.reverse(), v);
  EXPECT_GT(std::abs((*k)(x, y) - (*swapped)(x, y)), 1e-3);
}

TEST(TiedArd, GradientsMatchFiniteDifferences) {
  const int m = 3, d = 2;
  const KernelPtr k = tied_set_max(m, d, (Vec(2) << 0.3, 0.5).finished(), 0.9);
  Rng rng = make_rng(11);
  const Mat X = random_points(5, m * d, rng);
  const std::vector<Mat> G = k->gram_gradients(X);
  ASSERT_EQ(static_cast<int>(G.size()), d + 1);
  const Vec p0 = k->log_params();
  const double h = 1e-6;
  for (int p = 0; p < p0.size(); ++p) {
    KernelPtr kp = k->clone(), km = k->clone();
    Vec a = p0, b = p0;
    a[p] += h, b[p] -= h;
    kp->set_log_params(a), km->set_log_params(b);
    const Mat fd = (kp->gram(X) - km->gram(X)) / (2 * h);
    EXPECT_LT((fd - G[p]).cwiseAbs().maxCoeff(), 1e-5) << "parameter " << p;
  }
  const Vec x = X.row(0).transpose();
  const Mat gx = k->cross_grad_x(x, X.bottomRows(4));
  for (int i = 0; i < x.size(); ++i) {
    Vec a = x, b = x;
    a[i] += h, b[i] -= h;
    const Mat fd = (k->cross(a.transpose(), X.bottomRows(4)) - k->cross(b.transpose(), X.bottomRows(4))) / (2 * h);
    EXPECT_LT((fd.row(0) - gx.row(i)).cwiseAbs().maxCoeff(), 1e-5) << "coordinate " << i;
  }
}

TEST(TiedArd, FastPathEqualsBruteForceForSignFlips) {
  // signflip: one lengthscale per coordinate; the exact fast path on scaled coordinates equals the
  // one-sided enumeration of all 2^D elements.
  const int D = 3;
  auto base = std::make_unique<StationaryKernel>(StationaryType::Matern52, D, true);
  Vec p(D + 1);
  p << std::log(0.2), std::log(0.5), std::log(1.1), std::log(0.8);
  base->set_log_params(p);
  const GroupPtr g = make_group("signflip", D);
  const Vec c = Vec::Constant(D, 0.4);
  MaxKernel fast(base->clone(), g, c, OrbitPath::Auto, false, true);
  MaxKernel brute(base->clone(), g, c, OrbitPath::Brute, false, true);
  EXPECT_TRUE(fast.uses_fast_path());
  EXPECT_TRUE(fast.known_psd());
  Rng rng = make_rng(3);
  const Mat X = random_points(7, D, rng);
  EXPECT_LT((fast.gram(X) - brute.gram(X)).cwiseAbs().maxCoeff(), 1e-12);
  // Fitting on the base kernel has another parameter layout: refused with the reason.
  EXPECT_THROW(MaxKernel(base->clone(), g, c, OrbitPath::Auto, true, true), InputError);
}

TEST(TiedArd, ModelKernelsTieArdWhereTheGroupAllows) {
  StrategyConfig c;  // ard on by default
  c.invariance = "signflip";
  c.invariant_kernel = InvariantKernelType::Max;  // the default, auto, is a choice the strategy makes
  const KernelPtr k = make_model_kernel(c, BoxSpace(Box::unit(3)));
  EXPECT_EQ(k->num_params(), 4);  // 3 lengthscales + variance
  c.invariance = "permutation";    // every coordinate mixed: one lengthscale
  EXPECT_EQ(make_model_kernel(c, BoxSpace(Box::unit(3)))->num_params(), 2);
  c.invariant_kernel = InvariantKernelType::Average;  // the average kernel keeps one lengthscale
  c.invariance = "signflip";
  EXPECT_EQ(make_model_kernel(c, BoxSpace(Box::unit(3)))->num_params(), 2);
  StrategyConfig s;
  s.set_kernel = SetKernelType::Max;
  EXPECT_EQ(make_model_kernel(s, SetSpace(4, Box::unit(2)))->num_params(), 3);  // 2 tied lengthscales + variance
  s.ard = false;
  EXPECT_EQ(make_model_kernel(s, SetSpace(4, Box::unit(2)))->num_params(), 2);
}

}  // namespace
}  // namespace kbo

namespace kbo {
namespace {

// --set-kernel average (the default): v·k̄(X, Y)/√(k̄(X, X) k̄(Y, Y)) with k̄ the mean of an isotropic Matérn-5/2
// over the m! orderings of Y's elements, written out here.
TEST(SetAverageKernel, EqualsTheNormalisedMeanOverOrderings) {
  const int m = 3, d = 2;
  const KernelPtr k = make_set_kernel("matern52", m, d, false, SetKernelType::Average, 0, 1);
  ASSERT_EQ(k->num_params(), 2);
  const double ell = 0.3, v = 1.7;
  k->set_log_params((Vec(2) << std::log(ell), std::log(v)).finished());
  auto kbar = [&](const Vec& x, const Vec& y) {
    std::vector<int> p(m);
    std::iota(p.begin(), p.end(), 0);
    double sum = 0.0;
    int count = 0;
    do {
      double r2 = 0.0;
      for (int e = 0; e < m; ++e)
        for (int c = 0; c < d; ++c) r2 += std::pow((x[e * d + c] - y[p[e] * d + c]) / ell, 2);
      sum += matern52(std::sqrt(r2));
      ++count;
    } while (std::next_permutation(p.begin(), p.end()));
    return sum / count;
  };
  Rng rng = make_rng(21);
  const Mat X = random_points(4, m * d, rng), Y = random_points(3, m * d, rng);
  const Mat K = k->cross(X, Y);
  for (int i = 0; i < X.rows(); ++i)
    for (int j = 0; j < Y.rows(); ++j) {
      const Vec x = X.row(i).transpose(), y = Y.row(j).transpose();
      EXPECT_NEAR(K(i, j), v * kbar(x, y) / std::sqrt(kbar(x, x) * kbar(y, y)), 1e-10);
    }
  // Every set, degenerate or spread, has the prior variance v.
  const Vec degenerate = Vec::Constant(m * d, 0.4);
  EXPECT_NEAR((*k)(degenerate, degenerate), v, 1e-12);
  EXPECT_NEAR((*k)(X.row(0).transpose(), X.row(0).transpose()), v, 1e-12);
}

}  // namespace
}  // namespace kbo
