// L-BFGS, CMA-ES and DIRECT on functions with known maxima (negated sphere / Rosenbrock / Branin).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kbo/optimize/cmaes.hpp"
#include "kbo/optimize/optimizer.hpp"
#include "kbo/optimize/problems.hpp"

namespace {

using kbo::Box;
using kbo::Vec;

// -||x - c||² with gradient; maximum 0 at c.
kbo::Objective neg_sphere(Vec c) {
  return [c](const Vec& x, Vec* g) {
    if (g) *g = -2.0 * (x - c);
    return -(x - c).squaredNorm();
  };
}

// -Rosenbrock with gradient; maximum 0 at (1, ..., 1).
double rosen(const Vec& x, Vec* g) {
  const int n = static_cast<int>(x.size());
  double f = 0.0;
  if (g) g->setZero(n);
  for (int i = 0; i + 1 < n; ++i) {
    const double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    f += 100.0 * a * a + b * b;
    if (g) {
      (*g)[i] += -400.0 * a * x[i] - 2.0 * b;
      (*g)[i + 1] += 200.0 * a;
    }
  }
  if (g) *g = -*g;
  return -f;
}

Box cube(int d, double lo, double hi) { return Box(Vec::Constant(d, lo), Vec::Constant(d, hi)); }

TEST(Lbfgs, SphereInteriorOptimum) {
  for (int d : {2, 5}) {
    Vec c = Vec::LinSpaced(d, -0.7, 0.4);
    auto r = kbo::lbfgs_maximize(neg_sphere(c), Vec::Constant(d, 1.5), cube(d, -2, 2));
    EXPECT_LT((r.x - c).norm(), 1e-6) << d;
    EXPECT_NEAR(r.value, 0.0, 1e-10);
    EXPECT_GT(r.evaluations, 0);
  }
}

TEST(Lbfgs, SphereOptimumOutsideTheBoxEndsOnTheBoundary) {
  Vec c(2);
  c << 3.0, 0.5;  // outside [-1,1] in the first coordinate
  auto r = kbo::lbfgs_maximize(neg_sphere(c), Vec::Zero(2), cube(2, -1, 1));
  EXPECT_NEAR(r.x[0], 1.0, 1e-9);
  EXPECT_NEAR(r.x[1], 0.5, 1e-6);
}

TEST(Lbfgs, Rosenbrock2dAnd5d) {
  for (int d : {2, 5}) {
    kbo::LbfgsOptions o;
    o.max_evaluations = 2000;
    o.rel_tol = 1e-14;
    auto r = kbo::lbfgs_maximize(rosen, Vec::Constant(d, -1.2).cwiseProduct(Vec::LinSpaced(d, 1.0, 0.5)),
                                 cube(d, -2, 2), o);
    EXPECT_LT((r.x - Vec::Ones(d)).norm(), 1e-4) << d;
    EXPECT_GT(r.value, -1e-8) << d;
    EXPECT_LE(r.evaluations, 2000);
  }
}

TEST(Lbfgs, NanObjectiveNeverEscapes) {
  // NaN everywhere except at the start: the start is returned with its finite value.
  Vec x0 = Vec::Constant(2, 0.25);
  kbo::Objective f = [&](const Vec& x, Vec* g) {
    if (g) *g = Vec::Ones(2);
    return (x - x0).norm() < 1e-15 ? 1.0 : std::numeric_limits<double>::quiet_NaN();
  };
  auto r = kbo::lbfgs_maximize(f, x0, cube(2, 0, 1));
  EXPECT_EQ(r.value, 1.0);
  EXPECT_EQ(r.x, x0);
  // NaN at the start too: reported as -inf, never NaN.
  kbo::Objective g = [](const Vec&, Vec* gr) {
    if (gr) *gr = Vec::Zero(2);
    return std::numeric_limits<double>::quiet_NaN();
  };
  auto r2 = kbo::lbfgs_maximize(g, x0, cube(2, 0, 1));
  EXPECT_TRUE(std::isinf(r2.value) && r2.value < 0);
  EXPECT_EQ(r2.x.size(), 2);
}

TEST(Lbfgs, ObjectiveExceptionsPropagateUnchanged) {
  kbo::Objective f = [](const Vec&, Vec*) -> double { throw kbo::NumericalError("boom"); };
  EXPECT_THROW(kbo::lbfgs_maximize(f, Vec::Zero(2), cube(2, -1, 1)), kbo::NumericalError);
  kbo::Objective nograd = [](const Vec& x, Vec*) { return -x.squaredNorm(); };
  EXPECT_THROW(kbo::lbfgs_maximize(nograd, Vec::Zero(2), cube(2, -1, 1)), kbo::InputError);
}

TEST(Cmaes, SphereAndRosenbrock) {
  for (int d : {2, 5}) {
    Vec c = Vec::LinSpaced(d, -0.7, 0.4);
    kbo::CmaesOptions o;
    o.max_evaluations = 4000;
    o.seed = 3;
    auto r = kbo::cmaes_maximize(neg_sphere(c), Vec::Constant(d, 1.5), cube(d, -2, 2), o);
    EXPECT_LT((r.x - c).norm(), 1e-4) << d;
    EXPECT_LE(r.evaluations, 4000);

    o.max_evaluations = 20000;
    auto rr = kbo::cmaes_maximize(rosen, Vec::Constant(d, -1.0), cube(d, -2, 2), o);
    EXPECT_LT((rr.x - Vec::Ones(d)).norm(), 1e-3) << d;
    EXPECT_GT(rr.value, -1e-6) << d;
  }
}

TEST(Cmaes, StopsOnToleranceLongBeforeTheBudget) {
  kbo::CmaesOptions o;
  o.max_evaluations = 100000;
  o.tol_x = 1e-8;
  auto r = kbo::cmaes_maximize(neg_sphere(Vec::Zero(3)), Vec::Constant(3, 0.5), cube(3, -1, 1), o);
  EXPECT_LT(r.evaluations, 5000);
  EXPECT_LT(r.x.norm(), 1e-6);
}

TEST(Cmaes, DeterministicForASeed) {
  kbo::CmaesOptions o;
  o.max_evaluations = 300;
  o.seed = 42;
  auto a = kbo::cmaes_maximize(rosen, Vec::Zero(3), cube(3, -2, 2), o);
  auto b = kbo::cmaes_maximize(rosen, Vec::Zero(3), cube(3, -2, 2), o);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.value, b.value);
}

