// The cross-validated choice between the learned kernel and the RBF baseline (kbo/kfo/validate.hpp): the
// closed-form k-fold predictive NLL against GPs refitted by brute force on the other folds, the fold
// assignment's invariants, and run_regression / run_classification reporting what the choice says.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "kbo/core/error.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/validate.hpp"
#include "kbo/model/kernels/matern.hpp"
#include "kfo_test_data.hpp"

using namespace kbo;
using namespace kbo::kfo;
using kbo::kfo::test::rand_points;

TEST(KfoValidate, FoldsCoverEveryRowWithSizesWithinOne) {
  const std::vector<int> f = kfold_assignment(23, 5, 7);
  ASSERT_EQ(f.size(), 23u);
  std::vector<int> count(5, 0);
  for (int v : f) {
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 5);
    ++count[v];
  }
  for (int c : count) EXPECT_TRUE(c == 4 || c == 5) << c;
  EXPECT_EQ(f, kfold_assignment(23, 5, 7));  // seeded
  EXPECT_NE(f, kfold_assignment(23, 5, 8));
  EXPECT_THROW(kfold_assignment(3, 5, 0), InputError);
  EXPECT_THROW(kfold_assignment(10, 1, 0), InputError);
}

TEST(KfoValidate, ClosedFormFoldNllEqualsGpsConditionedOnTheOtherFolds) {
  // Independent truth: for each fold, a GP with the same kernel, noise and target standardisation built from
  // the other folds only (normalize off, the full GP's standardised targets), predicting the held-out rows.
  Rng rng = make_rng(3);
  const Mat X = rand_points(rng, 30, 2);
  Vec y(30);
  for (int i = 0; i < 30; ++i) y(i) = 40.0 + 7.0 * std::sin(4.0 * X(i, 0)) * X(i, 1) + 0.3 * std::cos(9.0 * i);
  GP gp = fit_gp(make_gp_baseline("rbf", 2), X, y, 1, 1);
  const std::vector<int> fold = kfold_assignment(30, 4, 11);
  const Vec closed = kfold_predictive_nll_points(gp, fold);
  const double s = gp.y_scale();
  for (int f = 0; f < 4; ++f) {
    std::vector<int> in, out;
    for (int i = 0; i < 30; ++i) (fold[i] == f ? out : in).push_back(i);
    Mat Xin(in.size(), 2), Xout(out.size(), 2);
    Vec yin(in.size());
    for (size_t k = 0; k < in.size(); ++k) Xin.row(k) = X.row(in[k]), yin[k] = gp.targets()[in[k]];
    for (size_t k = 0; k < out.size(); ++k) Xout.row(k) = X.row(out[k]);
    GP sub(gp.kernel().clone(), gp.noise_variance(), false, false);
    sub.set_data(Xin, yin);
    const GP::Prediction p = sub.predict(Xout);
    for (size_t k = 0; k < out.size(); ++k) {
      const double v = (p.variance[k] + gp.noise_variance()) * s * s;
      const double r = (gp.targets()[out[k]] - p.mean[k]) * s;
      const double nll = 0.5 * std::log(2.0 * M_PI * v) + r * r / (2.0 * v);
      EXPECT_NEAR(closed[out[k]], nll, 1e-7 * (1.0 + std::abs(nll))) << "row " << out[k];
    }
  }
}

TEST(KfoValidate, KeepsTheLearnedKernelOnlyWhenItValidatesStrictlyBetter) {
  EXPECT_EQ(keep_learned_or_baseline(1.0, 2.0, true), "kfo");
  EXPECT_EQ(keep_learned_or_baseline(2.0, 2.0, true), "rbf");  // a tie keeps the baseline
  EXPECT_EQ(keep_learned_or_baseline(3.0, 2.0, true), "rbf");
  EXPECT_EQ(keep_learned_or_baseline(0.9, 0.8, false), "kfo");
  EXPECT_EQ(keep_learned_or_baseline(0.8, 0.8, false), "rbf");
  EXPECT_EQ(keep_learned_or_baseline(std::nan(""), 0.8, false), "rbf");
}

namespace {
ExperimentOptions small_budget() {
  ExperimentOptions o;
  o.tune_hyperkernel = false;
  o.basis.hyper = {0.5, 0.5};
  o.search.subspaces = 1;
  o.search.iterations = 2;
  o.search.n_init_per_subspace = 2;
  o.gp_fit_restarts = 1;
  o.seed = 4;
  return o;
}
const MethodResult& row(const std::vector<MethodResult>& rs, const std::string& name) {
  for (const auto& r : rs)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}
}  // namespace

TEST(KfoValidate, RegressionRowIsTheKernelTheCrossValidationChose) {
  Rng rng = make_rng(9);
  const Mat X = rand_points(rng, 60, 2);
  Vec y(60);
  for (int i = 0; i < 60; ++i) y(i) = std::sin(3.0 * X(i, 0)) + X(i, 1) * X(i, 1) + 0.05 * std::sin(17.0 * i);
  const auto rs = run_regression(X.topRows(48), y.head(48), X.bottomRows(12), y.tail(12), small_budget(), {"rbf", "kfo"});
  const MethodResult &kfo = row(rs, "kfo"), &learned = row(rs, "kfo_learned"), &rbf = row(rs, "rbf");
  // The scores the choice compared, recomputed from the fitted GPs on the same folds.
  const std::vector<int> fold = kfold_assignment(48, 5, 4 + 505);
  EXPECT_NEAR(kfo.validated_kfo, kfold_predictive_nll_points(*learned.gp, fold).sum(), 1e-9);
  EXPECT_NEAR(kfo.validated_rbf, kfold_predictive_nll_points(*rbf.gp, fold).sum(), 1e-9);
  EXPECT_EQ(kfo.selected, kfo.validated_kfo < kfo.validated_rbf ? "kfo" : "rbf");
  EXPECT_DOUBLE_EQ(kfo.test_metric, (kfo.selected == "kfo" ? learned : rbf).test_metric);
  // Without the fallback the kfo row is the learned kernel's.
  ExperimentOptions o = small_budget();
  o.fallback_to_rbf = false;
  const auto plain = run_regression(X.topRows(48), y.head(48), X.bottomRows(12), y.tail(12), o, {"kfo"});
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_DOUBLE_EQ(plain[0].test_metric, learned.test_metric);
}

TEST(KfoValidate, ClassificationRowIsTheKernelTheCrossValidationChose) {
  Rng rng = make_rng(10);
  const Mat X = rand_points(rng, 80, 2);
  Labels y(80);
  for (int i = 0; i < 80; ++i) y[i] = X(i, 0) + 0.3 * std::sin(6.0 * X(i, 1)) > 0.6 ? 1 : 0;
  const Labels ytr(y.begin(), y.begin() + 64), yte(y.begin() + 64, y.end());
  const auto rs = run_classification(X.topRows(64), ytr, X.bottomRows(16), yte, small_budget(), {"rbf_svm", "kfo"});
  const MethodResult &kfo = row(rs, "kfo"), &learned = row(rs, "kfo_learned"), &svm = row(rs, "rbf_svm");
  EXPECT_DOUBLE_EQ(kfo.validated_rbf, svm.train_score);      // RBF-SVM's CV accuracy on the same folds
  EXPECT_DOUBLE_EQ(kfo.validated_kfo, learned.train_score);  // the learned kernel's
  EXPECT_EQ(kfo.selected, kfo.validated_kfo > kfo.validated_rbf ? "kfo" : "rbf");
  EXPECT_DOUBLE_EQ(kfo.test_metric, (kfo.selected == "kfo" ? learned : svm).test_metric);
}
