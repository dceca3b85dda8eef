// The multi-objective strategy on problems with a known front: it beats random search on hypervolume, keeps
// away from pending points, handles more than three objectives (ParEGO) and outcome constraints.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/moo/hypervolume.hpp"
#include "kbo/moo/moo_strategy.hpp"
#include "kbo/strategy/registry.hpp"

namespace {

using kbo::Mat;
using kbo::Vec;

// Both maximised: f1 = −x0, f2 = −((1 − x0)² + x1 + x2²) on [0, 1]^3. The front is x1 = x2 = 0.
Vec objectives(const Vec& x) {
  Vec y(2);
  y << -x[0], -(std::pow(1 - x[0], 2) + x[1] + x[2] * x[2]);
  return y;
}

double run(const std::string& strategy_name, std::uint64_t seed, int n) {
  kbo::StrategyConfig c;
  c.strategy = strategy_name;
  c.seed = seed;
  auto space = std::make_shared<kbo::BoxSpace>(kbo::Box(Vec::Zero(3), Vec::Ones(3)));
  auto s = kbo::make_strategy(c, space);
  Mat X(0, 3), Y(0, 2);
  for (int t = 0; t < n; ++t) {
    s->set_objectives(Y);
    const Vec x = s->suggest(X, Y.rows() ? Vec(Y.col(0)) : Vec(), Mat(0, 3), t);
    X.conservativeResize(t + 1, Eigen::NoChange);
    Y.conservativeResize(t + 1, Eigen::NoChange);
    X.row(t) = x.transpose();
    Y.row(t) = objectives(x).transpose();
  }
  Vec ref(2);
  ref << -1.1, -4.1;
  return kbo::hypervolume(Y, ref);
}

TEST(MooStrategy, BeatsRandomSearchOnHypervolume) {
  double moo = 0, random = 0;
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    moo += run("moo", seed, 25);
    random += run("random", seed, 25);
  }
  EXPECT_GT(moo, random);
  // The true front's hypervolume: ∫_0^1 (4.1 − (1 − u)²) du + 0.1 · 4.1 = 4.1767 (minimised terms).
  EXPECT_GT(moo / 3, 0.9 * 4.1767);
}

TEST(MooStrategy, AvoidsPendingPointsAndRecordsItsStep) {
  kbo::StrategyConfig c;
  c.strategy = "moo";
  auto space = std::make_shared<kbo::BoxSpace>(kbo::Box(Vec::Zero(3), Vec::Ones(3)));
  auto s = kbo::make_strategy(c, space);
  Mat X(8, 3), Y(8, 2);
  for (int i = 0; i < 8; ++i) {
    X.row(i) = Vec::Constant(3, (i + 0.5) / 8.0).transpose();
    X(i, 1) = 0.0;
    Y.row(i) = objectives(X.row(i).transpose()).transpose();
  }
  s->set_objectives(Y);
  const Vec first = s->suggest(X, Y.col(0), Mat(0, 3), 8);
  s->set_objectives(Y);
  const Vec second = s->suggest(X, Y.col(0), first.transpose(), 9);
  EXPECT_GT((first - second).norm(), 1e-6);
  const nlohmann::json info = s->last_info();
  EXPECT_EQ(info["acquisition"], "logEHVI");
  EXPECT_EQ(info["fantasy"], "kriging_believer");
  EXPECT_EQ(info["reference"], "inferred");
}

// One observation better than every other in both objectives: the front is a single point, whose own range is
// 0. The inferred reference lies 10 % of each objective's observed range beyond the front's values (BoTorch's
// 10 % of the front's range, or of |value| for a single point, would put it at 1 − 0.1 in objective 0: the box
// above it would hold only the corner of that one point).
TEST(MooStrategy, InferredReferenceReachesTenPercentOfTheObservedRangeBeyondTheFront) {
  kbo::StrategyConfig c;
  c.strategy = "moo";
  c.n_init = 4;
  auto space = std::make_shared<kbo::BoxSpace>(kbo::Box(Vec::Zero(2), Vec::Ones(2)));
  auto s = kbo::make_strategy(c, space);
  Mat X(6, 2), Y(6, 2);
  X << 0.1, 0.2, 0.8, 0.3, 0.5, 0.9, 0.3, 0.6, 0.7, 0.1, 0.95, 0.55;
  Y << 1.0, -2.0, -4.0, -3.0, 0.5, -9.0, -1.0, -2.5, 0.0, -7.0, 0.2, -3.5;  // maximised; row 0 dominates
  s->set_objectives(Y);
  s->suggest(X, Y.col(0), Mat(0, 2), 6);
  const std::vector<double> ref = s->last_info()["reference_point"].get<std::vector<double>>();
  ASSERT_EQ(ref.size(), 2u);
  EXPECT_DOUBLE_EQ(ref[0], 1.0 - 0.1 * (1.0 - -4.0));
  EXPECT_DOUBLE_EQ(ref[1], -2.0 - 0.1 * (-2.0 - -9.0));
  EXPECT_EQ(s->last_info()["front_size"], 1);
}

TEST(MooStrategy, FourObjectivesUseChebyshevScalarisations) {
  kbo::StrategyConfig c;
  c.strategy = "moo";
  auto space = std::make_shared<kbo::BoxSpace>(kbo::Box(Vec::Zero(2), Vec::Ones(2)));
  auto s = kbo::make_strategy(c, space);
  Mat X(8, 2), Y(8, 4);
  for (int i = 0; i < 8; ++i) {
    X(i, 0) = (i + 0.5) / 8.0, X(i, 1) = std::fmod(0.37 * i, 1.0);
    Y.row(i) << -X(i, 0), -X(i, 1), X(i, 0) - 1, -(X(i, 0) - 0.5) * (X(i, 0) - 0.5);
  }
  s->set_objectives(Y);
  const Vec x = s->suggest(X, Y.col(0), Mat(0, 2), 8);
  EXPECT_TRUE(x.allFinite());
  EXPECT_TRUE((x.array() >= 0).all() && (x.array() <= 1).all());
  const nlohmann::json info = s->last_info();
  EXPECT_EQ(info["acquisition"], "parego-logEI");
  double sum = 0;
  for (double w : info["weights"]) sum += w;
  EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(MooStrategy, ConstraintsKeepTheSearchFeasible) {
  // Feasible iff x0 <= 0.5: the front of the feasible region is x1 = x2 = 0, x0 ∈ [0, 0.5].
  kbo::StrategyConfig c;
  c.strategy = "moo";
  auto space = std::make_shared<kbo::BoxSpace>(kbo::Box(Vec::Zero(3), Vec::Ones(3)));
  auto s = kbo::make_strategy(c, space);
  Mat X(0, 3), Y(0, 2), C(0, 1);
  int feasible_bo = 0;
  for (int t = 0; t < 20; ++t) {
    s->set_objectives(Y);
    s->set_constraints(C);
    const Vec x = s->suggest(X, Y.rows() ? Vec(Y.col(0)) : Vec(), Mat(0, 3), t);
    X.conservativeResize(t + 1, Eigen::NoChange);
    Y.conservativeResize(t + 1, Eigen::NoChange);
    C.conservativeResize(t + 1, Eigen::NoChange);
    X.row(t) = x.transpose();
    Y.row(t) = objectives(x).transpose();
    C(t, 0) = x[0] - 0.5;
    if (t >= c.n_init) feasible_bo += x[0] <= 0.5;
  }
  EXPECT_GE(feasible_bo, 12);  // of 15 model steps
  EXPECT_TRUE(s->last_info().contains("constraints"));
}

}  // namespace
