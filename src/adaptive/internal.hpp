#pragma once
// Helpers shared by the A-GP-UCB strategy and its baselines (private to src/adaptive).
#include <cstdint>
#include <memory>
#include <string>

#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/core/space.hpp"
#include "kbo/strategy/strategy.hpp"  // kRepeatTolerance

namespace kbo::adaptive_detail {

/// Per-dimension lengthscales from 1 or D values.
inline Vec expand_lengthscales(const std::vector<double>& v, int dim) {
  Vec t(dim);
  for (int i = 0; i < dim; ++i) t[i] = v.size() == 1 ? v[0] : v[i];
  return t;
}

/// GP with an ARD stationary kernel of unit variance, lengthscales theta, fixed noise variance.
inline GP make_fixed_gp(const std::string& kernel, const Vec& theta, double noise_var, bool normalize) {
  auto k = std::make_unique<StationaryKernel>(parse_stationary_type(kernel), static_cast<int>(theta.size()), true,
                                              1.0, 1.0);
  k->set_lengthscales(theta);
  return GP(std::move(k), noise_var, normalize, /*learn_noise=*/false);
}

inline Vec gp_lengthscales(const GP& gp) { return dynamic_cast<const StationaryKernel&>(gp.kernel()).lengthscales(); }

/// Whether u is within 1e-9 (Euclidean, unit cube) of a row of `rows`: a suggestion that would repeat a
/// pending point (with fantasy "none", or when the maximiser lands exactly on one).
inline bool repeats_a_row(const Mat& rows, const Vec& u) { return min_row_distance(u, rows) < kRepeatTolerance; }

/// Row of the largest y as a 1 x D matrix (extra start for the acquisition optimiser).
inline Mat incumbent_row(const Mat& U, const Vec& y) {
  Eigen::Index best = 0;
  y.maxCoeff(&best);
  return U.row(best);
}

}  // namespace kbo::adaptive_detail
