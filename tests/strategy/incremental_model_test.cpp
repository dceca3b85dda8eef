// The incremental model of BOStrategy (BOModelOptions::full_refit_below) and its stored
// state: between refits θ is kept and the factor extended, the result is the model a from-scratch
// factorisation gives, refits come on the ⌈√n⌉ schedule, and a fresh strategy adopts a stored state.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/random.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "support/test_data.hpp"

using namespace kbo;

namespace {

// Full refits from full_refit_below observations on once ⌈√n⌉ new ones arrived; in between, warm refits
// below 200 observations and θ kept from there on.
StrategyConfig incremental_config(int full_refit_below) {
  StrategyConfig c;
  c.seed = 7;
  c.n_init = 4;
  c.module_options = {{"bo", {{"full_refit_below", full_refit_below}}}};
  return c;
}

struct RowsAndTargets {
  Mat X;
  Vec y;
};

/// n points of Branin (negated: values to maximise), uniform in its box.
RowsAndTargets branin_data(int n, std::uint64_t seed) {
  const Problem p = make_problem("branin", 0);
  Rng rng = make_rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  RowsAndTargets d{Mat(n, 2), Vec(n)};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 2; ++j) d.X(i, j) = p.bounds.lower(j) + u(rng) * (p.bounds.upper(j) - p.bounds.lower(j));
    d.y(i) = -p.f(d.X.row(i).transpose());
  }
  return d;
}

/// The first n rows, with the rows `late` (>= some index) held back until later: trials that complete out
/// of id order arrive in the middle of the data.
RowsAndTargets rows(const RowsAndTargets& d, const std::vector<int>& keep) {
  RowsAndTargets out{Mat(static_cast<Eigen::Index>(keep.size()), d.X.cols()), Vec(static_cast<Eigen::Index>(keep.size()))};
  for (std::size_t i = 0; i < keep.size(); ++i) {
    out.X.row(static_cast<Eigen::Index>(i)) = d.X.row(keep[i]);
    out.y(static_cast<Eigen::Index>(i)) = d.y(keep[i]);
  }
  return out;
}

std::vector<int> range_without(int n, const std::vector<int>& skip) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i)
    if (std::find(skip.begin(), skip.end(), i) == skip.end()) out.push_back(i);
  return out;
}

}  // namespace

TEST(IncrementalModel, RefitsOnTheSqrtScheduleAndKeepsThetaBetween) {
  BOStrategy s(incremental_config(200), test_support::branin_space());
  const RowsAndTargets d = branin_data(220, 1);
  const Mat none(0, 2);
  std::vector<std::string> refits;
  Vec theta_at_refit;
  for (int n = 200; n <= 216; ++n) {
    const RowsAndTargets part = rows(d, range_without(n, {}));
    s.suggest(part.X, part.y, none, n);
    refits.push_back(s.last_info()["refit"].get<std::string>());
    const Vec theta = s.model()->hyperparameters();
    if (refits.back() == "full") theta_at_refit = theta;
    else EXPECT_EQ(theta, theta_at_refit) << "n = " << n;  // θ kept bit for bit between refits
  }
  // Refits at 200, then every ceil(sqrt(n_refit)) new observations: 200 → 215.
  std::vector<std::string> expected(17, "none");
  expected[0] = expected[15] = "full";
  EXPECT_EQ(refits, expected);
}

