// Fantasies for pending trials (kbo/fantasy.hpp) and batch suggestions through every strategy:
// Q successive suggestions with the earlier ones pending are distinct, inside the space and canonical;
// the kriging believer keeps the posterior mean and shrinks the variance; liar values are the
// worst/mean/best observation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"

using namespace kbo;

namespace {

/// A fitted GP on 12 points of a smooth 2-d function (unit square).
GP fitted_gp() {
  Rng rng = make_rng(7);
  BoxSpace box(Box::unit(2));
  const Mat X = box.sample(12, SamplingMethod::Sobol, rng);
  Vec y(12);
  for (int i = 0; i < 12; ++i) y[i] = std::sin(5.0 * X(i, 0)) + std::cos(3.0 * X(i, 1)) + 2.0;
  GP gp(make_stationary("matern52", 2, true, 0.3, 1.0), 1e-4, true, true);
  gp.set_data(X, y);
  return gp;
}

Mat pending_points() { return Mat{{0.13, 0.71}, {0.88, 0.42}, {0.5, 0.05}}; }

/// Q successive suggestions, each with all earlier ones of the batch pending (what Q parallel workers
/// asking one after the other get). History: `n_done` evaluations of f.
Mat batch(Strategy& s, const Space& space, const std::function<double(const Vec&)>& f, int n_done, int q) {
  Mat X(0, space.dim());
  Vec y(0);
  for (int i = 0; i < n_done; ++i) {
    const Vec x = s.suggest(X, y, Mat(0, space.dim()), i);
    X.conservativeResize(X.rows() + 1, Eigen::NoChange);
    X.row(X.rows() - 1) = x.transpose();
    y.conservativeResize(y.size() + 1);
    y[y.size() - 1] = f(x);
  }
  Mat P(0, space.dim());
  for (int k = 0; k < q; ++k) {
    const Vec x = s.suggest(X, y, P, n_done + k);
    P.conservativeResize(P.rows() + 1, Eigen::NoChange);
    P.row(P.rows() - 1) = x.transpose();
  }
  return P;
}

double min_pairwise_distance(const Mat& P) {
  double d = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < P.rows(); ++i)
    for (Eigen::Index j = 0; j < i; ++j) d = std::min(d, (P.row(i) - P.row(j)).norm());
  return d;
}

void expect_distinct_inside(const Mat& P, const Box& box, double min_distance = 1e-6) {
  for (Eigen::Index i = 0; i < P.rows(); ++i) EXPECT_TRUE(box.contains(P.row(i).transpose())) << "row " << i;
  EXPECT_GT(min_pairwise_distance(P), min_distance);
}

}  // namespace

TEST(Fantasy, ParsesEveryModeAndRejectsOthers) {
  for (const char* m : {"kriging_believer", "constant_liar_worst", "constant_liar_mean", "constant_liar_best", "none"})
    EXPECT_EQ(to_string(parse_fantasy_mode(m)), m);
  try {
    parse_fantasy_mode("believer");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("constant_liar_worst"), std::string::npos) << e.what();
  }
  // The typed config cannot hold an unknown mode: the stored/JSON form is rejected where it is read.
  EXPECT_THROW(strategy_config_from_json({{"fantasy", "liar"}}), InputError);
  EXPECT_THROW(strategy_config_from_json({{"strategy", "agpucb"}, {"fantasy", "liar"}}), InputError);
}

TEST(Fantasy, KrigingBelieverKeepsTheMeanAndShrinksTheVariance) {
  const GP gp = fitted_gp();
  const Mat P = pending_points();
  const GP f = condition_on_pending(gp, P, FantasyMode::KrigingBeliever);
  EXPECT_EQ(f.size(), gp.size() + 3);
  EXPECT_EQ(f.hyperparameters(), gp.hyperparameters());  // no refit
  const auto before = gp.predict(P), after = f.predict(P);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(after.mean[i], before.mean[i], 1e-8 * (1.0 + std::abs(before.mean[i])));
    // Observed with noise σ² (standardised 1e-4): the latent variance drops to about σ², far below before.
    EXPECT_LT(after.variance[i], 0.05 * before.variance[i]) << "pending point " << i;
  }
  // The mean is unchanged everywhere (an observation at its own prediction carries no surprise), and
  // the variance never grows.
  Rng rng = make_rng(3);
  const Mat T = BoxSpace(Box::unit(2)).sample(50, SamplingMethod::Uniform, rng);
  const auto b = gp.predict(T), a = f.predict(T);
  for (int i = 0; i < 50; ++i) {
    EXPECT_NEAR(a.mean[i], b.mean[i], 1e-7 * (1.0 + std::abs(b.mean[i])));
    EXPECT_LE(a.variance[i], b.variance[i] + 1e-12);
  }
}

