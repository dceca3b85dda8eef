// Target warps and standardisation of BOStrategy (see include/kbo/bo_targets.hpp).
#include "kbo/strategy/targets.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo {

Vec warp_targets(const Vec& y, OutputWarp warp, int top_k) {
  const Eigen::Index n = y.size();
  if (warp == OutputWarp::None) return y;
  if (warp == OutputWarp::LogTop) {
    if (n == 0) return y;
    const double best = y.maxCoeff();
    std::vector<double> gaps;  // the non-zero gaps below the best, smallest first
    for (Eigen::Index i = 0; i < n; ++i)
      if (best - y[i] > 0.0) gaps.push_back(best - y[i]);
    if (gaps.empty()) return Vec::Zero(n);
    std::sort(gaps.begin(), gaps.end());
    const double delta = gaps[std::min<std::size_t>(static_cast<std::size_t>(std::max(top_k, 1)), gaps.size()) - 1];
    return (-((best - y.array()) + delta).log() + std::log(delta)).matrix();  // the best maps to 0
  }
  // Normal score of y[i]'s mid-rank, in (0, 1) (ties share a score). Ranks come from one sorted copy by
  // binary search: O(n log n) per warp, where counting per entry cost O(n²) (0.05 s per ask at n = 10,000).
  std::vector<double> sorted(y.data(), y.data() + n);
  std::sort(sorted.begin(), sorted.end());
  auto score = [&](Eigen::Index i) {
    const auto [first, last] = std::equal_range(sorted.begin(), sorted.end(), y[i]);
    const double below = static_cast<double>(first - sorted.begin()), ties = static_cast<double>(last - first);
    return normal_quantile((below + 0.5 * ties) / static_cast<double>(n));
  };
  if (warp == OutputWarp::Copula) {
    Vec z(n);
    for (Eigen::Index i = 0; i < n; ++i) z[i] = score(i);
    return z;
  }
  if (warp == OutputWarp::HalfRank) {
    if (n == 0) return y;
    const double median = quantile_of(y, 0.5);
    double sum_sq = 0.0;
    int upper = 0;
    for (Eigen::Index i = 0; i < n; ++i)
      if (y[i] >= median) sum_sq += (y[i] - median) * (y[i] - median), ++upper;
    const double spread = sum_sq > 0.0 ? std::sqrt(sum_sq / upper) : 1.0;
    Vec z = y;
    for (Eigen::Index i = 0; i < n; ++i)
      if (y[i] < median) z[i] = median + spread * score(i);  // score < 0 below the median: order kept
    return z;
  }
  // Log: the distance below the best, compressed.
  const double best = y.maxCoeff(), range = best - y.minCoeff();
  const double offset = range > 0.0 ? 1e-3 * range : 1.0;
  return (-((best - y.array()) + offset).log()).matrix();
}

Vec robust_scale_targets(const Vec& y) {
  const Eigen::Index n = y.size();
  if (n == 0) return y;
  const Vec q = 0.25 * y;  // |q| < 4.5e307: differences of two entries stay finite
  const double median = quantile_of(q, 0.5);
  const Vec d = (q.array() - median).matrix();
  double scale = quantile_of(q, 0.75) - quantile_of(q, 0.25);
  if (!(scale > 0.0)) {
    // More than half the values tie: the typical size of the deviations that are not zero.
    std::vector<double> nonzero;
    for (Eigen::Index i = 0; i < n; ++i)
      if (d[i] != 0.0) nonzero.push_back(std::abs(d[i]));
    if (nonzero.empty()) return Vec::Zero(n);  // constant
    scale = quantile_of(Eigen::Map<Vec>(nonzero.data(), static_cast<Eigen::Index>(nonzero.size())), 0.5);
  }
  Vec z = d / scale;  // an extreme outlier may overflow to ±inf here; it is replaced below
  double lo = 0.0, hi = 0.0;  // the inlier range (the median is always inside)
  for (Eigen::Index i = 0; i < n; ++i)
    if (std::abs(z[i]) <= kOutlierIqrs) lo = std::min(lo, z[i]), hi = std::max(hi, z[i]);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (std::abs(z[i]) <= kOutlierIqrs) continue;
    // log1p(|z| − T), in logs when |z| itself overflowed (then |z| − T ≈ |z| = |d| / scale).
    const double log_excess = std::isfinite(z[i]) ? std::log1p(std::abs(z[i]) - kOutlierIqrs)
                                                  : std::log(std::abs(d[i])) - std::log(scale);
    const double beyond = 1.0 + std::log1p(log_excess);
    z[i] = z[i] < 0.0 ? lo - beyond : hi + beyond;
  }
  return z;
}

Vec standardize_about(const Vec& y, double level) {
  const Eigen::Index n = y.size();
  const double mean = n > 0 ? y.mean() : 0.0;
  const double var = n > 1 ? (y.array() - mean).square().sum() / static_cast<double>(n - 1) : 0.0;
  const double s = var > 1e-300 ? std::sqrt(var) : 1.0;
  return ((y.array() - level) / s).matrix();
}

double quantile_of(Vec v, double q) {
  if (v.size() == 0) throw InputError("quantile of an empty vector");
  if (!(q >= 0.0 && q <= 1.0)) throw InputError("quantile level must be in [0, 1]");
  std::sort(v.data(), v.data() + v.size());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<Eigen::Index>(std::floor(pos));
  const Eigen::Index j = std::min<Eigen::Index>(i + 1, v.size() - 1);
  return v[i] + (pos - static_cast<double>(i)) * (v[j] - v[i]);
}

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw InputError("normal_quantile needs 0 < p < 1");
  double lo = -40.0, hi = 40.0;  // Φ(−40) underflows far below any p a double can hold
  for (int it = 0; it < 200 && hi - lo > 1e-15 * std::max(1.0, std::abs(lo)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace kbo
