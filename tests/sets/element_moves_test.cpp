// Swap, pair and recombination moves on a set (element_moves.hpp) against positions worked out by hand and
// brute-force enumeration.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "kbo/sets/element_moves.hpp"

namespace kbo {
namespace {

// −Σ over targets of the squared distance to the nearest element (a k-means objective, to be maximised).
class NearestTargetAcquisition : public Acquisition {
 public:
  explicit NearestTargetAcquisition(Mat targets) : targets_(std::move(targets)) {}
  double value(const Vec& x) const override {
    double s = 0.0;
    for (Eigen::Index t = 0; t < targets_.rows(); ++t) {
      double nearest = 1e300;
      for (Eigen::Index i = 0; i + 2 <= x.size(); i += 2)
        nearest = std::min(nearest, (x.segment(i, 2) - targets_.row(t).transpose()).squaredNorm());
      s -= nearest;
    }
    return s;
  }
  double value_and_gradient(const Vec& x, Vec& grad) const override {
    grad = Vec::Zero(x.size());  // not used by the moves
    return value(x);
  }

 private:
  Mat targets_;
};

Mat grid_101() {
  Mat g(101 * 101, 2);
  for (int i = 0; i <= 100; ++i)
    for (int j = 0; j <= 100; ++j) g.row(i * 101 + j) << i / 100.0, j / 100.0;
  return g;
}

TEST(ElementMoves, EachElementGoesWhereTheOthersLeaveMostToGain) {
  Mat targets(3, 2);
  targets << 0.2, 0.2, 0.8, 0.2, 0.5, 0.8;
  const NearestTargetAcquisition acq(targets);
  // k-means' local optimum: two elements on the first target, none on the third.
  Vec u(6);
  u << 0.2, 0.2, 0.25, 0.2, 0.8, 0.2;
  const Mat starts = element_move_starts(u, 3, 2, acq, grid_101());
  ASSERT_EQ(starts.rows(), 3);
  ASSERT_EQ(starts.cols(), 6);
  // Elements 0 and 1 each leave the first target to the other and take the empty third.
  EXPECT_NEAR(starts(0, 0), 0.5, 1e-12);
  EXPECT_NEAR(starts(0, 1), 0.8, 1e-12);
  EXPECT_NEAR(starts(1, 2), 0.5, 1e-12);
  EXPECT_NEAR(starts(1, 3), 0.8, 1e-12);
  // Element 2 alone serves the second and third targets: their midpoint (0.65, 0.5).
  EXPECT_NEAR(starts(2, 4), 0.65, 1e-12);
  EXPECT_NEAR(starts(2, 5), 0.5, 1e-12);
  // The moved start is the optimum the swap was meant to reach.
  EXPECT_NEAR(acq.value(starts.row(1).transpose()), 0.0, 1e-12);
  // Every other element stays where it was.
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (j != i) {
        EXPECT_EQ(Vec(starts.row(i).segment(2 * j, 2).transpose()), Vec(u.segment(2 * j, 2))) << i << " " << j;
      }
}

// Brute force over the grid: u with element i moved to its best grid position (first best in grid order).
Vec best_single_move(const Vec& u, int i, const Acquisition& acq, const Mat& grid) {
  Vec best_x = u;
  double best = -1e300;
  for (Eigen::Index g = 0; g < grid.rows(); ++g) {
    Vec x = u;
    x.segment(2 * i, 2) = grid.row(g).transpose();
    const double v = acq.value(x);
    if (v > best) best = v, best_x = x;
  }
  return best_x;
}

TEST(ElementMoves, PairMovesLeaveWhatNoSingleMoveLeaves) {
  Mat targets(3, 2);
  targets << 0.2, 0.2, 0.8, 0.2, 0.5, 0.8;
  const NearestTargetAcquisition acq(targets);
  // Two elements on the first target, the third between the others (nearer the second).
  Vec u(6);
  u << 0.2, 0.2, 0.25, 0.2, 0.7, 0.45;
  const Mat grid = grid_101();
  const Mat singles = element_move_starts(u, 3, 2, acq, grid);
  const Mat pairs = element_pair_move_starts(u, 3, 2, acq, grid);
  ASSERT_EQ(pairs.rows(), 6);
  ASSERT_EQ(pairs.cols(), 6);
  // By hand: element 1 goes to the third target (the first stays covered), then element 2 to the second: every
  // target covered exactly (row 1·2 + 1 = 3 for the pair (1, 2)); (0, 2) leaves 0.05² at the first target.
  EXPECT_NEAR(acq.value(pairs.row(3).transpose()), 0.0, 1e-12);
  EXPECT_NEAR(acq.value(pairs.row(1).transpose()), -0.0025, 1e-12);
  double best_single = -1e300;
  for (Eigen::Index r = 0; r < singles.rows(); ++r) best_single = std::max(best_single, acq.value(singles.row(r).transpose()));
  EXPECT_NEAR(best_single, -0.0725, 1e-12);  // one move covers the third target, the second stays 0.0725 away
  // Every row is the brute-force greedy pair: i's best grid position, then j's given it.
  int row = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      if (j == i) continue;
      const Vec expected = best_single_move(best_single_move(u, i, acq, grid), j, acq, grid);
      EXPECT_EQ(Vec(pairs.row(row).transpose()), expected) << i << " " << j;
      ++row;
    }
}

// Every set of the pool's substitutions, enumerated independently: u with one element replaced by a donor
// element, or two (distinct pool entries) — the acquisition values, sorted highest first.
std::vector<double> all_recombination_values(const Vec& u, const Mat& donors, int m, int d, const Acquisition& acq) {
  std::vector<Vec> pool;
  for (Eigen::Index r = 0; r < donors.rows(); ++r)
    for (int e = 0; e < m; ++e) pool.push_back(donors.row(r).segment(e * d, d).transpose());
  std::vector<double> values;
  for (int i = 0; i < m; ++i)
    for (std::size_t p = 0; p < pool.size(); ++p) {
      Vec x = u;
      x.segment(i * d, d) = pool[p];
      values.push_back(acq.value(x));
      for (int j = i + 1; j < m; ++j)
        for (std::size_t q = 0; q < pool.size(); ++q) {
          if (q == p) continue;
          Vec z = x;
          z.segment(j * d, d) = pool[q];
          values.push_back(acq.value(z));
        }
    }
  std::sort(values.begin(), values.end(), std::greater<>());
  return values;
}

TEST(ElementMoves, RecombinationKeepsTheBestSubstitutions) {
  Mat targets(3, 2);
  targets << 0.2, 0.2, 0.8, 0.2, 0.5, 0.8;
  const NearestTargetAcquisition acq(targets);
  Vec u(6);
  u << 0.2, 0.2, 0.25, 0.2, 0.7, 0.45;
  // Neither donor is good alone; one element of each completes the incumbent.
  Mat donors(2, 6);
  donors << 0.9, 0.9, 0.5, 0.8, 0.1, 0.9,  //
      0.8, 0.2, 0.0, 0.0, 1.0, 1.0;
  const Mat best = recombination_starts(u, donors, 3, 2, acq, 4);
  ASSERT_EQ(best.rows(), 4);
  EXPECT_NEAR(acq.value(best.row(0).transpose()), 0.0, 1e-12);
  // The best row keeps the incumbent's element on the first target and takes (0.5, 0.8) and (0.8, 0.2).
  std::vector<std::pair<double, double>> elements;
  for (int e = 0; e < 3; ++e) elements.emplace_back(best(0, 2 * e), best(0, 2 * e + 1));
  std::sort(elements.begin(), elements.end());
  EXPECT_TRUE(elements[0] == std::make_pair(0.2, 0.2) || elements[0] == std::make_pair(0.25, 0.2));
  EXPECT_EQ(elements[1], std::make_pair(0.5, 0.8));
  EXPECT_EQ(elements[2], std::make_pair(0.8, 0.2));
  // The kept rows are the 4 highest of the brute-force enumeration, highest first.
  const std::vector<double> all = all_recombination_values(u, donors, 3, 2, acq);
  ASSERT_EQ(all.size(), 3u * 6 + 3u * 6 * 5);
  for (int r = 0; r < 4; ++r) EXPECT_NEAR(acq.value(best.row(r).transpose()), all[static_cast<std::size_t>(r)], 1e-12) << r;
  // More asked than there are combinations: all of them; none asked or no donors: none.
  EXPECT_EQ(recombination_starts(u, donors, 3, 2, acq, 1000).rows(), static_cast<Eigen::Index>(all.size()));
  EXPECT_EQ(recombination_starts(u, donors, 3, 2, acq, 0).rows(), 0);
  EXPECT_EQ(recombination_starts(u, Mat(0, 6), 3, 2, acq, 4).rows(), 0);
}

TEST(ElementMoves, SizesThatDoNotFitAreAnInputError) {
  Mat targets(1, 2);
  targets << 0.5, 0.5;
  const NearestTargetAcquisition acq(targets);
  EXPECT_THROW(element_move_starts(Vec::Zero(5), 3, 2, acq, grid_101()), InputError);
  EXPECT_THROW(element_move_starts(Vec::Zero(6), 3, 2, acq, Mat(4, 3)), InputError);
  EXPECT_THROW(element_pair_move_starts(Vec::Zero(5), 3, 2, acq, grid_101()), InputError);
  EXPECT_THROW(element_pair_move_starts(Vec::Zero(6), 3, 2, acq, Mat(4, 3)), InputError);
  EXPECT_THROW(recombination_starts(Vec::Zero(6), Mat(2, 5), 3, 2, acq, 3), InputError);
  EXPECT_THROW(recombination_starts(Vec::Zero(6), Mat::Zero(2, 6), 3, 2, acq, -1), InputError);
}

}  // namespace
}  // namespace kbo
