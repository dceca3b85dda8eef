// Replicates as evidence about noise (include/kbo/strategy/noise_inference.hpp).
#include "kbo/strategy/noise_inference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

namespace kbo {

namespace {
// Rows compared by their bytes: a replicate is the same point asked again, not a nearby one.
bool same_row(const Mat& A, Eigen::Index i, const Mat& B, Eigen::Index j) {
  for (Eigen::Index c = 0; c < A.cols(); ++c)
    if (std::memcmp(&A(i, c), &B(j, c), sizeof(double)) != 0) return false;
  return true;
}
}  // namespace

bool contains_row(const Mat& M, const Vec& x) {
  if (M.cols() != x.size()) return false;
  const Mat row = x.transpose();
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    if (same_row(M, i, row, 0)) return true;
  return false;
}

ReplicateVerdict replicate_verdict(const Mat& X, const Vec& y) {
  const Eigen::Index n = X.rows();
  if (n < 2) return ReplicateVerdict::None;
  // Sorted lexicographically, replicates are neighbours: O(n log n) instead of all pairs.
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    for (Eigen::Index c = 0; c < X.cols(); ++c)
      if (X(a, c) != X(b, c)) return X(a, c) < X(b, c);
    return a < b;
  });
  const double spread = y.maxCoeff() - y.minCoeff();
  const double tolerance = 1e-9 * (spread > 0.0 ? spread : 1.0);
  bool any = false;
  for (std::size_t k = 1; k < order.size(); ++k) {
    const Eigen::Index a = order[k - 1], b = order[k];
    if (!same_row(X, a, X, b)) continue;
    any = true;
    if (std::abs(y[a] - y[b]) > tolerance) return ReplicateVerdict::Noisy;
  }
  return any ? ReplicateVerdict::Exact : ReplicateVerdict::None;
}

}  // namespace kbo
