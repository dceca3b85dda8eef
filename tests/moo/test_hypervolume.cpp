// Pareto fronts, hypervolume and the box decomposition against independent truths: O(n²) brute-force
// dominance, hand-computed volumes, inclusion–exclusion over all subsets (exact), Monte Carlo with a fixed
// seed, and the identity HVI(y) = HV(Y ∪ {y}) − HV(Y).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kbo/moo/box_decomposition.hpp"
#include "kbo/moo/hypervolume.hpp"
#include "kbo/moo/pareto.hpp"

namespace {

using kbo::Mat;
using kbo::Vec;

Mat random_points(int n, int m, std::mt19937_64& rng, bool integer) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> k(0, 4);
  Mat Y(n, m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) Y(i, j) = integer ? k(rng) : u(rng);
  return Y;
}

std::vector<bool> brute_front(const Mat& Y) {
  std::vector<bool> keep(Y.rows(), true);
  for (int i = 0; i < Y.rows(); ++i)
    for (int k = 0; k < Y.rows(); ++k) {
      bool ge = true, gt = false;
      for (int j = 0; j < Y.cols(); ++j) {
        ge = ge && Y(k, j) >= Y(i, j);
        gt = gt || Y(k, j) > Y(i, j);
      }
      if (ge && gt) keep[i] = false;
    }
  return keep;
}

/// Exact hypervolume by inclusion–exclusion: Σ_S (−1)^{|S|+1} Π_j (min_{i∈S} y_ij − r_j)⁺.
double inclusion_exclusion(const Mat& Y, const Vec& ref) {
  const int n = static_cast<int>(Y.rows());
  double hv = 0.0;
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    Vec lo = Vec::Constant(Y.cols(), std::numeric_limits<double>::infinity());
    int count = 0;
    for (int i = 0; i < n; ++i) {
      if (!(mask & (1u << i))) continue;
      ++count;
      for (Eigen::Index j = 0; j < Y.cols(); ++j) lo[j] = std::min(lo[j], Y(i, j));
    }
    double v = 1.0;
    for (int j = 0; j < Y.cols(); ++j) v *= std::max(0.0, lo[j] - ref[j]);
    hv += (count % 2 ? 1.0 : -1.0) * v;
  }
  return hv;
}

TEST(Pareto, FrontMatchesBruteForceWithTies) {
  std::mt19937_64 rng(11);
  for (int m : {2, 3, 4})
    for (int rep = 0; rep < 30; ++rep) {
      const Mat Y = random_points(1 + rep * 2, m, rng, /*integer=*/rep % 2 == 0);  // integers: many ties
      EXPECT_EQ(kbo::non_dominated_mask(Y), brute_front(Y)) << "m=" << m << " rep=" << rep;
    }
}

TEST(Pareto, RanksPeelFrontsOneByOne) {
  std::mt19937_64 rng(5);
  const Mat Y = random_points(40, 3, rng, true);
  const std::vector<int> rank = kbo::non_dominated_ranks(Y);
  // Brute force: a row's rank is 0 if nothing dominates it, else 1 + the largest rank of its dominators.
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < Y.rows(); ++i) {
      int expected = 0;
      for (int k = 0; k < Y.rows(); ++k)
        if (kbo::dominates(Y.row(k).transpose(), Y.row(i).transpose())) expected = std::max(expected, rank[k] + 1);
      EXPECT_EQ(rank[i], expected) << i;
    }
}

TEST(Hypervolume, HandComputedCases) {
  Mat Y2(3, 2);
  Y2 << 1, 3, 2, 2, 3, 1;
  EXPECT_DOUBLE_EQ(kbo::hypervolume(Y2, Vec::Zero(2)), 6.0);  // 1·3 + 1·2 + 1·1
  Vec r(2);
  r << 1.5, 0.5;
  EXPECT_DOUBLE_EQ(kbo::hypervolume(Y2, r), 0.5 * 1.5 + 1.0 * 0.5);  // (1,3) is not above r
  Mat Y3(2, 3);
  Y3 << 1, 1, 2, 2, 2, 1;
  EXPECT_DOUBLE_EQ(kbo::hypervolume(Y3, Vec::Zero(3)), 2.0 + 4.0 - 1.0);
  Mat one(1, 3);
  one << 1, 2, 3;
  EXPECT_DOUBLE_EQ(kbo::hypervolume(one, Vec::Zero(3)), 6.0);
  EXPECT_DOUBLE_EQ(kbo::hypervolume(Mat(0, 2), Vec::Zero(2)), 0.0);
}

