// BOStrategy at large n (BOModelOptions::fit_subset, model, subset_*): θ fitted on a bounded random
// subset is the θ the model then uses on every row; the subset-of-data model conditions on the rows
// nearest the incumbent plus a spread of the others, reproduces its data, and is used exactly when the
// option (or the threshold) says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "support/test_data.hpp"

using namespace kbo;

namespace {

StrategyConfig config_with(const nlohmann::json& bo) {
  StrategyConfig c;
  c.seed = 11;
  c.n_init = 4;
  c.module_options = {{"bo", bo}};
  return c;
}

/// n points of Branin (negated: values to maximise), uniform in its box.
void branin_data(int n, std::uint64_t seed, Mat& X, Vec& y) {
  const Problem p = make_problem("branin", 0);
  Rng rng = make_rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  X.resize(n, 2);
  y.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 2; ++j) X(i, j) = p.bounds.lower(j) + u(rng) * (p.bounds.upper(j) - p.bounds.lower(j));
    y(i) = -p.f(X.row(i).transpose());
  }
}

std::vector<double> row_of(const Mat& X, Eigen::Index i) {
  std::vector<double> r(static_cast<std::size_t>(X.cols()));
  for (Eigen::Index j = 0; j < X.cols(); ++j) r[static_cast<std::size_t>(j)] = X(i, j);
  return r;
}

}  // namespace

TEST(LargeNModel, ThetaFittedOnTheSubsetIsUsedOnEveryRow) {
  // prior_mean "sample": the GP standardises its targets itself, so the subset's targets are the same
  // data as a strategy given only those rows sees (up to rounding of the affine scaling). No output warp:
  // a rank warp of all 80 values is not the warp of 30 of them.
  const nlohmann::json bo = {
      {"fit_subset", 30}, {"alt_kernel", "none"}, {"prior_mean", "sample"}, {"output_warp", "none"}};
  Mat X;
  Vec y;
  branin_data(80, 3, X, y);
  const Mat none(0, 2);
  BOStrategy subset(config_with(bo), test_support::branin_space());
  subset.suggest(X, y, none, 80);
  EXPECT_EQ(subset.last_info()["fit_rows"].get<int>(), 30);
  ASSERT_EQ(subset.model()->size(), 80);  // conditioned on every row

  // The truth: a strategy that is handed only the rows the subset fit used fits θ on all it sees.
  const std::vector<Eigen::Index> rows = subset.rows_fitted(80, 80);
  ASSERT_EQ(rows.size(), 30u);
  nlohmann::json all = bo;
  all["fit_subset"] = 0;
  BOStrategy direct(config_with(all), test_support::branin_space());
  direct.suggest(X(rows, Eigen::all), y(rows), none, 80);
  ASSERT_EQ(direct.model()->size(), 30);
  const Vec a = subset.model()->hyperparameters(), b = direct.model()->hyperparameters();
  EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-3) << a.transpose() << "\n" << b.transpose();

  // Not the θ of a fit on all 80 rows (otherwise the check above could not tell them apart).
  BOStrategy full(config_with(all), test_support::branin_space());
  full.suggest(X, y, none, 80);
  EXPECT_GT((full.model()->hyperparameters() - a).cwiseAbs().maxCoeff(), 1e-2);
}

TEST(LargeNModel, BelowTheFitSubsetEverythingIsAsBefore) {
  Mat X;
  Vec y;
  branin_data(40, 4, X, y);
  const Mat none(0, 2);
  BOStrategy capped(config_with({{"fit_subset", 40}}), test_support::branin_space());
  BOStrategy unlimited(config_with({{"fit_subset", 0}}), test_support::branin_space());
  const Vec u1 = capped.suggest(X, y, none, 40), u2 = unlimited.suggest(X, y, none, 40);
  EXPECT_EQ(u1, u2);
  EXPECT_EQ(capped.model()->hyperparameters(), unlimited.model()->hyperparameters());
  EXPECT_FALSE(capped.last_info().contains("fit_rows"));
}

TEST(LargeNModel, SubsetModelKeepsTheNearestRowsAndReproducesItsData) {
  // 1,600 observations: the forced subset model conditions on the 1,000 nearest the incumbent and 500 others.
  const nlohmann::json bo = {{"model", "subset"}, {"alt_kernel", "none"}};
  Mat X;
  Vec y;
  branin_data(1600, 5, X, y);
  const Mat none(0, 2);
  StrategyConfig c = config_with(bo);
  c.fit_restarts = 0;  // one fit run (on fit_subset rows) keeps the test quick
  BOStrategy s(c, test_support::branin_space());
  s.suggest(X, y, none, 1600);
  const GP& gp = *s.model();
  ASSERT_EQ(gp.size(), 1500);
  EXPECT_EQ(s.last_info()["model"]["kind"], "subset");

  // Brute force: the 1,000 rows nearest the best observation (unit-cube distance) are all in the model.
  const Mat U = s.unit_space().rows_to_unit(X);
  Eigen::Index best;
  y.maxCoeff(&best);
  std::vector<std::pair<double, Eigen::Index>> d;
  for (Eigen::Index i = 0; i < U.rows(); ++i) d.push_back({(U.row(i) - U.row(best)).squaredNorm(), i});
  std::sort(d.begin(), d.end());
  std::set<std::vector<double>> in_model;
  for (Eigen::Index i = 0; i < gp.X().rows(); ++i) in_model.insert(row_of(gp.X(), i));
  for (int k = 0; k < 1000; ++k) EXPECT_TRUE(in_model.count(row_of(U, d[static_cast<std::size_t>(k)].second))) << k;

  // Its predictions at its own rows reproduce the data it conditions on (Branin is smooth: small noise).
  const GP::Prediction p = gp.predict(gp.X());
  const double range = gp.y().maxCoeff() - gp.y().minCoeff();
  EXPECT_LT((p.mean - gp.y()).cwiseAbs().maxCoeff(), 0.02 * range);
}

TEST(LargeNModel, TheOptionIsHonouredEitherWay) {
  Mat X;
  Vec y;
  branin_data(60, 6, X, y);
  const Mat none(0, 2);
  auto model = [&](const std::string& kind, int n) {
    BOStrategy s(config_with({{"model", kind}, {"alt_kernel", "none"}}), test_support::branin_space());
    s.suggest(X.topRows(n), y.head(n), none, n);
    return std::make_pair(s.model()->size(), s.last_info().contains("model"));
  };
  EXPECT_EQ(model("auto", 60), std::make_pair(60, false));   // exact up to 2,000 observations
  EXPECT_EQ(model("exact", 60), std::make_pair(60, false));
  EXPECT_EQ(model("subset", 45), std::make_pair(45, true));  // below 1,500 rows: every row
  EXPECT_THROW(BOModelOptions::from_json({{"model", "sparse"}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"fit_subset", 5}}), InputError);
}
