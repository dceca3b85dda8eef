// The local steps' trust region (options.bo local_radius, kbo/strategy/trust_region.hpp): the radius
// replayed from a history halves after `fail` failed local steps and doubles after `succ` successful ones,
// and BOStrategy's local step stays inside the replayed radius around the incumbent.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/trust_region.hpp"

using namespace kbo;

namespace {

Vec vec(const std::vector<double>& v) { return Eigen::Map<const Vec>(v.data(), static_cast<Eigen::Index>(v.size())); }

// Radius after replaying the first n values, trials 0…2 not local (the initial design).
double radius_after(const std::vector<double>& y, std::size_t n, const TrustRegionRule& rule) {
  const std::vector<double> head(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n));
  return replay_trust_region(vec(head), [](int t) { return t >= 3; }, rule).radius;
}

// A rule with the given initial radius, failures per halving, successes per doubling and (0 = never) stalled
// halvings per restart; the other fields keep their defaults.
TrustRegionRule rule_of(double initial, int fail, int succ, int restart = 0) {
  TrustRegionRule rule;
  rule.initial = initial;
  rule.fail = fail;
  rule.succ = succ;
  rule.restart = restart;
  return rule;
}

}  // namespace

TEST(TrustRegion, HalvesAfterTheConfiguredFailuresAndDoublesAfterTheConfiguredSuccesses) {
  TrustRegionRule rule = rule_of(0.2, 2, 3);
  // Design 1, 5, 2 (incumbent 5); local steps: 4, 3 (two failures), 0, 1 (two more), 6, 7, 8 (three
  // improvements), 7.5 (a failure).
  const std::vector<double> y{1, 5, 2, 4, 3, 0, 1, 6, 7, 8, 7.5};
  const std::vector<double> expected{0.2, 0.2, 0.2, 0.2, 0.1, 0.1, 0.05, 0.05, 0.05, 0.1, 0.1};
  for (std::size_t n = 1; n <= y.size(); ++n) EXPECT_DOUBLE_EQ(radius_after(y, n, rule), expected[n - 1]) << n;
  const TrustRegion tr = replay_trust_region(vec(y), [](int t) { return t >= 3; }, rule);
  EXPECT_EQ(tr.local_steps, 8);
  EXPECT_EQ(tr.halvings, 2);
  EXPECT_EQ(tr.doublings, 1);
  EXPECT_EQ(tr.failures, 1);
  EXPECT_EQ(tr.successes, 0);
}

TEST(TrustRegion, OnlyLocalStepsCountButEveryTrialMovesTheIncumbent) {
  TrustRegionRule rule = rule_of(0.4, 1, 1);
  // Odd trials are local. Trial 2 (global) improves to 9, so the local trial 3 (value 8) fails although it
  // beats everything before trial 2; trial 4 (global, a failure) leaves the radius alone.
  const std::vector<double> y{1, 2, 9, 8, 0, 10};
  const TrustRegion tr = replay_trust_region(vec(y), [](int t) { return t % 2 == 1; }, rule);
  // Local trials 1 (2 > 1: success, 0.4 → 0.5 = max), 3 (failure → 0.25), 5 (10 > 9: success → 0.5).
  EXPECT_EQ(tr.local_steps, 3);
  EXPECT_EQ(tr.doublings, 2);
  EXPECT_EQ(tr.halvings, 1);
  EXPECT_DOUBLE_EQ(tr.radius, 0.5);
  // Bounds: ten failures from 0.4 with min 0.01 stop at 0.01.
  rule.min = 0.01;
  const TrustRegion low = replay_trust_region(Vec::Zero(11), [](int t) { return t >= 1; }, rule);
  EXPECT_EQ(low.halvings, 10);
  EXPECT_DOUBLE_EQ(low.radius, 0.01);
}

