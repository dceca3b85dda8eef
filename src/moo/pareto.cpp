// Pareto dominance and non-dominated sorting (see include/kbo/moo/pareto.hpp).
#include "kbo/moo/pareto.hpp"

#include <algorithm>
#include <numeric>

namespace kbo {

bool dominates(const Vec& a, const Vec& b) {
  bool strictly = false;
  for (Eigen::Index j = 0; j < a.size(); ++j) {
    if (a[j] < b[j]) return false;
    if (a[j] > b[j]) strictly = true;
  }
  return strictly;
}

std::vector<bool> non_dominated_mask(const Mat& Y) {
  const Eigen::Index n = Y.rows();
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  const Vec sums = Y.rowwise().sum();
  // A dominating row has a strictly larger sum, so it comes first; the stable sort keeps ties in row order.
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return sums[a] > sums[b]; });
  std::vector<bool> keep(static_cast<std::size_t>(n), false);
  std::vector<Eigen::Index> front;
  for (Eigen::Index i : order) {
    const Vec yi = Y.row(i).transpose();
    bool dominated = false;
    for (Eigen::Index f : front)
      if (dominates(Y.row(f).transpose(), yi)) {
        dominated = true;
        break;
      }
    if (dominated) continue;
    keep[static_cast<std::size_t>(i)] = true;
    front.push_back(i);
  }
  return keep;
}

Mat pareto_front(const Mat& Y) {
  const std::vector<bool> keep = non_dominated_mask(Y);
  Mat out(std::count(keep.begin(), keep.end(), true), Y.cols());
  Eigen::Index k = 0;
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    if (keep[static_cast<std::size_t>(i)]) out.row(k++) = Y.row(i);
  return out;
}

std::vector<int> non_dominated_ranks(const Mat& Y) {
  const Eigen::Index n = Y.rows();
  std::vector<int> rank(static_cast<std::size_t>(n), -1);
  std::vector<Eigen::Index> left(static_cast<std::size_t>(n));
  std::iota(left.begin(), left.end(), Eigen::Index{0});
  for (int r = 0; !left.empty(); ++r) {
    Mat rest(static_cast<Eigen::Index>(left.size()), Y.cols());
    for (std::size_t k = 0; k < left.size(); ++k) rest.row(static_cast<Eigen::Index>(k)) = Y.row(left[k]);
    const std::vector<bool> front = non_dominated_mask(rest);
    std::vector<Eigen::Index> next;
    for (std::size_t k = 0; k < left.size(); ++k) {
      if (front[k]) rank[static_cast<std::size_t>(left[k])] = r;
      else next.push_back(left[k]);
    }
    left = std::move(next);
  }
  return rank;
}

}  // namespace kbo
