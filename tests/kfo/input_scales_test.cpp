// KFO over ARD-scaled inputs: the scaled functional equals the isotropic one on pre-scaled data, stays
// PSD after α-clipping, has correct input gradients, and the ARD fit ranks a relevant input above an irrelevant one.
#include <gtest/gtest.h>

#include "kfo_test_data.hpp"
#include "kbo/core/random.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/input_scales.hpp"

using namespace kbo;
using namespace kbo::kfo;
using namespace kbo::kfo::test;

TEST(KfoInputScales, ScaledKernelEqualsUnscaledKernelOnPrescaledData) {
  const FunctionalBasis basis = make_basis(3);
  Rng rng = make_rng(8);
  const Vec s = (Vec(3) << 2.5, 0.3, 0.0).finished();  // a zero scale drops the dimension
  const Mat X = rand_points(rng, 9, 3), Y = rand_points(rng, 5, 3);
  for (FunctionalPsd psd : {FunctionalPsd::None, FunctionalPsd::AlphaClip}) {
    const Vec z = basis.sample_direction(rng);
    FunctionalKernel scaled(basis, z, psd, true, 1.3);
    scaled.set_input_scales(s);
    const FunctionalKernel plain(basis, z, psd, true, 1.3);
    const Mat Xs = X * s.asDiagonal(), Ys = Y * s.asDiagonal();
    EXPECT_LT((scaled.cross(X, Y) - plain.cross(Xs, Ys)).cwiseAbs().maxCoeff(), 1e-12 * plain.cross(Xs, Ys).cwiseAbs().maxCoeff());
    EXPECT_LT((scaled.diag(X) - plain.diag(Xs)).cwiseAbs().maxCoeff(), 1e-12);
    // Dimension 3 has scale 0: moving a point along it changes nothing.
    Mat X2 = X;
    X2.col(2).array() += 0.4;
    EXPECT_LT((scaled.cross(X2, Y) - scaled.cross(X, Y)).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST(KfoInputScales, ScaledAlphaClippedKernelIsPsdAndGradientsMatchFiniteDifferences) {
  const FunctionalBasis basis = make_basis(2);
  Rng rng = make_rng(12);
  const Vec s = (Vec(2) << 1.9, 0.4).finished();
  const Mat X = rand_points(rng, 30, 2);
  for (int trial = 0; trial < 5; ++trial) {
    FunctionalKernel k(basis, basis.sample_direction(rng), FunctionalPsd::AlphaClip, true, 0.8);
    k.set_input_scales(s);
    Eigen::SelfAdjointEigenSolver<Mat> es(k.gram(X));
    EXPECT_GE(es.eigenvalues().minCoeff(), -1e-9 * std::max(1.0, es.eigenvalues().cwiseAbs().maxCoeff()));
    const Vec x = rand_points(rng, 1, 2).row(0).transpose();
    const Mat G = k.cross_grad_x(x, X.topRows(6));
    const double h = 1e-6;
    for (int d = 0; d < 2; ++d) {
      Vec xp = x, xm = x;
      xp(d) += h;
      xm(d) -= h;
      const Mat fd = (k.cross(xp.transpose(), X.topRows(6)) - k.cross(xm.transpose(), X.topRows(6))) / (2 * h);
      for (int j = 0; j < 6; ++j) EXPECT_NEAR(G(d, j), fd(0, j), 1e-5 * std::max(1.0, G.cwiseAbs().maxCoeff()));
    }
  }
  FunctionalKernel k(basis, Vec::Ones(basis.components()));
  EXPECT_THROW(k.set_input_scales((Vec(2) << 1.0, -1.0).finished()), InputError);
  k.set_input_scales((Vec(3) << 1.0, 1.0, 1.0).finished());
  EXPECT_THROW(k.cross(X, X), InputError);  // 2 columns, 3 scales
}

TEST(KfoInputScales, ArdScalesRankARelevantInputAboveIrrelevantOnes) {
  // y depends on x0 only; x1 and x2 are noise. The normalised scales have ||s|| = √D and s0 dominates.
  Rng rng = make_rng(21);
  const Mat X = rand_points(rng, 80, 3);
  Vec y(80);
  for (int i = 0; i < 80; ++i) y(i) = std::sin(6.0 * X(i, 0));
  const Vec s = ard_scales_regression(X, y, 1, 3);
  ASSERT_EQ(s.size(), 3);
  EXPECT_NEAR(s.norm(), std::sqrt(3.0), 1e-12);
  EXPECT_GT(s(0), 3.0 * s(1));
  EXPECT_GT(s(0), 3.0 * s(2));
  // Classification: class = [x1 > 0.5]; one-vs-rest fits must rank x1 first (3 classes: x1 split in thirds).
  Labels two(80), three(80);
  for (int i = 0; i < 80; ++i) {
    two[i] = X(i, 1) > 0.5;
    three[i] = X(i, 1) < 1.0 / 3 ? 0 : (X(i, 1) < 2.0 / 3 ? 1 : 2);
  }
  for (const Labels& lab : {two, three}) {
    const Vec c = ard_scales_classification(X, lab, 1, 3);
    EXPECT_NEAR(c.norm(), std::sqrt(3.0), 1e-12);
    EXPECT_GT(c(1), 2.0 * c(0));
    EXPECT_GT(c(1), 2.0 * c(2));
  }
  // Equal inverse lengthscales give s = 1: the paper's isotropic functional.
  EXPECT_LT((normalised_scales(Vec::Constant(4, 7.0)) - Vec::Ones(4)).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(parse_input_scaling("ard"), InputScalingMode::Ard);
  EXPECT_EQ(parse_input_scaling("none"), InputScalingMode::None);
  EXPECT_THROW(parse_input_scaling("ARD!"), InputError);
}

TEST(KfoInputScales, LearnedGpKernelUsesTheScalesOfTheArdFit) {
  // learn_gp_kernel with the default options carries the ARD scales into the learned kernel; with "none" it is
  // the paper's isotropic functional.
  Rng rng = make_rng(5);
  const Mat X = rand_points(rng, 40, 2);
  Vec y(40);
  for (int i = 0; i < 40; ++i) y(i) = std::sin(5.0 * X(i, 1));
  ExperimentOptions o;
  o.tune_hyperkernel = false;
  o.basis.hyper = {0.5, 0.7};
  o.search.subspaces = 1;
  o.search.iterations = 1;
  o.search.n_init_per_subspace = 2;
  const LearnedKernel lk = learn_gp_kernel(X, y, o, nullptr, 1e-2);
  ASSERT_EQ(lk.input_scales.size(), 2);
  EXPECT_GT(lk.input_scales(1), lk.input_scales(0));
  const KernelPtr k = make_functional_kernel(lk, o, nullptr);
  const auto& f = dynamic_cast<const FunctionalKernel&>(*k);
  EXPECT_TRUE(f.input_scales() == lk.input_scales);
  o.input_scaling = InputScalingMode::None;
  EXPECT_EQ(learn_gp_kernel(X, y, o, nullptr, 1e-2).input_scales.size(), 0);
}
