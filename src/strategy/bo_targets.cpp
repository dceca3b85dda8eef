// Target warps and standardisation of BOStrategy (see include/kbo/bo_targets.hpp).
#include "kbo/strategy/targets.hpp"

#include <algorithm>
#include <cmath>

#include "kbo/core/error.hpp"

namespace kbo {

Vec warp_targets(const Vec& y, OutputWarp warp) {
  const Eigen::Index n = y.size();
  if (warp == OutputWarp::None) return y;
  if (warp == OutputWarp::Copula) {
    Vec z(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      double below = 0.0, ties = 0.0;
      for (Eigen::Index j = 0; j < n; ++j) {
        below += y[j] < y[i];
        ties += y[j] == y[i];
      }
      z[i] = normal_quantile((below + 0.5 * ties) / static_cast<double>(n));  // mid-rank in (0, 1)
    }
    return z;
  }
  // Log: the distance below the best, compressed.
  const double best = y.maxCoeff(), range = best - y.minCoeff();
  const double offset = range > 0.0 ? 1e-3 * range : 1.0;
  return (-((best - y.array()) + offset).log()).matrix();
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
