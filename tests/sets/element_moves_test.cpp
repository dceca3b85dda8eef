// Swap moves on a set (element_moves.hpp) against positions worked out by hand and brute-force enumeration.
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

TEST(ElementMoves, SizesThatDoNotFitAreAnInputError) {
  Mat targets(1, 2);
  targets << 0.5, 0.5;
  const NearestTargetAcquisition acq(targets);
  EXPECT_THROW(element_move_starts(Vec::Zero(5), 3, 2, acq, grid_101()), InputError);
  EXPECT_THROW(element_move_starts(Vec::Zero(6), 3, 2, acq, Mat(4, 3)), InputError);
}

}  // namespace
}  // namespace kbo
