// Box decomposition of the non-dominated region (see include/kbo/moo/box_decomposition.hpp).
#include "kbo/moo/box_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kbo/core/error.hpp"

namespace kbo {

BoxDecomposition non_dominated_boxes(const Mat& Y, const Vec& ref) {
  const Eigen::Index m = ref.size();
  if (m < 1) throw InputError("non_dominated_boxes: no objectives");
  if (Y.rows() > 0 && Y.cols() != m) throw InputError("non_dominated_boxes: reference point and points differ in size");
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<Vec> pts;
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    if ((Y.row(i).transpose().array() > ref.array()).all()) pts.push_back(Y.row(i).transpose());

  // The grid along the first m−1 objectives: ref, the points' values, +inf.
  const Eigen::Index g = m - 1;
  std::vector<std::vector<double>> grid(static_cast<std::size_t>(g));
  for (Eigen::Index j = 0; j < g; ++j) {
    auto& axis = grid[static_cast<std::size_t>(j)];
    axis.push_back(ref[j]);
    for (const Vec& p : pts) axis.push_back(p[j]);
    std::sort(axis.begin(), axis.end());
    axis.erase(std::unique(axis.begin(), axis.end()), axis.end());
    axis.push_back(inf);
  }
  std::vector<Vec> lowers, uppers;
  std::vector<std::size_t> index(static_cast<std::size_t>(g), 0);  // cell index per grid axis
  const auto floor_of = [&](const std::vector<std::size_t>& idx) {
    // Points that dominate the column's upper corner in the grid objectives cover it up to their last value.
    double floor = ref[m - 1];
    for (const Vec& p : pts) {
      bool covers = true;
      for (Eigen::Index j = 0; j < g && covers; ++j) covers = p[j] >= grid[static_cast<std::size_t>(j)][idx[static_cast<std::size_t>(j)] + 1];
      if (covers) floor = std::max(floor, p[m - 1]);
    }
    return floor;
  };
  for (;;) {
    Vec lo(m), hi(m);
    for (Eigen::Index j = 0; j < g; ++j) {
      lo[j] = grid[static_cast<std::size_t>(j)][index[static_cast<std::size_t>(j)]];
      hi[j] = grid[static_cast<std::size_t>(j)][index[static_cast<std::size_t>(j)] + 1];
    }
    lo[m - 1] = floor_of(index);
    hi[m - 1] = inf;
    // Merge with the previous box when it is this column's neighbour along the last grid axis with the
    // same floor (the odometer below moves that axis fastest).
    bool merged = false;
    if (g > 0 && index[static_cast<std::size_t>(g - 1)] > 0 && !lowers.empty()) {
      Vec& plo = lowers.back();
      Vec& phi = uppers.back();
      bool same = plo[m - 1] == lo[m - 1] && phi[g - 1] == lo[g - 1];
      for (Eigen::Index j = 0; j + 1 < g && same; ++j) same = plo[j] == lo[j] && phi[j] == hi[j];
      if (same) {
        phi[g - 1] = hi[g - 1];
        merged = true;
      }
    }
    if (!merged) {
      lowers.push_back(lo);
      uppers.push_back(hi);
    }
    // Next column (odometer; the last grid axis fastest).
    Eigen::Index j = g - 1;
    for (; j >= 0; --j) {
      auto& k = index[static_cast<std::size_t>(j)];
      if (++k + 1 < grid[static_cast<std::size_t>(j)].size()) break;
      k = 0;
    }
    if (j < 0) break;
  }
  BoxDecomposition out;
  out.lower.resize(static_cast<Eigen::Index>(lowers.size()), m);
  out.upper.resize(static_cast<Eigen::Index>(lowers.size()), m);
  for (std::size_t b = 0; b < lowers.size(); ++b) {
    out.lower.row(static_cast<Eigen::Index>(b)) = lowers[b].transpose();
    out.upper.row(static_cast<Eigen::Index>(b)) = uppers[b].transpose();
  }
  return out;
}

double hypervolume_improvement(const BoxDecomposition& boxes, const Vec& y) {
  double total = 0.0;
  for (int b = 0; b < boxes.size(); ++b) {
    double v = 1.0;
    for (Eigen::Index j = 0; j < y.size() && v > 0.0; ++j)
      v *= std::max(0.0, std::min(boxes.upper(b, j), y[j]) - boxes.lower(b, j));
    total += v;
  }
  return total;
}

}  // namespace kbo
