// Cholesky (jitter, extension), eigen/PSD clip, Box, Sobol against published points.
#include <gtest/gtest.h>

#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"
#include "kbo/core/space.hpp"

using namespace kbo;

namespace {
Mat random_spd(int n, std::uint64_t seed) {
  Rng rng = make_rng(seed);
  std::normal_distribution<double> N(0, 1);
  Mat A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = N(rng);
  return A * A.transpose() + n * Mat::Identity(n, n);
}
}  // namespace

TEST(Cholesky, SolvesAndLogDet) {
  Mat K = random_spd(8, 1);
  Cholesky c(K);
  EXPECT_EQ(c.jitter(), 0.0);
  Vec b = Vec::LinSpaced(8, -1, 1);
  EXPECT_LT((K * c.solve(b) - b).norm(), 1e-10);
  EXPECT_NEAR(c.log_det(), std::log(K.determinant()), 1e-9);
  EXPECT_LT((c.inverse() * K - Mat::Identity(8, 8)).norm(), 1e-10);
}

TEST(Cholesky, ExtensionEqualsRefactorisation) {
  Mat K = random_spd(10, 2);
  Cholesky part(K.topLeftCorner(7, 7));
  for (int n = 7; n < 10; ++n) part.extend(K.block(0, n, n, 1), K(n, n));
  Cholesky full(K);
  EXPECT_LT((part.L() - full.L()).norm(), 1e-12);
}

TEST(Cholesky, JitterEscalatesOnSingularMatrix) {
  Vec v = Vec::LinSpaced(5, 1, 2);
  Mat K = v * v.transpose();  // rank one: not positive definite
  Cholesky c(K);
  EXPECT_GT(c.jitter(), 0.0);
  EXPECT_LE(c.jitter(), 0.1 * K.diagonal().mean());
  Mat rebuilt = c.L() * c.L().transpose();
  EXPECT_LT((rebuilt - K - c.jitter() * Mat::Identity(5, 5)).norm(), 1e-9);
}

TEST(Cholesky, IndefiniteMatrixThrows) {
  Mat K = Mat::Identity(3, 3);
  K(2, 2) = -5.0;
  EXPECT_THROW(Cholesky c(K), NumericalError);
}

TEST(Eigen, PsdClipIsNearestPsd) {
  Mat A(2, 2);
  A << 1, 2, 2, 1;  // eigenvalues 3, -1
  Mat P = psd_clip(A);
  EXPECT_NEAR(P(0, 0), 1.5, 1e-12);
  EXPECT_NEAR(P(0, 1), 1.5, 1e-12);
  EXPECT_GE(symmetric_eigen(P).values.minCoeff(), -1e-12);
}

TEST(Box, RejectsBadBounds) {
  EXPECT_THROW(Box(Vec::Zero(2), Vec::Zero(2)), InputError);
  EXPECT_THROW(Box(Vec::Zero(2), Vec::Ones(3)), InputError);
  EXPECT_THROW(Box(Vec(), Vec()), InputError);
  Box b(Vec::Constant(2, -1), Vec::Constant(2, 3));
  Vec x(2);
  x << 1, 3;
  EXPECT_TRUE(b.contains(x));
  EXPECT_LT((b.from_unit(b.to_unit(x)) - x).norm(), 1e-15);
}

TEST(Sobol, MatchesPublishedFirstPoints) {
  // Joe & Kuo (2008) new-joe-kuo-6.21201, first 6 points in 3 dimensions.
  const double expected[6][3] = {{0, 0, 0},         {0.5, 0.5, 0.5},     {0.75, 0.25, 0.25},
                                 {0.25, 0.75, 0.75}, {0.375, 0.375, 0.625}, {0.875, 0.875, 0.125}};
  Sobol s(3);
  for (auto& row : expected) {
    Vec u = s.next();
    for (int d = 0; d < 3; ++d) EXPECT_DOUBLE_EQ(u[d], row[d]);
  }
}

TEST(Sobol, ShiftedSequenceIsStratified) {
  // A digital shift keeps the (0, m, 1) net property per coordinate: the first 2^k points put exactly
  // one point in each interval [j/2^k, (j+1)/2^k).
  Sobol s(4, 12345);
  Mat U = s.next(16);
  for (int d = 0; d < 4; ++d) {
    std::vector<int> count(16, 0);
    for (int i = 0; i < 16; ++i) count[static_cast<int>(U(i, d) * 16)]++;
    for (int c : count) EXPECT_EQ(c, 1);
  }
}

TEST(Space, SampleIsDeterministicAndInBounds) {
  BoxSpace space(Box(Vec::Constant(3, -2), Vec::Constant(3, 5)));
  Rng a = make_rng(4), b = make_rng(4);
  Mat X = space.sample(20, SamplingMethod::Sobol, a);
  Mat Y = space.sample(20, SamplingMethod::Sobol, b);
  EXPECT_EQ(X, Y);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(space.bounds().contains(X.row(i).transpose()));
  Rng c = make_rng(5);
  Mat Z = space.sample(20, SamplingMethod::Uniform, c);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(space.bounds().contains(Z.row(i).transpose()));
  EXPECT_THROW(parse_sampling_method("lhs"), InputError);
}