TEST(TrustRegion, ACollapsedRegionRestartsWithOneGlobalStep) {
  TrustRegionRule rule = rule_of(0.2, 1, 3, 2);  // restart after two halvings with no success in between
  // Design 1, 5, 2; scheduled local steps from trial 3: 4 (failure → 0.1), 3 (failure → 0.05: collapsed),
  // then trial 5 is the restart's global step (value 9: the new incumbent), the region starts again at 0.2;
  // 8 (failure → 0.1), 10 (success).
  const std::vector<double> y{1, 5, 2, 4, 3, 9, 8, 10};
  const auto scheduled = [](int t) { return t >= 3; };
  auto after = [&](std::size_t n) {
    return replay_trust_region(vec(std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n))), scheduled, rule);
  };
  EXPECT_FALSE(after(4).restart_due);
  EXPECT_DOUBLE_EQ(after(4).radius, 0.1);
  const TrustRegion collapsed = after(5);  // what trial 5's suggestion sees
  EXPECT_TRUE(collapsed.restart_due);
  EXPECT_DOUBLE_EQ(collapsed.radius, 0.05);
  EXPECT_EQ(collapsed.restarts, 0);
  const TrustRegion restarted = after(6);
  EXPECT_FALSE(restarted.restart_due);
  EXPECT_DOUBLE_EQ(restarted.radius, 0.2);
  EXPECT_EQ(restarted.restarts, 1);
  EXPECT_EQ(restarted.local_steps, 2);  // the restart step is not a local step
  EXPECT_EQ(restarted.failures, 0);
  const TrustRegion end = after(8);
  EXPECT_EQ(end.local_steps, 4);
  EXPECT_EQ(end.restarts, 1);
  EXPECT_EQ(end.halvings, 3);
  EXPECT_EQ(end.successes, 1);  // 10 > 9: trial 7 beat the restart step's incumbent, trial 6 (8 < 9) did not
  EXPECT_DOUBLE_EQ(end.radius, 0.1);
  // Without the rule (restart 0) the same history never restarts: trial 5 is a local success.
  rule.restart = 0;
  const TrustRegion never = replay_trust_region(vec(y), scheduled, rule);
  EXPECT_EQ(never.restarts, 0);
  EXPECT_FALSE(never.restart_due);
  EXPECT_EQ(never.local_steps, 5);
  EXPECT_DOUBLE_EQ(never.radius, 0.025);  // 0.2 → 0.1 → 0.05, success, failure → 0.025, success
}

TEST(TrustRegion, OnlyHalvingsWithNoSuccessInBetweenCountTowardsARestart) {
  // fail 1, succ 3 (no doubling here), restart 2. Local steps from trial 1: −1 (failure: 0.2 → 0.1, one
  // halving without success), 1 (success: the count starts again), 0 (failure → 0.05). The radius is now
  // 0.2 / 2², but only one halving followed the last success: no restart, until one more failure.
  TrustRegionRule rule = rule_of(0.2, 1, 3, 2);
  const auto scheduled = [](int t) { return t >= 1; };
  const TrustRegion tr = replay_trust_region(vec({0, -1, 1, 0}), scheduled, rule);
  EXPECT_EQ(tr.halvings, 2);
  EXPECT_EQ(tr.stalled, 1);
  EXPECT_DOUBLE_EQ(tr.radius, 0.05);
  EXPECT_FALSE(tr.restart_due);
  const TrustRegion more = replay_trust_region(vec({0, -1, 1, 0, 0}), scheduled, rule);
  EXPECT_DOUBLE_EQ(more.radius, 0.025);
  EXPECT_EQ(more.stalled, 2);
  EXPECT_TRUE(more.restart_due);
}

TEST(TrustRegion, ARestartWithoutAGlobalStepResetsTheRegionAtOnce) {
  // As above (fail 1, restart 2) but restart_global false: the second failure in a row (trial 4) resets the
  // radius to 0.2 at once, and trial 5 is a local step in the fresh region (a success), trial 6 a failure.
  TrustRegionRule rule = rule_of(0.2, 1, 3, 2);
  rule.restart_global = false;
  const auto scheduled = [](int t) { return t >= 3; };
  const TrustRegion reset = replay_trust_region(vec({1, 5, 2, 4, 3}), scheduled, rule);
  EXPECT_DOUBLE_EQ(reset.radius, 0.2);
  EXPECT_EQ(reset.restarts, 1);
  EXPECT_EQ(reset.halvings, 2);
  EXPECT_EQ(reset.stalled, 0);
  EXPECT_FALSE(reset.restart_due);
  const TrustRegion end = replay_trust_region(vec({1, 5, 2, 4, 3, 9, 8}), scheduled, rule);
  EXPECT_EQ(end.local_steps, 4);
  EXPECT_EQ(end.restarts, 1);
  EXPECT_DOUBLE_EQ(end.radius, 0.1);
  EXPECT_EQ(end.stalled, 1);
  EXPECT_FALSE(end.restart_due);
  // The reset goes to the radius of the last successful local step: −1 (failure → 0.1), 1 (success at 0.1),
  // 0, 0 (failures → 0.05, → 0.025: two halvings since the success) → reset to 0.1, not 0.2.
  const TrustRegion scale = replay_trust_region(vec({0, -1, 1, 0, 0}), [](int t) { return t >= 1; }, rule);
  EXPECT_EQ(scale.restarts, 1);
  EXPECT_DOUBLE_EQ(scale.success_radius, 0.1);
  EXPECT_DOUBLE_EQ(scale.radius, 0.1);
}