TEST(Cmaes, BatchedObjectiveGivesTheSameRun) {
  kbo::CmaesOptions o;
  o.max_evaluations = 500;
  o.seed = 5;
  auto a = kbo::cmaes_maximize(rosen, Vec::Zero(4), cube(4, -2, 2), o);
  int calls = 0;
  o.batch_objective = [&](const kbo::Mat& X) {
    ++calls;
    Vec v(X.rows());
    for (int i = 0; i < X.rows(); ++i) v[i] = rosen(X.row(i).transpose(), nullptr);
    return v;
  };
  auto b = kbo::cmaes_maximize(rosen, Vec::Zero(4), cube(4, -2, 2), o);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(calls, (b.evaluations - 1) / 8);  // λ = 4 + floor(3 ln 4) = 8 per generation, after x0
}

TEST(Cmaes, ProjectionKeepsEveryEvaluationInTheCanonicalRegion) {
  // Canonical region: sorted coordinates x_0 <= x_1 <= x_2 (as for sets). The objective's maximiser c is
  // unsorted; every evaluated point must be sorted and the result must be the best sorted point.
  Vec c(3);
  c << 0.75, 0.25, 0.5;
  int unsorted = 0;
  kbo::Objective f = [&](const Vec& x, Vec*) {
    if (!(x[0] <= x[1] && x[1] <= x[2])) ++unsorted;
    return -(x - c).squaredNorm();
  };
  kbo::CmaesOptions o;
  o.project = [](Vec& x) { std::sort(x.data(), x.data() + x.size()); };
  o.max_evaluations = 3000;
  o.seed = 7;
  Vec x0(3);
  x0 << 0.9, 0.1, 0.2;
  auto r = kbo::cmaes_maximize(f, x0, cube(3, 0, 1), o);
  EXPECT_EQ(unsorted, 0);
  // Best sorted point of -(x-c)² over x0<=x1<=x2: isotonic regression of c = (0.75, 0.25, 0.5) → all 0.5.
  EXPECT_LT((r.x - Vec::Constant(3, 0.5)).norm(), 1e-3);
  EXPECT_NEAR(r.value, -(Vec::Constant(3, 0.5) - c).squaredNorm(), 1e-6);
}

TEST(Cmaes, NanCountsAsWorst) {
  kbo::Objective f = [](const Vec& x, Vec*) {
    return x[0] > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -(x[0] - 0.5) * (x[0] - 0.5) - x[1] * x[1];
  };
  kbo::CmaesOptions o;
  o.max_evaluations = 2000;
  auto r = kbo::cmaes_maximize(f, Vec::Zero(2), cube(2, -1, 1), o);
  EXPECT_FALSE(std::isnan(r.value));
  EXPECT_LE(r.x[0], 0.5);
  EXPECT_NEAR(r.x[0], 0.5, 1e-3);
}

TEST(Direct, BraninGlobalMinimum) {
  const kbo::Problem p = kbo::make_problem("branin");
  kbo::Objective f = [&](const Vec& x, Vec*) { return -p.f(x); };
  auto r = kbo::direct_maximize(f, p.bounds, 2000);
  EXPECT_NEAR(-r.value, 0.397887, 1e-3);
  double dmin = 1e9;
  for (const Vec& a : p.argmins) dmin = std::min(dmin, (r.x - a).norm());
  EXPECT_LT(dmin, 0.05);
  EXPECT_LE(r.evaluations, 2000 + 50);  // NLopt may finish the current sweep
}

TEST(Optimizers, RejectBadInput) {
  EXPECT_THROW(kbo::lbfgs_maximize(neg_sphere(Vec::Zero(2)), Vec::Zero(3), cube(2, -1, 1)), kbo::InputError);
  EXPECT_THROW(kbo::cmaes_maximize(neg_sphere(Vec::Zero(2)), Vec::Zero(3), cube(2, -1, 1)), kbo::InputError);
  EXPECT_THROW(kbo::direct_maximize(neg_sphere(Vec::Zero(2)), cube(2, -1, 1), 0), kbo::InputError);
}

}  // namespace
