// The sliced set kernel (kbo/sets/sliced_set_kernel.hpp) against brute force, its invariants and finite
// differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "shuffled_set.hpp"
#include "kbo/sets/sliced_set_kernel.hpp"

namespace kbo {
namespace {

// Squared distance of the two embeddings from the definition: for every direction (axes, (e_i ± e_j)/√2),
// the sorted projections of the two sets compared rank by rank, summed, divided by d.
double brute_sq_dist(const Vec& x, const Vec& y, int m, int d) {
  std::vector<Vec> dirs;
  for (int i = 0; i < d; ++i) dirs.push_back(Vec::Unit(d, i));
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j)
      for (double s : {1.0, -1.0}) {
        Vec v = Vec::Zero(d);
        v(i) = 1.0, v(j) = s;
        dirs.push_back(v / std::sqrt(2.0));
      }
  const Mat A = SetSpace::to_elements(x, m, d), B = SetSpace::to_elements(y, m, d);
  double s = 0;
  for (const Vec& v : dirs) {
    std::vector<double> a(m), b(m);
    for (int e = 0; e < m; ++e) a[e] = A.row(e).dot(v), b[e] = B.row(e).dot(v);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    for (int r = 0; r < m; ++r) s += (a[r] - b[r]) * (a[r] - b[r]);
  }
  return s / d;
}

TEST(SlicedSetKernel, MatchesTheDefinitionForEveryBaseKernel) {
  Rng rng = make_rng(3);
  for (int d : {1, 2, 3}) {
    const int m = 4;
    for (StationaryType t : {StationaryType::RBF, StationaryType::Matern12, StationaryType::Matern52}) {
      SlicedSetKernel k(t, m, d, 0.4, 1.7);
      EXPECT_EQ(k.directions().cols(), d * d);
      const StationaryKernel profile(t, 1, false, 0.4, 1.7);  // k as a function of the embedding distance
      const Mat X = random_sets(5, m, d, rng), Y = random_sets(4, m, d, rng);
      const Mat K = k.cross(X, Y);
      for (int i = 0; i < X.rows(); ++i)
        for (int j = 0; j < Y.rows(); ++j) {
          const double r = std::sqrt(brute_sq_dist(X.row(i).transpose(), Y.row(j).transpose(), m, d));
          const Vec zero = Vec::Zero(1), at_r = Vec::Constant(1, r);
          EXPECT_NEAR(K(i, j), profile(zero, at_r), 1e-12) << "d=" << d << " " << to_string(t);
        }
      // gram from exact differences (cross expands ‖s‖² + ‖t‖² − 2s·t, which rounds r = 0 to about 1e-8).
      const Mat G = k.gram(X);
      for (int i = 0; i < X.rows(); ++i)
        for (int j = 0; j < X.rows(); ++j) {
          const double r = std::sqrt(brute_sq_dist(X.row(i).transpose(), X.row(j).transpose(), m, d));
          EXPECT_NEAR(G(i, j), profile(Vec::Zero(1), Vec::Constant(1, r)), 1e-12);
        }
      EXPECT_LT((k.diag(X) - Vec::Constant(X.rows(), 1.7)).cwiseAbs().maxCoeff(), 1e-15);
    }
  }
}

// The directions form a tight frame: moving one element by δ without reordering any projection moves the
// embedding by exactly ‖δ‖, so the lengthscale means what it means for the flat GP.
TEST(SlicedSetKernel, OneElementMoveMovesTheEmbeddingByItsLength) {
  const int m = 3, d = 3;
  SlicedSetKernel k(StationaryType::Matern52, m, d);
  Vec x(m * d);
  x << 0.1, 0.2, 0.15, 0.5, 0.55, 0.45, 0.9, 0.8, 0.85;
  Vec y = x;
  const Vec delta = (Vec(3) << 0.01, -0.02, 0.015).finished();
  y.segment(3, 3) += delta;
  const Mat S = k.embed((Mat(2, m * d) << x.transpose(), y.transpose()).finished());
  EXPECT_NEAR((S.row(0) - S.row(1)).norm(), delta.norm(), 1e-12);
}

TEST(SlicedSetKernel, InvariantUnderElementOrderingsAndPositiveSemidefinite) {
  Rng rng = make_rng(5);
  const int m = 4, d = 2;
  SlicedSetKernel k(StationaryType::Matern52, m, d, 0.3, 1.0);
  const Mat X = random_sets(40, m, d, rng);
  Mat Xs = X;
  for (int i = 0; i < X.rows(); ++i) Xs.row(i) = shuffled(X.row(i).transpose(), m, d, rng).transpose();
  EXPECT_LT((k.cross(X, X) - k.cross(Xs, X)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((k.cross(X, X) - k.cross(X, Xs)).cwiseAbs().maxCoeff(), 1e-12);
  const Eigen::SelfAdjointEigenSolver<Mat> eig(k.gram(X));
  EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-10);
}

// Splitting two coincident elements by ±t·v moves the embedding in proportion to |t| (first order), where a
// smooth invariant kernel such as the orbit average moves only at order t² (docs/bench/structure.md).
TEST(SlicedSetKernel, SplittingACoincidentPairIsAFirstOrderMove) {
  const int m = 3, d = 2;
  SlicedSetKernel k(StationaryType::Matern52, m, d);
  auto split = [](double t) {
    Vec x(6);
    x << 0.4 + t, 0.5 + 0.5 * t, 0.4 - t, 0.5 - 0.5 * t, 0.9, 0.1;
    return x;
  };
  const Mat S = k.embed((Mat(3, 6) << split(0).transpose(), split(1e-3).transpose(), split(2e-3).transpose()).finished());
  const double a = (S.row(1) - S.row(0)).norm(), b = (S.row(2) - S.row(0)).norm();
  EXPECT_GT(a, 1e-3);  // at least |t|·‖v‖ = 1.1e-3 in total over the pair
  EXPECT_NEAR(b / a, 2.0, 1e-9);
  // The embedding of the split at −t is the same set: the same point.
  EXPECT_LT((k.embed(split(-1e-3).transpose()) - S.row(1)).norm(), 1e-15);
}

TEST(SlicedSetKernel, GradientsMatchFiniteDifferences) {
  Rng rng = make_rng(9);
  const double h = 1e-6;
  for (StationaryType t : {StationaryType::RBF, StationaryType::Matern32, StationaryType::Matern52}) {
    const int m = 4, d = 2;
    SlicedSetKernel k(t, m, d, 0.5, 1.3);
    const Mat X = random_sets(5, m, d, rng);
    const Vec x = random_sets(1, m, d, rng).row(0).transpose();
    const Mat g = k.cross_grad_x(x, X);
    ASSERT_EQ(g.rows(), m * d);
    ASSERT_EQ(g.cols(), X.rows());
    for (int i = 0; i < x.size(); ++i) {
      Vec xp = x, xm = x;
      xp(i) += h;
      xm(i) -= h;
      const Mat fd = (k.cross(xp.transpose(), X) - k.cross(xm.transpose(), X)) / (2 * h);
      for (int j = 0; j < X.rows(); ++j) EXPECT_NEAR(g(i, j), fd(0, j), 1e-7) << to_string(t);
    }
    const std::vector<Mat> G = k.gram_gradients(X);
    const Vec p0 = k.log_params();
    ASSERT_EQ(static_cast<int>(G.size()), p0.size());
    for (int p = 0; p < p0.size(); ++p) {
      Vec pp = p0, pm = p0;
      pp(p) += h;
      pm(p) -= h;
      k.set_log_params(pp);
      const Mat Kp = k.gram(X);
      k.set_log_params(pm);
      const Mat Km = k.gram(X);
      k.set_log_params(p0);
      EXPECT_LT((G[p] - (Kp - Km) / (2 * h)).cwiseAbs().maxCoeff(), 1e-7);
    }
  }
}

// condition_on keeps the training sets' embedding: values and gradients against the training sets are the
// unconditioned kernel's, and any other matrix of the same shape is embedded afresh (a cache miss).
TEST(SlicedSetKernel, ConditioningCachesTheTrainingEmbeddingWithoutChangingValues) {
  Rng rng = make_rng(11);
  const int m = 3, d = 2;
  const SlicedSetKernel plain(StationaryType::Matern52, m, d, 0.4, 1.1);
  SlicedSetKernel conditioned = plain;
  const Mat X = random_sets(6, m, d, rng), other = random_sets(6, m, d, rng), Q = random_sets(2, m, d, rng);
  conditioned.condition_on(X);
  EXPECT_TRUE(conditioned.cross(Q, X).isApprox(plain.cross(Q, X), 1e-14));
  EXPECT_TRUE(conditioned.gram(X).isApprox(plain.gram(X), 1e-14));
  EXPECT_TRUE(conditioned.cross(Q, other).isApprox(plain.cross(Q, other), 1e-14));
  const Vec q = Q.row(0).transpose();
  EXPECT_TRUE(conditioned.cross_grad_x(q, X).isApprox(plain.cross_grad_x(q, X), 1e-14));
  EXPECT_TRUE(conditioned.cross_grad_x(q, other).isApprox(plain.cross_grad_x(q, other), 1e-14));
}

TEST(SlicedSetKernel, FactoryBuildsItAndRejectsBadSizes) {
  const KernelPtr k = make_set_kernel("matern52", 4, 2, true, SetKernelType::Sliced, 0, 1);
  EXPECT_NE(dynamic_cast<const SlicedSetKernel*>(k.get()), nullptr);
  EXPECT_EQ(make_set_kernel("rbf", 3, 2, true, "sliced", 0, 1)->num_params(), 2);  // one lengthscale, variance
  EXPECT_THROW(SlicedSetKernel(StationaryType::RBF, 0, 2), InputError);
  EXPECT_THROW(SlicedSetKernel(StationaryType::RBF, 3, 0), InputError);
  SlicedSetKernel k3(StationaryType::RBF, 3, 2);
  EXPECT_THROW(k3.cross(Mat::Zero(1, 5), Mat::Zero(1, 6)), InputError);
}

}  // namespace
}  // namespace kbo
