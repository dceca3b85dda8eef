// Kreĭn → PSD: spectrum clip (Frobenius-nearest PSD), flip, and the consistent train/test transform.
#include <gtest/gtest.h>

#include "kbo/kfo/psd.hpp"
#include "kbo/core/random.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {
Mat random_symmetric(Rng& rng, int n) {
  std::normal_distribution<double> g(0.0, 1.0);
  Mat A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = g(rng);
  return 0.5 * (A + A.transpose());
}
}  // namespace

TEST(KfoPsd, ClipOfKnownMatrix) {
  // [[0,1],[1,0]] has eigenvalues ±1 with eigenvectors (1,1)/√2, (1,−1)/√2: the clip is [[½,½],[½,½]].
  Mat A(2, 2);
  A << 0, 1, 1, 0;
  const SpectralTransform T(A, SpectrumFix::Clip);
  EXPECT_LT((T.train() - Mat::Constant(2, 2, 0.5)).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_EQ(T.negative_eigenvalues(), 1);
  const SpectralTransform F(A, SpectrumFix::Flip);
  EXPECT_LT((F.train() - Mat::Identity(2, 2)).cwiseAbs().maxCoeff(), 1e-14);  // Z|Λ|Zᵀ = I
}

TEST(KfoPsd, ClipIsTheFrobeniusNearestPsdMatrix) {
  Rng rng = make_rng(21);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    const Mat A = random_symmetric(rng, 8);
    const Mat C = SpectralTransform(A, SpectrumFix::Clip).train();
    Eigen::SelfAdjointEigenSolver<Mat> ea(A), ec(C);
    EXPECT_GE(ec.eigenvalues().minCoeff(), -1e-12);
    // Closed form of the distance: ||A − C||_F² = Σ_{λ<0} λ².
    double neg2 = 0.0;
    for (int i = 0; i < 8; ++i) neg2 += ea.eigenvalues()(i) < 0 ? ea.eigenvalues()(i) * ea.eigenvalues()(i) : 0.0;
    const double dist = (A - C).norm();
    EXPECT_NEAR(dist * dist, neg2, 1e-10);
    // Brute force: PSD matrices around C (C + small PSD bumps, and PSD projections of perturbations) are never closer.
    for (int k = 0; k < 300; ++k) {
      Vec v(8);
      for (int i = 0; i < 8; ++i) v(i) = g(rng);
      const double s = (k % 3 == 0) ? 1e-3 : 0.3;
      const Mat B1 = C + s * v * v.transpose();
      EXPECT_GE((A - B1).norm(), dist - 1e-12);
      const Mat P = SpectralTransform(C + s * random_symmetric(rng, 8), SpectrumFix::Clip).train();
      EXPECT_GE((A - P).norm(), dist - 1e-12);
    }
  }
}

TEST(KfoPsd, TrainAndTestTransformsAreConsistent) {
  // A test point equal to training point i has the test row K(x_i, X) = row i of C; it must map to row i of Ĉ.
  Rng rng = make_rng(4);
  const Mat A = random_symmetric(rng, 10);
  for (SpectrumFix fix : {SpectrumFix::Clip, SpectrumFix::Flip, SpectrumFix::None}) {
    const SpectralTransform T(A, fix);
    const Mat rows = A.topRows(4);
    EXPECT_LT((T.test(rows) - T.train().topRows(4)).cwiseAbs().maxCoeff(), 1e-12);
  }
  // Linearity: the test map is one fixed matrix ϑ, so it commutes with combinations of rows.
  const SpectralTransform T(A, SpectrumFix::Clip);
  const Mat r = random_symmetric(rng, 10).topRows(3);
  EXPECT_LT((T.test(2.0 * r) - 2.0 * T.test(r)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_THROW(T.test(Mat::Zero(2, 9)), InputError);
  EXPECT_THROW(parse_spectrum_fix("abs"), InputError);
}
