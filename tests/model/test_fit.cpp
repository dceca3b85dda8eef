// The multi-start hyperparameter fitter (kbo/model/fit.hpp): a known optimum from several starts, bounds and
// masks, best-of, batches equal single fits, and GP::fit on top of it.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/random.hpp"
#include "kbo/model/fit.hpp"
#include "kbo/model/kernels/stationary.hpp"

using namespace kbo;

namespace {
// Four well-separated points and raw targets; RBF with lengthscale 1 and a negligible fixed noise.
struct Tiny {
  Mat X;
  Vec y;
  Tiny() : X(4, 1), y(4) {
    X << 0.0, 1.0, 2.5, 4.0;
    y << 1.0, -0.5, 2.0, 0.3;
  }
  GP gp(double variance = 1.0) const {
    GP g(make_stationary("rbf", 1, false, 1.0, variance), 1e-10, /*normalize=*/false, /*learn_noise=*/false);
    g.set_data(X, y);
    return g;
  }
  // With ℓ and (≈ 0) noise fixed, the LML in σ² is maximised at σ²* = yᵀ K₁⁻¹ y / n (K₁: unit-variance Gram).
  double best_variance() const {
    const Mat K1 = make_stationary("rbf", 1, false, 1.0, 1.0)->gram(X);
    return y.dot(K1.ldlt().solve(y)) / static_cast<double>(y.size());
  }
};

HyperparameterFit variance_only(const GP& gp, const std::vector<double>& log_variances) {
  HyperparameterFit fit;
  const Vec theta = gp.hyperparameters();  // [log ℓ, log σ², log noise]
  for (double lv : log_variances) {
    Vec t = theta;
    t[1] = lv;
    fit.starts.push_back(t);
  }
  fit.lower = Vec::Constant(3, -30.0);  // wide enough for the fixed noise log(1e-10) ≈ −23
  fit.upper = Vec::Constant(3, 30.0);
  fit.mask = {false, true, false};
  return fit;
}
}  // namespace

TEST(FitHyperparameters, FindsTheKnownOptimumFromSeveralStarts) {
  const Tiny t;
  const GP gp = t.gp();
  const double target = std::log(t.best_variance());
  for (double start : {-6.0, -1.0, 0.0, 2.0, 8.0}) {
    const FitResult r = fit_hyperparameters(gp, variance_only(gp, {start}));
    EXPECT_NEAR(r.theta[1], target, 1e-3) << "start " << start;
    EXPECT_EQ(r.theta[0], gp.hyperparameters()[0]);  // masked entries keep their start value
    EXPECT_EQ(r.theta[2], gp.hyperparameters()[2]);
    EXPECT_NEAR(r.value, gp.log_marginal_likelihood_at(r.theta, nullptr), 1e-12);
  }
  // All starts in one call: one run each, the best of them returned.
  const FitResult all = fit_hyperparameters(gp, variance_only(gp, {-6.0, -1.0, 0.0, 2.0, 8.0}));
  ASSERT_EQ(all.run_values.size(), 5u);
  for (double v : all.run_values) EXPECT_LE(v, all.value);
  EXPECT_NEAR(all.theta[1], target, 1e-3);
  // The fitter does not change the GP.
  EXPECT_EQ(gp.hyperparameters()[1], 0.0);
}

TEST(FitHyperparameters, ClampsStartsAndRespectsBounds) {
  const Tiny t;
  const GP gp = t.gp();
  HyperparameterFit fit = variance_only(gp, {5.0});
  fit.upper[1] = std::log(t.best_variance()) - 1.0;  // the optimum is outside: the fit ends on the bound
  const FitResult r = fit_hyperparameters(gp, fit);
  EXPECT_DOUBLE_EQ(r.theta[1], fit.upper[1]);
}

TEST(FitHyperparameters, ScreeningPolishesOnlyTheBestStarts) {
  const Tiny t;
  const GP gp = t.gp();
  HyperparameterFit fit = variance_only(gp, {-15.0, 0.5, 15.0, -10.0});
  fit.polish = 1;
  const FitResult r = fit_hyperparameters(gp, fit);
  EXPECT_EQ(r.run_values.size(), 1u);
  EXPECT_NEAR(r.theta[1], std::log(t.best_variance()), 1e-3);
}

TEST(FitHyperparameters, BatchEqualsSingleFitsBitForBit) {
  Rng rng = make_rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Mat X(25, 2);
  for (Eigen::Index i = 0; i < X.size(); ++i) X(i) = u(rng);
  const Vec y = (4.0 * X.col(0)).array().sin().matrix() + X.col(1);
  GP a(make_stationary("matern52", 2, true), 0.01);
  GP b(make_stationary("matern32", 2, false), 0.01);
  a.set_data(X, y);
  b.set_data(X, y);
  HyperparameterFit fa, fb;
  a.default_bounds(fa.lower, fa.upper);
  b.default_bounds(fb.lower, fb.upper);
  fa.starts = {a.hyperparameters(), Vec::Constant(4, -1.0), Vec::Constant(4, 0.5)};
  fb.starts = {b.hyperparameters(), Vec::Constant(3, -2.0)};
  fa.map = fb.map = true;
  fa.priors = a.default_priors();
  fb.priors = b.default_priors();
  const auto batch = fit_hyperparameters({&a, &b}, {fa, fb});
  const FitResult ra = fit_hyperparameters(a, fa), rb = fit_hyperparameters(b, fb);
  EXPECT_EQ(batch[0].theta, ra.theta);
  EXPECT_EQ(batch[0].value, ra.value);
  EXPECT_EQ(batch[1].theta, rb.theta);
  EXPECT_EQ(batch[1].value, rb.value);
}

TEST(FitHyperparameters, GpFitIsTheFitterFromItsDefaults) {
  // GP::fit with no restarts = fit_hyperparameters from the current θ with the default bounds.
  Rng rng = make_rng(6);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Mat X(20, 1);
  for (Eigen::Index i = 0; i < X.size(); ++i) X(i) = u(rng);
  const Vec y = (6.0 * X.col(0)).array().sin().matrix();
  GP gp(make_stationary("rbf", 1, false), 0.1);
  gp.set_data(X, y);
  HyperparameterFit fit;
  gp.default_bounds(fit.lower, fit.upper);
  fit.starts = {gp.hyperparameters()};
  const FitResult r = fit_hyperparameters(gp, fit);
  FitOptions o;
  o.restarts = 0;
  const double value = gp.fit(o);
  EXPECT_EQ(value, r.value);
  EXPECT_EQ(gp.hyperparameters(), r.theta);
}

TEST(FitHyperparameters, BadInputIsRejected) {
  const Tiny t;
  const GP gp = t.gp();
  HyperparameterFit fit = variance_only(gp, {0.0});
  fit.lower = Vec::Constant(2, -1.0);
  EXPECT_THROW(fit_hyperparameters(gp, fit), InputError);
  fit = variance_only(gp, {});
  EXPECT_THROW(fit_hyperparameters(gp, fit), InputError);
  fit = variance_only(gp, {0.0});
  fit.mask = {true};
  EXPECT_THROW(fit_hyperparameters(gp, fit), InputError);
}