TEST(TrustRegion, RestartsStopAtTheConfiguredMaximum) {
  // fail 1, succ 3, restart 2, region-only reset. Local steps from trial 1, all failures (value 0 < 1):
  // 0.2 → 0.1 → 0.05, reset to 0.2 (restart 1); → 0.1 → 0.05, reset (restart 2); → 0.1 → 0.05 → …
  TrustRegionRule rule = rule_of(0.2, 1, 3, 2);
  rule.restart_global = false;
  const auto scheduled = [](int t) { return t >= 1; };
  std::vector<double> y(11, 0.0);  // trial 0 the design (1), trials 1…10 ten failed local steps
  y[0] = 1.0;
  const TrustRegion unlimited = replay_trust_region(vec(y), scheduled, rule);
  EXPECT_EQ(unlimited.restarts, 5);  // after local steps 2, 4, 6, 8, 10
  EXPECT_DOUBLE_EQ(unlimited.radius, 0.2);
  // At most one restart: after it (local step 2) the eight further failures halve 0.2 eight times.
  rule.restart_max = 1;
  const TrustRegion capped = replay_trust_region(vec(y), scheduled, rule);
  EXPECT_EQ(capped.restarts, 1);
  EXPECT_EQ(capped.halvings, 10);
  EXPECT_DOUBLE_EQ(capped.radius, 0.2 / 256.0);
  // With a global restart step, the cap also stops scheduling them: one global step (trial 3), then local
  // steps only: 0.2 → 0.1 → 0.05 (trials 1, 2), restart at trial 3 (region 0.2), seven halvings after it.
  rule.restart_global = true;
  const TrustRegion global = replay_trust_region(vec(y), scheduled, rule);
  EXPECT_EQ(global.restarts, 1);
  EXPECT_EQ(global.local_steps, 9);
  EXPECT_FALSE(global.restart_due);
  EXPECT_DOUBLE_EQ(global.radius, 0.2 / 128.0);
}

TEST(TrustRegion, AutosFallbackGPUsesItsOwnNeighboursWhereTheQuadraticsWouldBeAll) {
  // D = 4: the quadratic needs p = 15 coefficients and takes max(5·5, 2·15) = 30 neighbours; the GP's own
  // count is 5·(D + 1) = 25. On a rippled cone the quadratic's R² is below 0.99, so auto's GP takes the step.
  auto space = std::make_shared<BoxSpace>(Box::unit(4));
  Rng rng = make_rng(7);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  Mat X(40, 4);
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index j = 0; j < 4; ++j) X(i, j) = unif(rng);
  Vec y(40);
  // A rippled L1 cone: kinks and ripples that no quadratic explains.
  for (Eigen::Index i = 0; i < 40; ++i)
    y[i] = -(X.row(i).array() - 0.5).abs().sum() + 0.2 * (25.0 * X.row(i).array()).cos().sum();
  // n = 40 observations: the quadratic's 30 are not all of them and the GP takes them; n = 30: they are,
  // and the GP takes its own 25. The step is the end-game's only one (the last trial of a budget n + 1).
  struct Case {
    Eigen::Index n;
    int gp_points;
  };
  for (const Case& k : {Case{40, 30}, Case{30, 25}}) {
    StrategyConfig c;
    c.seed = 4;
    c.module_options["bo"] = {{"endgame_fraction", 0.02}, {"noise", "exact"}};  // no replicate step
    BOStrategy s(c, space);
    s.set_budget(static_cast<int>(k.n) + 1);
    s.suggest(X.topRows(k.n), y.head(k.n), Mat(0, 4), static_cast<int>(k.n));
    const nlohmann::json info = s.last_info();
    const std::string label = "n=" + std::to_string(k.n);
    ASSERT_TRUE(info.contains("local")) << label;
    ASSERT_TRUE(info["local"]["r2"].is_number()) << info["local"].dump();
    EXPECT_LT(info["local"]["r2"].get<double>(), 0.99) << label;
    EXPECT_EQ(info["local"]["points"].get<int>(), 30) << label;
    EXPECT_EQ(info["local"]["gp_points"].get<int>(), k.gp_points) << label;
  }
}