TEST(IncrementalModel, ExtendedModelEqualsAFreshFactorisationEvenWhenTrialsCompleteOutOfOrder) {
  BOStrategy s(incremental_config(200), test_support::branin_space());
  const int N = 205;
  const RowsAndTargets d = branin_data(N + 10, 2);
  const Mat none(0, 2);
  // Trials 3 and 8 complete late: they join the data in the middle of the id order.
  const RowsAndTargets first = rows(d, range_without(N - 3, {3, 8}));
  s.suggest(first.X, first.y, none, N - 3);  // 200 observations
  ASSERT_EQ(s.last_info()["refit"], "full");
  const RowsAndTargets later = rows(d, range_without(N, {}));
  s.suggest(later.X, later.y, none, N);
  ASSERT_EQ(s.last_info()["refit"], "none");
  const GP& m = *s.model();
  ASSERT_EQ(m.size(), N);
  // Every data point is in the model exactly once, with its own target: the model's targets are a strictly
  // increasing function of the observed values (the target scaling and the default half-rank warp), pair by
  // pair, so no target sits on another point's row.
  const Mat U = s.unit_space().rows_to_unit(later.X);
  std::vector<bool> seen(N, false);
  Vec yobs(N);
  for (int r = 0; r < N; ++r) {
    int match = -1;
    for (int i = 0; i < N; ++i)
      if ((U.row(i) - m.X().row(r)).norm() == 0.0) match = i;
    ASSERT_GE(match, 0) << "model row " << r << " is not a data point";
    EXPECT_FALSE(seen[match]);
    seen[match] = true;
    yobs(r) = later.y(match);
  }
  for (int r = 0; r < N; ++r)
    for (int q = 0; q < N; ++q)
      if (yobs(r) < yobs(q)) {
        EXPECT_LT(m.y()(r), m.y()(q)) << r << " " << q;
      }
  // The extended factor gives the posterior of a from-scratch factorisation at the same θ.
  GP fresh(m);
  fresh.set_data(m.X(), m.y());
  const Mat probe = s.unit_space().rows_to_unit(branin_data(25, 3).X);
  const GP::Prediction a1 = m.predict(probe), b1 = fresh.predict(probe);
  EXPECT_LT((a1.mean - b1.mean).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((a1.variance - b1.variance).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_NEAR(m.log_marginal_likelihood(), fresh.log_marginal_likelihood(), 1e-7);
}

TEST(IncrementalModel, AFreshStrategyAdoptsAStoredStateAndDoesNotRefitUntilDue) {
  const RowsAndTargets d = branin_data(210, 4);
  const Mat none(0, 2);
  BOStrategy first(incremental_config(10), test_support::branin_space());
  const RowsAndTargets at200 = rows(d, range_without(200, {}));
  first.suggest(at200.X, at200.y, none, 200);
  ASSERT_EQ(first.last_info()["refit"], "full");
  const nlohmann::json state = first.model_state();
  ASSERT_FALSE(state.is_null());
  EXPECT_EQ(state["n"].get<int>(), 200);
  const nlohmann::json text = nlohmann::json::parse(state.dump());  // as stored

  BOStrategy second(incremental_config(10), test_support::branin_space());
  second.restore_model_state(text);
  const RowsAndTargets at202 = rows(d, range_without(202, {}));
  second.suggest(at202.X, at202.y, none, 202);
  EXPECT_EQ(second.last_info()["refit"], "none");  // 202 < 200 + ceil(sqrt(200))
  EXPECT_EQ(second.model()->hyperparameters(), first.model()->hyperparameters());
  EXPECT_EQ(second.model_state()["n"].get<int>(), 200);

  // An older state (fewer observations) than the strategy's own is ignored; so is another model's.
  BOStrategy third(incremental_config(10), test_support::branin_space());
  nlohmann::json other = text;
  other["model"]["kernel"] = "rbf(something else)";
  third.restore_model_state(other);
  third.suggest(at202.X, at202.y, none, 202);
  EXPECT_EQ(third.last_info()["refit"], "full");
  nlohmann::json older = text;
  older["n"] = 150;
  older["theta"]["kernel"][0] = 3.0;
  third.restore_model_state(older);
  EXPECT_EQ(third.model_state()["n"].get<int>(), 202);
  nlohmann::json garbage = text;
  garbage["n"] = 300;
  garbage["theta"]["kernel"] = "not numbers";
  third.restore_model_state(garbage);
  EXPECT_EQ(third.model_state()["n"].get<int>(), 202);
}

TEST(IncrementalModel, WarmRefitsBetweenFullOnesNeverLowerTheObjective) {
  // ML-II, so that the reported objective is the log marginal likelihood a GP computes by itself.
  StrategyConfig c = incremental_config(10);
  c.map = false;
  BOStrategy s(c, test_support::branin_space());
  const RowsAndTargets d = branin_data(40, 4);
  const Mat none(0, 2);
  std::vector<std::string> refits;
  int changed = 0;
  for (int n = 10; n <= 24; ++n) {
    const RowsAndTargets part = rows(d, range_without(n, {}));
    // θ before this suggestion, as the model that will lead holds it (either kernel may win).
    const GP* before = s.model();
    std::optional<GP> previous;
    if (before) previous.emplace(*before);
    s.suggest(part.X, part.y, none, n);
    refits.push_back(s.last_info()["refit"].get<std::string>());
    if (refits.back() != "warm" || !previous) continue;
    // The warm run starts at the previous θ and keeps the best point it sees: on the new data its
    // objective is at least that of the previous θ (of the same kernel; the other kernel may win on top).
    GP at_previous = *previous;
    at_previous.set_data(s.model()->X(), s.model()->y());
    EXPECT_GE(s.last_info()["fit_objective"].get<double>(), at_previous.log_marginal_likelihood() - 1e-6) << "n = " << n;
    if (s.model()->hyperparameters() != previous->hyperparameters()) ++changed;
  }
  // Full refits at 10, 14, 18, 23 (every ceil(sqrt(n_full)) new observations); warm ones in between
  // (below 200 observations).
  const std::vector<std::string> expected = {"full", "warm", "warm", "warm", "full", "warm", "warm", "warm",
                                             "full", "warm", "warm", "warm", "warm", "full", "warm"};
  EXPECT_EQ(refits, expected);
  EXPECT_GT(changed, 0);  // the warm runs do move θ
}

TEST(IncrementalModel, DefaultScheduleRefitsFullyBelow64AndWarmBetweenFullRefitsBelow200) {
  const BOModelOptions mo = BOModelOptions::from_json(nlohmann::json::object());
  EXPECT_EQ(mo.full_refit_below, 64);
  EXPECT_EQ(mo.warm_refit_below, 200);
  StrategyConfig c;
  c.seed = 3;
  c.n_init = 4;
  BOStrategy s(c, test_support::branin_space());
  const RowsAndTargets d = branin_data(80, 5);
  const Mat none(0, 2);
  for (int n = 60; n <= 66; ++n) {
    const RowsAndTargets part = rows(d, range_without(n, {}));
    s.suggest(part.X, part.y, none, n);
    // 60..63 full (below 64); 64..66 warm (the next full one at 63 + ceil(sqrt(63)) = 71).
    EXPECT_EQ(s.last_info()["refit"].get<std::string>(), n < 64 ? "full" : "warm") << "n = " << n;
  }
}
