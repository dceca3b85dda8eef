// The spectrum flip for GPs (SpectrumFlipKernel): |eigenvalues| on the training Gram, the same test transform as
// the SVM's (ϑc), consistency at training points, PSD, gradients, and use inside kbo::GP / run_regression.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kfo_test_data.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/flip_kernel.hpp"
#include "kbo/kfo/psd.hpp"
#include "kbo/core/random.hpp"

using namespace kbo;
using namespace kbo::kfo;
using namespace kbo::kfo::test;

namespace {

/// An indefinite functional kernel (random z, no α-clipping) and points on which its Gram has clearly negative
/// eigenvalues.
struct Indefinite {
  std::unique_ptr<FunctionalKernel> k;
  Mat X;
};
Indefinite make_indefinite(int n, int dim, std::uint64_t seed) {
  BasisOptions o;
  o.hyper = {0.7, 0.6};
  const FunctionalBasis basis(dim, o);
  Rng rng = make_rng(seed);
  const Mat X = rand_points(rng, n, dim);
  for (int trial = 0; trial < 50; ++trial) {
    auto k = std::make_unique<FunctionalKernel>(basis, basis.sample_direction(rng), FunctionalPsd::None, false);
    if (!(k->profile(0.0) > 0.0)) continue;  // no prior variance: the flip rejects it (see NegativeVariance…)
    const Vec ev = symmetric_eigen(k->gram(X)).values;
    if (ev.minCoeff() < -1e-3 * ev.cwiseAbs().maxCoeff()) return {std::move(k), X};
  }
  ADD_FAILURE() << "no indefinite functional found";
  return {};
}
}  // namespace

TEST(KfoFlip, TrainingGramHasAbsoluteEigenvaluesAndIsPsd) {
  Indefinite d = make_indefinite(30, 2, 3);
  ASSERT_TRUE(d.k);
  const Vec ev = symmetric_eigen(d.k->gram(d.X)).values;
  const SpectrumFlipKernel flip(d.k->clone(), d.X, 1.0, true, 0.0);
  ASSERT_GT(flip.flipped_eigenvalues(), 0);
  const Mat F = flip.gram(d.X);
  EXPECT_LT((F - F.transpose()).cwiseAbs().maxCoeff(), 1e-10);
  std::vector<double> abs_ev(ev.data(), ev.data() + ev.size()), got;
  for (double& v : abs_ev) v = std::abs(v);
  std::sort(abs_ev.begin(), abs_ev.end());
  const Vec fev = symmetric_eigen(F).values;
  got.assign(fev.data(), fev.data() + fev.size());
  const double scale = abs_ev.back();
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], abs_ev[i], 1e-9 * scale) << i;
  EXPECT_GE(fev.minCoeff(), -1e-10 * scale);
  // Independent truth: Z |Λ| Zᵀ, i.e. SpectralTransform with the flip.
  const SpectralTransform T(d.k->gram(d.X), SpectrumFix::Flip);
  EXPECT_LT((F - T.train()).cwiseAbs().maxCoeff(), 1e-9 * scale);
}

TEST(KfoFlip, TestRowsAreTheSvmTransformAndTrainingPointsAreConsistent) {
  Indefinite d = make_indefinite(25, 3, 11);
  ASSERT_TRUE(d.k);
  Rng rng = make_rng(4);
  const Mat Xte = rand_points(rng, 7, 3);
  const SpectrumFlipKernel flip(d.k->clone(), d.X, 1.0, true, 0.0);
  const SpectralTransform T(d.k->gram(d.X), SpectrumFix::Flip);
  const double scale = T.eigenvalues().cwiseAbs().maxCoeff();
  EXPECT_LT((flip.cross(Xte, d.X) - T.test(d.k->cross(Xte, d.X))).cwiseAbs().maxCoeff(), 1e-9 * scale);
  // A test point equal to training point j gets row j of the flipped training Gram, diagonal included.
  const Mat F = flip.gram(d.X);
  for (int j : {0, 9, 24}) {
    const Mat xj = d.X.row(j);
    EXPECT_LT((flip.cross(xj, d.X) - F.row(j)).cwiseAbs().maxCoeff(), 1e-9 * scale);
    EXPECT_NEAR(flip.diag(xj)(0), F(j, j), 1e-9 * scale);
  }
  // diag() agrees with the diagonal of cross() on new points.
  const Vec dg = flip.diag(Xte);
  const Mat C = flip.cross(Xte, Xte);
  for (int i = 0; i < Xte.rows(); ++i) EXPECT_NEAR(dg(i), C(i, i), 1e-9 * scale);
}