TEST(TrustRegion, BOStrategysLocalStepStaysInsideTheReplayedRadius) {
  // 5 design points around a bowl's maximum at (0.52, 0.47), then 6 local trials (an end-game of every BO
  // step of a budget of 12) all worse than the incumbent: halved after 2 failures, the radius 0.1 was halved
  // 3 times, to 0.0125.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Mat X(11, 2);
  X << 0.5, 0.5, 0.1, 0.2, 0.9, 0.8, 0.2, 0.9, 0.8, 0.1,  // design; incumbent (0.5, 0.5)
      0.6, 0.6, 0.4, 0.45, 0.55, 0.35, 0.45, 0.6, 0.62, 0.4, 0.38, 0.55;  // failed local steps
  Vec y(11);
  for (int i = 0; i < 11; ++i) y[i] = -std::pow(X(i, 0) - 0.52, 2) - std::pow(X(i, 1) - 0.47, 2);
  Eigen::Index best;
  y.maxCoeff(&best);
  ASSERT_EQ(best, 0);
  Vec top(2);
  top << 0.52, 0.47;
  {
    const char* model = "auto";
    StrategyConfig c;
    c.seed = 4;
    c.module_options["bo"] = {{"endgame_fraction", 1.0}};
    BOStrategy s(c, space);
    s.set_budget(12);
    const Vec u = s.suggest(X, y, Mat(0, 2), 11);
    const nlohmann::json info = s.last_info();
    ASSERT_TRUE(info.contains("local")) << model;
    EXPECT_DOUBLE_EQ(info["local"]["trust_region"]["radius"].get<double>(), 0.0125) << model;
    EXPECT_EQ(info["local"]["trust_region"]["halvings"], 3) << model;
    EXPECT_LE((u - X.row(0).transpose()).cwiseAbs().maxCoeff(), 0.0125 + 1e-12) << model;
    // The bowl's maximum is 0.028 away: a step towards it, not away.
    EXPECT_LT((u - top).norm(), (X.row(0).transpose() - top).norm()) << model;
  }
}

namespace {
// A 4 × 4 grid of spacing 0.06 from (0.41, 0.41) without its (0.59, 0.59) corner: 15 points, exactly the
// 5·(D + 1) neighbours a local step takes in 2-d.
Mat grid15() {
  Mat X(15, 2);
  for (int k = 0; k < 15; ++k) X.row(k) << 0.41 + 0.06 * (k / 4), 0.41 + 0.06 * (k % 4);
  return X;
}
}  // namespace

TEST(TrustRegion, AutoLocalModelTakesTheQuadraticOnlyWhereItFits) {
  // 15 points of a grid around (0.5, 0.5), all of them the neighbours (5·(D + 1)). On an exact quadratic the
  // least-squares fit's R² is 1 and the quadratic steps; on a cone (|·| kinks at the maximum) the R² computed
  // here by our own least squares is below 0.99 and the step is the local GP's.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  const Mat X = grid15();
  auto r2_of = [&](const Vec& y) {
    Mat A(15, 6);
    for (int r = 0; r < 15; ++r) {
      const double a = X(r, 0), b = X(r, 1);
      A.row(r) << 1, a, b, a * a, a * b, b * b;
    }
    const Vec c = A.colPivHouseholderQr().solve(y);
    return 1.0 - (A * c - y).squaredNorm() / (y.array() - y.mean()).square().sum();
  };
  Vec bowl(15), cone(15);
  for (int i = 0; i < 15; ++i) {
    bowl[i] = -std::pow(X(i, 0) - 0.52, 2) - 3.0 * std::pow(X(i, 1) - 0.47, 2);
    cone[i] = -std::abs(X(i, 0) - 0.52) - std::abs(X(i, 1) - 0.47);
  }
  ASSERT_LT(r2_of(cone), 0.99);
  for (const bool kinked : {false, true}) {
    StrategyConfig c;
    c.seed = 4;
    c.n_init = 15;
    // uniform weights: the R² is the plain least squares' (weighted fits: the next test)
    c.module_options["bo"] = {{"endgame_fraction", 1.0}, {"local_fit_power", 0.0}};
    BOStrategy s(c, space);
    s.set_budget(16);
    s.suggest(X, kinked ? cone : bowl, Mat(0, 2), 15);
    const nlohmann::json local = s.last_info()["local"];
    EXPECT_NEAR(local["r2"].get<double>(), kinked ? r2_of(cone) : 1.0, 1e-9) << kinked;
    EXPECT_EQ(local["fitted"].get<bool>(), !kinked) << kinked;  // not fitted: the GP took the step
  }
}