TEST(Fantasy, ConstantLiarValuesAreWorstMeanBestObservation) {
  const GP gp = fitted_gp();
  const Mat P = pending_points();
  const Vec& y = gp.y();
  const struct {
    FantasyMode mode;
    double value;
  } cases[] = {{FantasyMode::LiarWorst, y.minCoeff()}, {FantasyMode::LiarMean, y.mean()}, {FantasyMode::LiarBest, y.maxCoeff()}};
  for (const auto& c : cases) {
    const GP f = condition_on_pending(gp, P, c.mode);
    ASSERT_EQ(f.size(), gp.size() + 3);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(f.y()[gp.size() + i], c.value) << to_string(c.mode);
      EXPECT_EQ(f.X().row(gp.size() + i), P.row(i));
    }
    // Same model as a GP given the lies as data with the same θ (the factor extension is exact).
    Mat X2(gp.size() + 3, 2);
    X2 << gp.X(), P;
    Vec y2(gp.size() + 3);
    y2 << y, Vec::Constant(3, c.value);
    GP ref(make_stationary("matern52", 2, true, 0.3, 1.0), 1e-4, true, true);
    ref.set_data(X2, y2);
    ref.set_hyperparameters(gp.hyperparameters());
    // ref re-standardises y (new mean/std); compare predictions in original units, which differ only
    // through the prior mean (mean of the data): use the standardisation-free quantity, the variance.
    const auto pf = f.predict(P), pr = ref.predict(P);
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(pf.variance[i] / (f.y_scale() * f.y_scale()), pr.variance[i] / (ref.y_scale() * ref.y_scale()), 1e-8);
  }
  EXPECT_EQ(condition_on_pending(gp, P, FantasyMode::None).size(), gp.size());
  EXPECT_EQ(fantasy_values(gp, P, FantasyMode::None).size(), 0);
}

TEST(Fantasy, BatchOfSuccessiveSuggestionsIsDistinctForEveryMode) {
  const Problem p = make_problem("branin", 2);
  auto space = std::make_shared<BoxSpace>(p.bounds);
  for (const char* mode : {"kriging_believer", "constant_liar_worst", "constant_liar_mean", "constant_liar_best", "none"}) {
    StrategyConfig c;
    c.seed = 5;
    c.fantasy = parse_fantasy_mode(mode);
    c.module_options["bo"] = {{"noise", "free"}};  // the model these expectations were measured with
    auto s = make_strategy(c, space);
    const Mat P = batch(*s, *space, p.f, 8, 6);
    SCOPED_TRACE(mode);
    const bool none = std::string(mode) == "none";
    // Without fantasies the batch is only guaranteed not to repeat a point exactly (the 1e-9 repeat rule):
    // the acquisition's maximiser barely moves, which is what fantasies are for.
    expect_distinct_inside(P, p.bounds, none ? 0.0 : 1e-3);
    if (none) { EXPECT_LT(min_pairwise_distance(P), 1e-3); }
    EXPECT_EQ(s->last_info().value("n_fantasies", -1), none ? 0 : 5);
  }
}

TEST(Fantasy, KrigingBelieverSpreadsABatchMoreThanIgnoringPendingPoints) {
  // With pending points ignored, UCB's maximiser is the same point every time (then replaced by a random
  // point); with fantasies the maximiser moves away from the pending points: the batch's smallest pairwise
  // distance is then well above the 1e-9 repeat tolerance, and no suggestion was replaced.
  const Problem p = make_problem("hartmann6", 6);
  auto space = std::make_shared<BoxSpace>(p.bounds);
  StrategyConfig c;
  c.seed = 11;
  auto s = make_strategy(c, space);
  const Mat P = batch(*s, *space, p.f, 12, 4);
  expect_distinct_inside(P, p.bounds);
  EXPECT_FALSE(s->last_info().contains("repeat_replaced_by_random"));
  EXPECT_GT(min_pairwise_distance(P), 1e-3);
}

TEST(Fantasy, SetSpaceBatchIsCanonicalAndDistinct) {
  auto space = std::make_shared<SetSpace>(3, Box::unit(2));
  auto f = [](const Vec& x) {  // permutation-invariant: sum over elements
    double v = 0;
    for (int e = 0; e < 3; ++e) v += -std::pow(x[2 * e] - 0.3, 2) - std::pow(x[2 * e + 1] - 0.6, 2);
    return v;
  };
  StrategyConfig c;
  c.seed = 2;
  auto s = make_strategy(c, space);
  const Mat P = batch(*s, *space, f, 8, 4);
  expect_distinct_inside(P, space->bounds());
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(space->in_canonical_region(P.row(i).transpose())) << "row " << i;
  EXPECT_EQ(s->last_info().value("n_fantasies", -1), 3);
}

TEST(Fantasy, InvariantKernelBatchIsDistinct) {
  const Problem p = make_problem("ackley-shifted", 2);
  auto space = std::make_shared<BoxSpace>(p.bounds);
  StrategyConfig c;
  c.seed = 4;
  c.invariance = "permutation";
  auto s = make_strategy(c, space);
  const Mat P = batch(*s, *space, [&](const Vec& x) { return -p.f(x); }, 8, 4);
  expect_distinct_inside(P, p.bounds);
  EXPECT_EQ(s->last_info().value("n_fantasies", -1), 3);
}

TEST(Fantasy, AgpucbBatchIsDistinctAndUsesFantasies) {
  const Problem p = make_problem("branin", 2);
  auto space = std::make_shared<BoxSpace>(p.bounds);
  StrategyConfig c;
  c.strategy = "agpucb";
  c.seed = 3;
  auto s = make_strategy(c, space);
  const Mat P = batch(*s, *space, [&](const Vec& x) { return -p.f(x); }, 8, 4);
  expect_distinct_inside(P, p.bounds);
  EXPECT_EQ(s->last_info().value("fantasy", std::string()), "kriging_believer");
}

TEST(Fantasy, ConfigRoundTripsThroughStudyJson) {
  StrategyConfig c;
  c.fantasy = FantasyMode::LiarBest;
  EXPECT_EQ(strategy_config_from_json(to_json(c)).fantasy, FantasyMode::LiarBest);
  nlohmann::json old = to_json(StrategyConfig());
  old.erase("fantasy");  // a study stored before the key existed
  EXPECT_EQ(strategy_config_from_json(old).fantasy, FantasyMode::KrigingBeliever);
}