TEST(KfoFlip, VarianceScalesAndGradientsMatchFiniteDifferences) {
  Indefinite d = make_indefinite(20, 2, 5);
  ASSERT_TRUE(d.k);
  const SpectrumFlipKernel f1(d.k->clone(), d.X, 1.0);
  SpectrumFlipKernel f2(d.k->clone(), d.X, 2.5);
  EXPECT_LT((f2.gram(d.X) - 2.5 * f1.gram(d.X)).cwiseAbs().maxCoeff(), 1e-9 * f2.gram(d.X).cwiseAbs().maxCoeff());
  const auto G = f2.gram_gradients(d.X);
  ASSERT_EQ(G.size(), 1u);
  EXPECT_LT((G[0] - f2.gram(d.X)).cwiseAbs().maxCoeff(), 1e-12 * G[0].cwiseAbs().maxCoeff());

  Rng rng = make_rng(8);
  const Vec x = rand_points(rng, 1, 2).row(0).transpose();
  const Mat Y = rand_points(rng, 4, 2);
  const Mat Gx = f2.cross_grad_x(x, Y);
  const Vec gd = f2.diag_grad_x(x);
  const double h = 1e-6;
  for (int a = 0; a < 2; ++a) {
    Vec xp = x, xm = x;
    xp(a) += h;
    xm(a) -= h;
    const Mat fd = (f2.cross(xp.transpose(), Y) - f2.cross(xm.transpose(), Y)) / (2 * h);
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(Gx(a, j), fd(0, j), 1e-5 * std::max(1.0, std::abs(fd(0, j))));
    const double fdd = (f2.diag(xp.transpose())(0) - f2.diag(xm.transpose())(0)) / (2 * h);
    EXPECT_NEAR(gd(a), fdd, 1e-5 * std::max(1.0, std::abs(fdd)));
  }
}

TEST(KfoFlip, GpConditionsOnItsTrainingInputs) {
  Indefinite d = make_indefinite(30, 2, 3);
  ASSERT_TRUE(d.k);
  Vec y(d.X.rows());
  for (int i = 0; i < d.X.rows(); ++i) y(i) = std::sin(4 * d.X(i, 0)) + d.X(i, 1);
  GP gp(std::make_unique<SpectrumFlipKernel>(d.k->clone()), 1e-2, true, true);
  gp.set_data(d.X, y);  // the GP hands its inputs to condition_on
  const auto& k = dynamic_cast<const SpectrumFlipKernel&>(gp.kernel());
  ASSERT_EQ(k.reference().rows(), d.X.rows());
  EXPECT_GT(k.flipped_eigenvalues(), 0);
  EXPECT_GE(symmetric_eigen(k.gram(d.X)).values.minCoeff(), -1e-9 * k.gram(d.X).cwiseAbs().maxCoeff());
  const auto p = gp.predict(d.X);
  EXPECT_TRUE(p.mean.allFinite());
}

TEST(KfoFlip, RegressionWithTheFlipOption) {
  Rng rng = make_rng(2);
  const Mat X = rand_points(rng, 50, 2);
  Vec y(50);
  for (int i = 0; i < 50; ++i) y(i) = std::sin(5 * X(i, 0)) * X(i, 1);
  ExperimentOptions o;
  o.tune_hyperkernel = false;
  o.basis.hyper = {0.5, 0.5};
  o.search.subspaces = 1;
  o.search.iterations = 2;
  o.search.n_init_per_subspace = 2;
  o.gp_fit_restarts = 1;
  o.gp_psd = GpPsdFix::Flip;
  o.fallback_to_rbf = false;  // this test is about the learned kernel itself
  const auto res = run_regression(X.topRows(40), y.head(40), X.bottomRows(10), y.tail(10), o, {"kfo"});
  ASSERT_EQ(res.size(), 1u);
  ASSERT_TRUE(res[0].gp);
  EXPECT_NE(dynamic_cast<const SpectrumFlipKernel*>(&res[0].gp->kernel()), nullptr);
  EXPECT_EQ(res[0].learned->psd(), FunctionalPsd::None);  // the flip replaces α-clipping
  EXPECT_TRUE(std::isfinite(res[0].test_metric));
  EXPECT_EQ(parse_gp_psd("flip"), GpPsdFix::Flip);
  EXPECT_EQ(parse_gp_psd("alpha-clip"), GpPsdFix::AlphaClip);
  EXPECT_THROW(parse_gp_psd("clip"), InputError);
}

TEST(KfoFlip, NegativePriorVarianceIsRejectedNotFlipped) {
  // Independent truth: a functional whose k(x, x) is negative is no covariance; negating the weights of a
  // valid one gives −K exactly (negative definite where K is PSD), which the flip would silently turn into
  // a PSD Gram on the training points. The flip kernel must refuse it with a NumericalError (the KFO search
  // scores that as a failed fit), also when the GP conditions it, and accept the original.
  BasisOptions o;
  o.hyper = {0.7, 0.6};
  const FunctionalBasis basis(2, o);
  Rng rng = make_rng(5);
  const Mat X = rand_points(rng, 20, 2);
  Vec z = basis.sample_direction(rng);
  auto positive = std::make_unique<FunctionalKernel>(basis, z, FunctionalPsd::AlphaClip, false);
  ASSERT_GT(positive->profile(0.0), 0.0);
  // With α-clipping off and z negated the functional is −(the unclipped one); pick the sign that makes k(x, x) < 0.
  auto negative = std::make_unique<FunctionalKernel>(basis, -z, FunctionalPsd::None, false);
  if (negative->profile(0.0) > 0.0) negative = std::make_unique<FunctionalKernel>(basis, z, FunctionalPsd::None, false);
  ASSERT_LT(negative->profile(0.0), 0.0);
  EXPECT_NO_THROW(SpectrumFlipKernel(positive->clone(), X, 1.0));
  EXPECT_THROW(SpectrumFlipKernel(negative->clone(), X, 1.0), NumericalError);
  GP gp(std::make_unique<SpectrumFlipKernel>(negative->clone(), Mat(), 1.0), 1e-2, true, true);
  EXPECT_THROW(gp.set_data(X, Vec::LinSpaced(20, 0.0, 1.0)), NumericalError);
}