TEST(Hypervolume, MatchesInclusionExclusionExactly) {
  std::mt19937_64 rng(3);
  for (int m : {2, 3, 4})
    for (int n = 1; n <= 9; ++n) {
      const Mat Y = random_points(n, m, rng, false);
      const Vec ref = Vec::Constant(m, 0.1);
      EXPECT_NEAR(kbo::hypervolume(Y, ref), inclusion_exclusion(Y, ref), 1e-12) << m << " " << n;
    }
}

TEST(Hypervolume, MatchesMonteCarloWithFixedSeed) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int m : {2, 3}) {
    const Mat Y = random_points(25, m, rng, false);
    const int N = 200000;
    int hits = 0;
    for (int s = 0; s < N; ++s) {
      Vec p(m);
      for (int j = 0; j < m; ++j) p[j] = u(rng);
      for (int i = 0; i < Y.rows(); ++i)
        if ((Y.row(i).transpose().array() >= p.array()).all()) {
          ++hits;
          break;
        }
    }
    const double f = static_cast<double>(hits) / N;
    EXPECT_NEAR(kbo::hypervolume(Y, Vec::Zero(m)), f, 4.0 * std::sqrt(f * (1 - f) / N)) << m;
  }
}

TEST(Hypervolume, InferredReferencePointIsBoTorchs) {
  Mat F(2, 2);
  F << 1.0, 4.0, 3.0, 2.0;
  const Vec r = kbo::infer_reference_point(F);
  EXPECT_DOUBLE_EQ(r[0], 1.0 - 0.2);
  EXPECT_DOUBLE_EQ(r[1], 2.0 - 0.2);
  Mat single(1, 2);
  single << -2.0, 0.0;
  const Vec s = kbo::infer_reference_point(single);
  EXPECT_DOUBLE_EQ(s[0], -2.2);
  EXPECT_DOUBLE_EQ(s[1], -0.1);
}

TEST(BoxDecomposition, ImprovementEqualsHypervolumeDifference) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> u(-0.2, 1.3);
  for (int m : {1, 2, 3})
    for (int n : {0, 1, 5, 20}) {
      const Mat Y = random_points(n, m, rng, false);
      const Vec ref = Vec::Constant(m, 0.05);
      const kbo::BoxDecomposition boxes = kbo::non_dominated_boxes(Y, ref);
      const double hv = kbo::hypervolume(Y, ref);
      for (int rep = 0; rep < 50; ++rep) {
        Vec y(m);
        for (int j = 0; j < m; ++j) y[j] = u(rng);
        Mat Z(n + 1, m);
        Z.topRows(n) = Y;
        Z.row(n) = y.transpose();
        EXPECT_NEAR(kbo::hypervolume_improvement(boxes, y), kbo::hypervolume(Z, ref) - hv, 1e-12)
            << "m=" << m << " n=" << n;
      }
    }
}

TEST(BoxDecomposition, BoxesAreDisjointAndFillTheComplement) {
  std::mt19937_64 rng(29);
  for (int m : {2, 3}) {
    const Mat Y = random_points(15, m, rng, false);
    const Vec ref = Vec::Zero(m);
    const kbo::BoxDecomposition boxes = kbo::non_dominated_boxes(Y, ref);
    // Clipped to [ref, 2]: the boxes' volumes and the hypervolume add up to the whole cube.
    double total = 0.0;
    for (int b = 0; b < boxes.size(); ++b) {
      double v = 1.0;
      for (int j = 0; j < m; ++j) v *= std::min(boxes.upper(b, j), 2.0) - boxes.lower(b, j);
      EXPECT_GT(v, 0.0);
      total += v;
    }
    EXPECT_NEAR(total + kbo::hypervolume(Y, ref), std::pow(2.0, m), 1e-12);
    // Disjoint: no two boxes overlap with positive volume.
    for (int a = 0; a < boxes.size(); ++a)
      for (int b = a + 1; b < boxes.size(); ++b) {
        bool overlap = true;
        for (int j = 0; j < m; ++j)
          overlap = overlap && std::min(boxes.upper(a, j), boxes.upper(b, j)) > std::max(boxes.lower(a, j), boxes.lower(b, j));
        EXPECT_FALSE(overlap) << a << " " << b;
      }
    if (m == 2) {
      EXPECT_EQ(boxes.size(), static_cast<int>(kbo::pareto_front(Y).rows()) + 1);
    }
  }
}

}  // namespace
