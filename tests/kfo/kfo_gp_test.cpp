// KFO with the GP log marginal likelihood objective on a small synthetic task (triangular wave,
// docs/papers.md#kfo-synthetic-functions).
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/kfo/experiment.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {
void triangular(int n, Mat& X, Vec& y) {
  X.resize(n, 1);
  y.resize(n);
  for (int i = 0; i < n; ++i) {
    const double x = 10.0 * i / (n - 1);
    X(i, 0) = x / 10.0;
    y(i) = 2.0 * std::asin(std::sin(M_PI * x)) / M_PI;
  }
}
}  // namespace

TEST(KfoGp, LearnedKernelIsAtLeastAsLikelyAsTheBaselineItStartsFrom) {
  Mat X;
  Vec y;
  triangular(40, X, y);
  double best = -1e300;
  std::unique_ptr<GP> best_gp;
  for (const char* name : {"rbf", "matern32"}) {
    GP gp = fit_gp(make_gp_baseline(name, 1), X, y, 2, 1);
    if (gp.log_marginal_likelihood() > best) {
      best = gp.log_marginal_likelihood();
      best_gp = std::make_unique<GP>(gp);
    }
  }
  ExperimentOptions o;
  o.tune_hyperkernel = false;
  o.basis.hyper = {0.5, 0.3};
  o.search.subspaces = 2;
  o.search.iterations = 4;
  o.search.n_init_per_subspace = 2;
  o.seed = 5;
  const KernelPtr base = best_gp->kernel().clone();
  const LearnedKernel lk = learn_gp_kernel(X, y, o, base.get(), best_gp->noise_variance());
  ASSERT_EQ(lk.search.subspace.front(), -1);  // the search evaluated its starting point (the baseline)
  EXPECT_GE(lk.search.y.front(), best - 1e-6);
  EXPECT_GE(lk.train_score, lk.search.y.front());
  // Re-fit the learned kernel independently and compare with the baseline's log-likelihood.
  GP gp = fit_gp(make_functional_kernel(lk, o, base.get()), X, y, 1, 2);
  EXPECT_GE(gp.log_marginal_likelihood(), best - 1e-6);
  const auto pred = gp.predict(X);
  EXPECT_TRUE(pred.mean.allFinite());
}

TEST(KfoGp, TestNllClosedForm) {
  // A GP with one noise-free training point far away predicts the prior: μ = mean, σ² = s² + noise.
  Mat X(2, 1);
  X << 0.0, 0.001;
  Vec y(2);
  y << 1.0, 1.0;
  GP gp(make_gp_baseline("rbf", 1), 0.5, false, false);
  gp.set_data(X, y);
  Mat Xs(1, 1);
  Xs << 1e6;
  Vec ys(1);
  ys << 2.0;
  const auto p = gp.predict(Xs);
  const double v = p.variance(0) + 0.5;
  EXPECT_NEAR(test_nll(gp, Xs, ys), 0.5 * std::log(2 * M_PI * v) + (2.0 - p.mean(0)) * (2.0 - p.mean(0)) / (2 * v), 1e-12);
  EXPECT_NEAR(p.mean(0), 0.0, 1e-12);
}
