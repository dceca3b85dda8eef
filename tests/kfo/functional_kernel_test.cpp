// The learned kernel as a kbo::Kernel: eq. (4) values, α-clipping ⇒ PSD, gradients, use inside kbo::GP.
#include <gtest/gtest.h>

#include "kfo_test_data.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/core/random.hpp"

using namespace kbo;
using namespace kbo::kfo;
using namespace kbo::kfo::test;

TEST(KfoFunctionalKernel, EqualsHyperkernelExpansion) {
  const FunctionalBasis basis = make_basis(2);
  Rng rng = make_rng(1);
  const Vec z = basis.sample_direction(rng);
  const FunctionalKernel k(basis, z, FunctionalPsd::None, false);
  const Mat X = rand_points(rng, 5, 2), Y = rand_points(rng, 4, 2);
  const Mat K = k.cross(X, Y);
  const Vec alpha = basis.alpha(z);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) {
      // h_j(x, y) = κ((x, y), g_j) from eq. (3) with the explicit m² grid pairs; a grid point's weight is shared
      // equally by the pairs at its distance (c_u of them).
      const Mat& B = basis.base_points();
      const int m = static_cast<int>(B.rows());
      double v = 0.0;
      for (int a = 0; a < m * m; ++a) {
        const int u = std::abs(a / m - a % m);  // equispaced points: distance index |i − j|
        v += alpha(u) / basis.multiplicities()(u) *
             hyperkernel(X.row(i), Y.row(j), B.row(a / m), B.row(a % m), basis.hyper());
      }
      EXPECT_NEAR(K(i, j), v, 1e-9 * std::max(1.0, std::abs(v)));
    }
}

TEST(KfoFunctionalKernel, AlphaClippedKernelIsPsdUnclippedNeedNotBe) {
  const FunctionalBasis basis = make_basis(3);
  Rng rng = make_rng(7);
  const Mat X = rand_points(rng, 40, 3);
  int indefinite = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Vec z = basis.sample_direction(rng);
    const Mat Kc = FunctionalKernel(basis, z, FunctionalPsd::AlphaClip, false).gram(X);
    Eigen::SelfAdjointEigenSolver<Mat> es(Kc);
    EXPECT_GE(es.eigenvalues().minCoeff(), -1e-9 * std::max(1.0, es.eigenvalues().cwiseAbs().maxCoeff()));
    const Mat Ku = FunctionalKernel(basis, z, FunctionalPsd::None, false).gram(X);
    Eigen::SelfAdjointEigenSolver<Mat> eu(Ku);
    indefinite += eu.eigenvalues().minCoeff() < -1e-6 * eu.eigenvalues().cwiseAbs().maxCoeff();
  }
  EXPECT_GT(indefinite, 0);  // random functionals are Kreĭn kernels: the fix is needed
}

TEST(KfoFunctionalKernel, GradientsMatchFiniteDifferences) {
  const FunctionalBasis basis = make_basis(2);
  Rng rng = make_rng(3);
  const Vec z = basis.sample_direction(rng);
  FunctionalKernel k(basis, z, FunctionalPsd::AlphaClip, true, 1.7,
                     std::make_unique<StationaryKernel>(StationaryType::RBF, 2, false, 0.4));
  const Mat X = rand_points(rng, 6, 2);
  const Vec x = rand_points(rng, 1, 2).row(0).transpose();
  const Mat G = k.cross_grad_x(x, X);
  const double h = 1e-6;
  for (int d = 0; d < 2; ++d) {
    Vec xp = x, xm = x;
    xp(d) += h;
    xm(d) -= h;
    const Mat fd = (k.cross(xp.transpose(), X) - k.cross(xm.transpose(), X)) / (2 * h);
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(G(d, j), fd(0, j), 1e-5 * std::max(1.0, G.cwiseAbs().maxCoeff()));
  }
  // Gradient at a training point itself (r = 0) is finite and zero for the stationary parts.
  const Mat G0 = k.cross_grad_x(X.row(0).transpose(), X);
  EXPECT_NEAR(G0.col(0).norm(), 0.0, 1e-12);
  // log-variance gradient of the Gram.
  const auto grads = k.gram_gradients(X);
  ASSERT_EQ(grads.size(), 1u);
  FunctionalKernel kp = k, km = k;
  kp.set_log_params(k.log_params().array() + h);
  km.set_log_params(k.log_params().array() - h);
  EXPECT_LT(((kp.gram(X) - km.gram(X)) / (2 * h) - grads[0]).cwiseAbs().maxCoeff(), 1e-6 * grads[0].cwiseAbs().maxCoeff());
}

TEST(KfoFunctionalKernel, ZeroCoordinatesReduceToTheBaseKernel) {
  const FunctionalBasis basis = make_basis(2);
  Rng rng = make_rng(4);
  const Mat X = rand_points(rng, 7, 2);
  StationaryKernel se(StationaryType::RBF, 2, false, 0.3, 1.4);
  FunctionalKernel k(basis, Vec::Zero(basis.components()), FunctionalPsd::AlphaClip, true, 1.0, se.clone());
  EXPECT_LT((k.gram(X) - se.gram(X)).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(KfoFunctionalKernel, UsableByGp) {
  const FunctionalBasis basis = make_basis(1);
  Rng rng = make_rng(9);
  const Mat X = rand_points(rng, 15, 1);
  Vec y = (6.0 * X.col(0)).array().sin();
  GP gp(std::make_unique<FunctionalKernel>(basis, basis.sample_direction(rng)), 1e-3, true, true);
  gp.set_data(X, y);
  const double before = gp.log_marginal_likelihood();
  const double after = gp.fit();
  EXPECT_GE(after, before - 1e-9);
  const auto pred = gp.predict(X);
  EXPECT_TRUE(pred.mean.allFinite());
  EXPECT_GE(pred.variance.minCoeff(), -1e-9);
}

TEST(KfoFunctionalKernel, RebuiltFromSavedWeightsIsIdentical) {
  // `kbo kfo --save-kernel` stores (distinct distances, aggregated weights, Θ): rebuilding gives the same kernel.
  const FunctionalBasis basis = make_basis(3);
  Rng rng = make_rng(12);
  const Vec z = basis.sample_direction(rng);
  for (FunctionalPsd psd : {FunctionalPsd::AlphaClip, FunctionalPsd::None}) {
    const FunctionalKernel k(basis, z, psd, true, 0.7);
    const FunctionalKernel r(k.distances(), k.weights(), k.hyper(), k.psd(), true, k.variance());
    const Mat X = rand_points(rng, 6, 3);
    EXPECT_LT((k.gram(X) - r.gram(X)).cwiseAbs().maxCoeff(), 1e-12 * std::max(1.0, k.gram(X).cwiseAbs().maxCoeff()));
  }
}