namespace {

// One local step (the end-game's only step: the last trial of a budget n + 1) on observations X, y, all of
// them the initial design (so the trust region is at its initial radius 0.1): the step's point and info.
struct LocalStep {
  Vec u;
  nlohmann::json local;
};
LocalStep local_step(const Mat& X, const Vec& y, double power) {
  auto space = std::make_shared<BoxSpace>(Box::unit(X.cols()));
  StrategyConfig c;
  c.seed = 4;
  c.n_init = static_cast<int>(X.rows());
  c.module_options["bo"] = {{"endgame_fraction", 1.0}, {"local_fit_power", power}};
  BOStrategy s(c, space);
  s.set_budget(static_cast<int>(X.rows()) + 1);
  const Vec u = s.suggest(X, y, Mat(0, X.cols()), static_cast<int>(X.rows()));
  return {u, s.last_info()["local"]};
}

}  // namespace

TEST(TrustRegion, LocalQuadraticWeighsEachNeighbourByItsGapAboveTheIncumbent) {
  // An exact quadratic: any weights give the same exact fit, so every power steps to the bowl's maximum.
  const Mat X = grid15();
  Vec top(2);
  top << 0.52, 0.49;
  Vec bowl(15);
  for (int i = 0; i < 15; ++i) bowl[i] = -std::pow(X(i, 0) - top[0], 2) - 3.0 * std::pow(X(i, 1) - top[1], 2);
  for (const double power : {0.0, 1.0, 2.0}) {
    const LocalStep step = local_step(X, bowl, power);
    EXPECT_EQ(step.local["model"], "quadratic") << power;
    EXPECT_TRUE(step.local["fitted"].get<bool>()) << power;
    EXPECT_LT((step.u - top).norm(), 1e-9) << power;
  }

  // On a cone (no quadratic fits it) the reported R² is that of our own least squares with row weights
  // (gap + g₀)^−power, g₀ the smallest nonzero gap above the incumbent: the weights enter the fit as stated.
  Vec cone(15);
  for (int i = 0; i < 15; ++i) cone[i] = -std::abs(X(i, 0) - top[0]) - std::abs(X(i, 1) - top[1]);
  Mat A(15, 6);
  for (int r = 0; r < 15; ++r) {
    const double a = X(r, 0), b = X(r, 1);
    A.row(r) << 1, a, b, a * a, a * b, b * b;
  }
  const Vec gap = cone.maxCoeff() - cone.array();
  double g0 = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 15; ++i)
    if (gap[i] > 0.0) g0 = std::min(g0, gap[i]);
  for (const double power : {0.0, 1.0, 2.0}) {
    const Vec w = (gap.array() + g0).pow(-power).matrix();
    const Mat WA = w.asDiagonal() * A;
    const Vec wy = w.cwiseProduct(cone);
    const Vec c = WA.colPivHouseholderQr().solve(wy);
    const double mean = w.cwiseProduct(wy).sum() / w.squaredNorm();
    const double r2 = 1.0 - (WA * c - wy).squaredNorm() / (wy - mean * w).squaredNorm();
    EXPECT_NEAR(local_step(X, cone, power).local["r2"].get<double>(), r2, 1e-9) << power;
  }
  EXPECT_THROW(BOModelOptions::from_json({{"local_fit_power", -1.0}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"local_fit_power", 5.0}}), InputError);
}
