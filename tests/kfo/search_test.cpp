// Algorithm 1 (subspace search over functionals) on objectives with a known optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kbo/kfo/search.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {
const Vec kTarget = (Vec(4) << 1.0, -0.5, 0.8, 0.3).finished();
double paraboloid(const Vec& z) { return -(z - kTarget).squaredNorm(); }
SearchOptions options(int subspaces, int iterations, int n_init, std::uint64_t seed) {
  SearchOptions o;
  o.subspaces = subspaces;
  o.iterations = iterations;
  o.n_init_per_subspace = n_init;
  o.evaluate_start = true;
  o.seed = seed;
  return o;
}
}  // namespace

TEST(KfoSearch, EvaluationBudgetBestTrackingAndImprovement) {
  const SearchOptions o = options(4, 5, 3, 3);
  const SearchResult r = search_functional(paraboloid, 4, o);
  ASSERT_EQ(r.y.size(), 1u + 4u * (3u + 5u));
  ASSERT_EQ(r.z.size(), r.y.size());
  EXPECT_EQ(r.subspace.front(), -1);
  EXPECT_EQ(r.subspace.back(), 3);
  const auto it = std::max_element(r.y.begin(), r.y.end());
  EXPECT_DOUBLE_EQ(r.y_best, *it);
  EXPECT_LT((r.z_best - r.z[it - r.y.begin()]).norm(), 1e-15);
  for (std::size_t i = 0; i < r.y.size(); ++i) EXPECT_DOUBLE_EQ(r.y[i], paraboloid(r.z[i]));
  EXPECT_GT(r.y_best, paraboloid(Vec::Zero(4)) + 0.3);  // ||c||² = 2.18 at the start
  EXPECT_GE(r.seconds_evaluating, 0.0);
  EXPECT_GT(r.seconds_optimising, 0.0);
}

TEST(KfoSearch, SubspacesAreBiasedByTheBestSoFar) {
  // Every point of subspace s lies on the line z#_s + λ β_s with λ in [lambda_lo, 1] (d = 1), where z#_s is
  // the best point before subspace s; so the points of one subspace are collinear with z#_s.
  SearchOptions o;
  o.subspaces = 3;
  o.iterations = 3;
  o.n_init_per_subspace = 2;
  o.lambda_lo = 0.1;
  o.reset_gp_per_subspace = true;
  o.seed = 8;
  const SearchResult r = search_functional(paraboloid, 4, o, Vec::Constant(4, 0.2));
  std::size_t begin = 0;
  Vec z_sharp = Vec::Constant(4, 0.2);
  double best = -1e300;
  for (int s = 0; s < 3; ++s) {
    std::size_t end = begin;
    while (end < r.z.size() && r.subspace[end] == s) ++end;
    const Vec dir = r.z[begin] - z_sharp;
    ASSERT_GT(dir.norm(), 0.0);
    double lmin = 1e300, lmax = -1e300;
    for (std::size_t i = begin; i < end; ++i) {
      const Vec d = r.z[i] - z_sharp;
      const double t = d.dot(dir) / dir.squaredNorm();
      EXPECT_LT((d - t * dir).norm(), 1e-9 * (1 + d.norm()));
      lmin = std::min(lmin, t);
      lmax = std::max(lmax, t);
    }
    EXPECT_GT(lmin, 0.0);  // λ ≥ lambda_lo > 0 on one side of z#
    EXPECT_LE(lmax / lmin, 1.0 / 0.1 + 1e-9);
    for (std::size_t i = begin; i < end; ++i)
      if (r.y[i] > best) {
        best = r.y[i];
        z_sharp = r.z[i];
      }
    begin = end;
  }
  EXPECT_EQ(begin, r.z.size());
}

TEST(KfoSearch, RejectsBadOptions) {
  SearchOptions o;
  o.lambda_lo = 1.0;
  EXPECT_THROW(search_functional(paraboloid, 4, o), InputError);
  SearchOptions p;
  EXPECT_THROW(search_functional(paraboloid, 4, p, Vec::Zero(3)), InputError);
}

TEST(KfoSearch, FailedEvaluationsAreNeverTheBest) {
  // The paraboloid is ≤ 0 everywhere; failures (−inf: a fit that threw) enter the search's data as the worst
  // value so far, or 0.0 when nothing has succeeded yet — above every real value. The best must still be a
  // successful evaluation: here the start fails, and so does every point with z₀ > 0.5.
  const SearchOptions o = options(3, 4, 3, 5);
  const Vec start = Vec::Constant(4, 1.0);
  auto failing = [](const Vec& z) {
    return z(0) > 0.5 ? -std::numeric_limits<double>::infinity() : paraboloid(z);
  };
  const SearchResult r = search_functional(failing, 4, o, start);
  ASSERT_EQ(r.y.front(), 0.0);  // the failed start, recorded as 0.0
  ASSERT_TRUE(std::isfinite(r.y_best));
  EXPECT_LE(r.z_best(0), 0.5);
  EXPECT_DOUBLE_EQ(r.y_best, paraboloid(r.z_best));
  for (std::size_t i = 0; i < r.y.size(); ++i)
    if (r.z[i](0) <= 0.5) { EXPECT_LE(r.y[i], r.y_best); }
}
