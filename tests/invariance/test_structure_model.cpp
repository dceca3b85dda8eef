// The study's model kernels for structure: the group's centre, the candidates of auto, and the
// set kernels that do not reward degenerate sets.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/space.hpp"
#include "kbo/invariance/groups.hpp"
#include "kbo/invariance/kernels.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/core/random.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {
namespace {

Mat row(const Vec& v) { return v.transpose(); }

// Sign flips about a user-given centre c (space coordinates): k(x, y) = k(x, c + s∘(y − c)) for every sign
// vector s, and NOT the reflection about the box centre (the default).
TEST(StructureModel, GroupActsAboutTheGivenCentre) {
  auto space = std::make_shared<BoxSpace>(Box(Vec::Constant(2, 0.0), Vec::Constant(2, 4.0)));
  StrategyConfig c;
  c.invariance = "signflip";
  c.invariant_kernel = InvariantKernelType::Max;  // the default, auto, is a choice the strategy makes
  c.module_options = {{"invariance", {{"center", {1.0, 3.0}}}}};
  const KernelPtr k = make_model_kernel(c, *space);
  const Vec centre = (Vec(2) << 1.0, 3.0).finished();
  const Vec x = (Vec(2) << 0.3, 2.1).finished(), y = (Vec(2) << 1.7, 3.6).finished();
  auto unit = [&](const Vec& v) { return space->bounds().to_unit(v); };
  const double kxy = (*k)(unit(x), unit(y));
  for (int s0 : {-1, 1})
    for (int s1 : {-1, 1}) {
      Vec gy = y - centre;
      gy[0] *= s0, gy[1] *= s1;
      gy += centre;
      if (!space->bounds().contains(gy)) continue;
      EXPECT_NEAR((*k)(unit(x), unit(gy)), kxy, 1e-12) << s0 << " " << s1;
    }
  // The reflection about the box centre (2, 2) is not a symmetry of this kernel.
  const Vec about_box = Vec::Constant(2, 4.0) - y;
  EXPECT_GT(std::abs((*k)(unit(x), unit(about_box)) - kxy), 1e-3);

  c.module_options = {{"invariance", {{"center", {1.0}}}}};
  EXPECT_THROW(make_model_kernel(c, *space), InputError);
  c.module_options = {{"invariance", {{"center", {5.0, 1.0}}}}};
  EXPECT_THROW(make_model_kernel(c, *space), InputError);
}

// auto: the structured candidates plus the plain kernel on the flat vector, with the names trials report.
TEST(StructureModel, AutoCandidates) {
  auto sets = std::make_shared<SetSpace>(3, Box::unit(2));
  StrategyConfig c;
  c.set_kernel = SetKernelType::Auto;
  const auto ks = make_model_kernels(c, *sets);
  ASSERT_EQ(ks.size(), 3u);
  EXPECT_EQ(ks[0].name, "set-average");
  EXPECT_EQ(ks[1].name, "set-sliced");
  EXPECT_EQ(ks[2].name, "set-sorted");
  // Elements of more than kAutoSlicedMaxElementDim coordinates: the sliced kernel (d² directions) sits out.
  const auto wide = make_model_kernels(c, SetSpace(3, Box::unit(kAutoSlicedMaxElementDim + 1)));
  ASSERT_EQ(wide.size(), 2u);
  EXPECT_EQ(wide[0].name, "set-average");
  EXPECT_EQ(wide[1].name, "set-sorted");
  c.set_kernel = SetKernelType::Max;
  ASSERT_EQ(make_model_kernels(c, *sets).size(), 1u);

  auto box = std::make_shared<BoxSpace>(Box::unit(4));
  StrategyConfig b;
  b.invariance = "permutation";
  b.invariant_kernel = InvariantKernelType::Auto;
  const auto kb = make_model_kernels(b, *box);
  ASSERT_EQ(kb.size(), 2u);
  EXPECT_EQ(kb[0].name, "max");
  EXPECT_EQ(kb[1].name, "flat");
  // Each candidate is what its name says: the max kernel is permutation invariant, the flat one is not.
  const Vec x = (Vec(4) << 0.1, 0.2, 0.7, 0.9).finished(), y = (Vec(4) << 0.8, 0.3, 0.15, 0.6).finished();
  const Vec py = (Vec(4) << 0.15, 0.6, 0.8, 0.3).finished();  // a permutation of y
  EXPECT_NEAR((*kb[0].kernel)(x, y), (*kb[0].kernel)(x, py), 1e-12);
  EXPECT_GT(std::abs((*kb[1].kernel)(x, y) - (*kb[1].kernel)(x, py)), 1e-6);
}

// The default with a declared group is auto, and auto models with the structure the data have: the max
// kernel on a permutation-invariant function, the flat kernel on one that is not (a wrong declared symmetry).
TEST(StructureModel, AutoByDefaultFollowsTheDataStructure) {
  auto box = std::make_shared<BoxSpace>(Box::unit(3));
  Rng rng = make_rng(11);
  const Mat X = box->sample(30, SamplingMethod::Uniform, rng);
  auto choice = [&](auto f) {
    StrategyConfig c;
    c.invariance = "permutation";
    EXPECT_EQ(c.invariant_kernel, InvariantKernelType::Auto);
    Vec y(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) y[i] = f(Vec(X.row(i).transpose()));
    auto s = make_strategy(c, box);
    s->suggest(X, y, Mat(0, 3), 30);
    return s->last_info().value("kernel_choice", std::string("(none)"));
  };
  // Symmetric in the coordinates: every ordering of x has the same value.
  EXPECT_EQ(choice([](const Vec& x) { return (3.0 * x.array()).sin().sum() - x.prod(); }), "max");
  // Not symmetric: the coordinates enter with different weights.
  EXPECT_EQ(choice([](const Vec& x) { return 2.0 * x[0] - 1.0 * x[1] + 0.3 * std::sin(6.0 * x[2]); }), "flat");
}

// The end-game (the last 34 % of the BO steps are local steps) is the plain model's and (docs/bench/structure.md)
// that of invariant models under a finite group of isometries, whose local steps
// see the data in the incumbent's chart (options.bo.local_chart), and that of set spaces, whose
// every candidate model steps in the set chart (elements paired with the incumbent's). Continuous groups keep
// none unless told.
TEST(StructureModel, DefaultEndgameIsThePlainAndChartedInvariantModels) {
  // Budget 20 with 5 initial points: trial 19 is in the end-game (the last ⌈0.34 · 15⌉ = 6), trial 10 is not.
  auto last_step = [](const std::shared_ptr<const Space>& space, StrategyConfig c, int trial) {
    Rng rng = make_rng(5);
    const Mat X = space->sample(trial, SamplingMethod::Uniform, rng);
    Vec y(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) y[i] = -(X.row(i).array() - 0.3).square().sum();
    auto s = make_strategy(c, space);
    s->set_budget(20);
    s->suggest(X, y, Mat(0, space->dim()), trial);
    return s->last_info();
  };
  const auto box = std::make_shared<BoxSpace>(Box::unit(3));
  const auto plane = std::make_shared<BoxSpace>(Box::unit(2));
  const auto sets = std::make_shared<SetSpace>(3, Box::unit(1));
  StrategyConfig plain, inv, inv_max, rot, told_rot, told_set, no_chart;
  inv.invariance = inv_max.invariance = no_chart.invariance = "permutation";
  inv_max.invariant_kernel = InvariantKernelType::Max;
  rot.invariance = told_rot.invariance = "rotation";
  told_rot.module_options = told_set.module_options = {{"bo", {{"endgame_fraction", 0.34}}}};
  no_chart.module_options = {{"bo", {{"local_chart", false}}}};
  EXPECT_TRUE(last_step(box, plain, 19).contains("endgame"));
  EXPECT_FALSE(last_step(box, plain, 10).contains("endgame"));
  EXPECT_FALSE(last_step(box, inv, 10).contains("endgame"));
  for (const StrategyConfig& c : {inv, inv_max}) {
    const nlohmann::json info = last_step(box, c, 19);
    ASSERT_TRUE(info.contains("endgame"));
    ASSERT_TRUE(info.contains("local"));
    // The chart is the max kernel's: a step modelled by auto's flat candidate has none.
    EXPECT_EQ(info["local"].value("chart", false), info.value("kernel_choice", "max") == "max") << info.dump();
  }
  EXPECT_TRUE(last_step(box, inv_max, 19)["local"].value("chart", false));
  // Told not to chart, the invariant model still takes the end-game, in raw coordinates.
  const nlohmann::json raw = last_step(box, no_chart, 19);
  EXPECT_TRUE(raw.contains("local"));
  EXPECT_FALSE(raw["local"].value("chart", false));
  EXPECT_FALSE(last_step(plane, rot, 19).contains("endgame"));  // a continuous group: no chart, no end-game
  const nlohmann::json set_step = last_step(sets, plain, 19);
  ASSERT_TRUE(set_step.contains("endgame"));
  ASSERT_TRUE(set_step.contains("local"));
  EXPECT_TRUE(set_step["local"].value("chart", false)) << set_step.dump();
  EXPECT_FALSE(last_step(sets, plain, 10).contains("endgame"));
  const nlohmann::json told = last_step(plane, told_rot, 19);
  EXPECT_TRUE(told.contains("endgame"));
  EXPECT_TRUE(told.contains("local"));
  EXPECT_FALSE(told["local"].value("chart", false));
  EXPECT_TRUE(last_step(sets, told_set, 19).contains("endgame"));
}

// Kernel::local_chart of the max kernel (finite groups): every row moved to the point of its orbit nearest x
// (checked by enumerating the group), and the base kernel on the chart is the max kernel: k(x, chart(y)) =
// max_g k(x, g y). Continuous groups have none.
TEST(StructureModel, LocalChartIsTheNearestOrbitPoint) {
  Rng rng = make_rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int D = 3;
  const Vec centre = Vec::Constant(D, 0.5);
  for (const std::string group : {"signflip", "hyperoctahedral", "permutation"}) {
    const GroupPtr g = make_group(group, D);
    const KernelPtr k = make_invariant_kernel(make_stationary("matern52", D, false, 0.3, 1.7), group,
                                              InvariantKernelType::Max, centre);
    Vec x(D);
    Mat Y(6, D);
    for (int j = 0; j < D; ++j) x[j] = u(rng);
    for (Eigen::Index i = 0; i < Y.rows(); ++i)
      for (int j = 0; j < D; ++j) Y(i, j) = u(rng);
    Mat C = Y;
    const KernelPtr base = k->local_chart(x, C);
    ASSERT_TRUE(base) << group;
    const Mat kmax = k->cross(row(x), Y), kbase = base->cross(row(x), C);
    for (Eigen::Index i = 0; i < Y.rows(); ++i) {
      double nearest = 1e300;
      bool in_orbit = false;
      for (const SignedPerm& e : g->elements()) {
        const Vec gy = centre + e.apply(Y.row(i).transpose() - centre);
        nearest = std::min(nearest, (gy - x).norm());
        in_orbit = in_orbit || (gy - C.row(i).transpose()).norm() < 1e-12;
      }
      EXPECT_TRUE(in_orbit) << group << " row " << i;
      EXPECT_NEAR((C.row(i).transpose() - x).norm(), nearest, 1e-12) << group << " row " << i;
      EXPECT_NEAR(kbase(0, i), kmax(0, i), 1e-12) << group << " row " << i;
    }
  }
  const KernelPtr rot = make_invariant_kernel(make_stationary("matern52", 2, false, 0.3, 1.0), "rotation",
                                              InvariantKernelType::Max, Vec::Constant(2, 0.5));
  Mat Y = Mat::Constant(2, 2, 0.2);
  EXPECT_FALSE(rot->local_chart(Vec::Constant(2, 0.7), Y));
  EXPECT_EQ(Y, Mat::Constant(2, 2, 0.2));  // untouched
}

// The normalised and max set kernels give every set the same prior variance (the mean-pair kernel's is
// largest at degenerate sets), and are invariant to the order of the elements.
TEST(StructureModel, SetKernelsDoNotFavourDegenerateSets) {
  const int m = 3, d = 2;
  const Vec spread = (Vec(6) << 0.1, 0.2, 0.5, 0.9, 0.8, 0.3).finished();
  const Vec degenerate = (Vec(6) << 0.4, 0.4, 0.4, 0.4, 0.4, 0.4).finished();
  const Vec reordered = (Vec(6) << 0.8, 0.3, 0.1, 0.2, 0.5, 0.9).finished();
  const KernelPtr full = make_set_kernel("matern52", m, d, true, SetKernelType::Full, 0, 1);
  EXPECT_GT(full->diag(row(degenerate))[0], full->diag(row(spread))[0] + 0.05);  // the artefact
  for (SetKernelType t : {SetKernelType::Normalized, SetKernelType::NormalizedApprox, SetKernelType::Max}) {
    KernelPtr k = make_set_kernel("matern52", m, d, true, t, t == SetKernelType::NormalizedApprox ? 2 : 0, 1);
    Mat both(2, 6);
    both.row(0) = spread.transpose();
    both.row(1) = degenerate.transpose();
    k->condition_on(both);
    const Vec v = k->diag(both);
    EXPECT_NEAR(v[0], v[1], 1e-9) << enum_name(t);
    EXPECT_NEAR(k->gram(both)(0, 0), v[0], 1e-9) << enum_name(t);
    EXPECT_NEAR((*k)(spread, degenerate), (*k)(reordered, degenerate), 1e-9) << enum_name(t);
  }
  EXPECT_THROW(make_set_kernel("matern52", m, d, true, SetKernelType::Auto, 0, 1), InputError);
}

// Normalised with the signal variance kept: v·k/√(k(x,x)k(y,y)); its gradient in log v is the kernel itself,
// and the other gradients match finite differences.
TEST(StructureModel, NormalizedKernelKeepsTheVarianceWithExactGradients) {
  KernelPtr k = make_set_kernel("matern52", 3, 2, true, SetKernelType::Normalized, 0, 1);
  Vec p = k->log_params();
  p[p.size() - 1] = std::log(2.5);  // variance
  p[0] = std::log(0.3);
  k->set_log_params(p);
  Mat X(3, 6);
  X << 0.1, 0.2, 0.5, 0.9, 0.8, 0.3, 0.4, 0.4, 0.45, 0.4, 0.4, 0.5, 0.9, 0.1, 0.2, 0.2, 0.6, 0.6;
  EXPECT_NEAR(k->gram(X)(1, 1), 2.5, 1e-12);
  const auto g = k->gram_gradients(X);
  const double h = 1e-6;
  for (int q = 0; q < p.size(); ++q) {
    Vec pp = p, pm = p;
    pp[q] += h, pm[q] -= h;
    KernelPtr a = k->clone(), b = k->clone();
    a->set_log_params(pp), b->set_log_params(pm);
    const Mat fd = (a->gram(X) - b->gram(X)) / (2 * h);
    EXPECT_LT((fd - g[q]).cwiseAbs().maxCoeff(), 1e-6) << q;
  }
}

}  // namespace
}  // namespace kbo
