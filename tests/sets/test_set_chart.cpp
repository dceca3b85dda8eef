// The set space's local chart (kbo/sets/set_chart.hpp, Kernel::local_chart of the set kernels): each
// observed set's elements paired with the incumbent's, against an enumeration of every ordering.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "kbo/sets/set_chart.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/sliced_set_kernel.hpp"

namespace kbo {
namespace {

Mat uniform_rows(int n, int D, Rng& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Mat X(n, D);
  for (int i = 0; i < X.size(); ++i) X(i) = u(rng);
  return X;
}

// The row's elements in the given order.
Vec reordered(const Vec& row, const std::vector<int>& order, int d) {
  Vec out(row.size());
  for (std::size_t i = 0; i < order.size(); ++i) out.segment(i * d, d) = row.segment(order[i] * d, d);
  return out;
}

TEST(SetChart, EachSetIsTheOrderingOfItsElementsNearestTheIncumbent) {
  Rng rng = make_rng(3);
  for (const auto& [m, d] : {std::pair{4, 2}, std::pair{3, 3}, std::pair{5, 1}}) {
    const Vec x = uniform_rows(1, m * d, rng).row(0).transpose();
    const Mat X = uniform_rows(12, m * d, rng);
    Mat C = X;
    align_elements(x, C, m, d);
    for (Eigen::Index r = 0; r < X.rows(); ++r) {
      std::vector<int> order(m);
      std::iota(order.begin(), order.end(), 0);
      double nearest = 1e300;
      bool is_an_ordering = false;
      do {
        const Vec y = reordered(X.row(r).transpose(), order, d);
        nearest = std::min(nearest, (y - x).squaredNorm());
        is_an_ordering = is_an_ordering || (y - C.row(r).transpose()).norm() == 0.0;
      } while (std::next_permutation(order.begin(), order.end()));
      EXPECT_TRUE(is_an_ordering) << "m " << m << " row " << r;
      EXPECT_NEAR((C.row(r).transpose() - x).squaredNorm(), nearest, 1e-12) << "m " << m << " row " << r;
    }
  }
  Mat wrong(2, 5);
  EXPECT_THROW(align_elements(Vec::Zero(6), wrong, 3, 2), InputError);
}

// Every set kernel offers the chart, and its kernel there is a plain one on all m·d coordinates that starts
// from the set kernel's hyperparameters (the local fit's warm start).
TEST(SetChart, SetKernelsChartTheirElementsWithAPlainKernelOnTheFlatVector) {
  Rng rng = make_rng(8);
  const int m = 3, d = 2;
  const Vec x = uniform_rows(1, m * d, rng).row(0).transpose();
  const Mat X = uniform_rows(7, m * d, rng);
  Mat aligned = X;
  align_elements(x, aligned, m, d);

  SetKernel full(StationaryKernel(StationaryType::Matern52, d, true, 0.4, 1.5), m, d);
  Vec ell(d);
  ell << 0.2, 0.7;
  full.base().set_lengthscales(ell);
  Mat C = X;
  const KernelPtr tiled = full.local_chart(x, C);
  ASSERT_TRUE(tiled);
  EXPECT_EQ(C, aligned);
  const auto* plain = dynamic_cast<const StationaryKernel*>(tiled.get());
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->dim(), m * d);
  Vec expected(m * d);
  expected << 0.2, 0.7, 0.2, 0.7, 0.2, 0.7;
  EXPECT_EQ(plain->lengthscales(), expected);
  EXPECT_DOUBLE_EQ(plain->variance(), 1.5);

  SlicedSetKernel sliced(StationaryType::Matern32, m, d, 0.3, 2.0);
  C = X;
  const KernelPtr flat = sliced.local_chart(x, C);
  ASSERT_TRUE(flat);
  EXPECT_EQ(C, aligned);
  const auto* iso = dynamic_cast<const StationaryKernel*>(flat.get());
  ASSERT_NE(iso, nullptr);
  EXPECT_EQ(iso->dim(), m * d);
  EXPECT_EQ(iso->type(), StationaryType::Matern32);
  EXPECT_DOUBLE_EQ(iso->lengthscales()[0], 0.3);
  EXPECT_DOUBLE_EQ(iso->variance(), 2.0);

  // The default's orbit average (the invariance module's, over blocks:m) pairs the elements the same way.
  const KernelPtr average = make_set_kernel("matern52", m, d, false, SetKernelType::Average, 0, 0);
  C = X;
  ASSERT_TRUE(average->local_chart(x, C));
  EXPECT_TRUE(C.isApprox(aligned, 1e-14));
}

}  // namespace
}  // namespace kbo
