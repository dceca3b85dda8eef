#include "kbo/kfo/input_scales.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "kbo/core/error.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo::kfo {

InputScalingMode parse_input_scaling(const std::string& name) {
  if (name == "ard") return InputScalingMode::Ard;
  if (name == "none") return InputScalingMode::None;
  throw InputError("unknown input scaling '" + name + "' (allowed: ard, none)");
}

std::string to_string(InputScalingMode mode) { return mode == InputScalingMode::Ard ? "ard" : "none"; }

Vec normalised_scales(const Vec& v) {
  if (v.size() == 0 || !v.allFinite() || v.minCoeff() <= 0.0)
    throw NumericalError("KFO input scales: inverse lengthscales must be finite and > 0");
  return v * (std::sqrt(static_cast<double>(v.size())) / v.norm());
}

namespace {
Vec inverse_ard_lengthscales(const Mat& X, const Vec& y, int restarts, std::uint64_t seed, bool map) {
  const GP gp = fit_gp(std::make_unique<StationaryKernel>(StationaryType::Matern52, static_cast<int>(X.cols()), true, 0.5), X,
                       y, restarts, seed, map);
  const auto& k = dynamic_cast<const StationaryKernel&>(gp.kernel());
  return k.lengthscales().cwiseInverse();
}
}  // namespace

Vec ard_scales_regression(const Mat& X, const Vec& y, int restarts, std::uint64_t seed, bool map) {
  return normalised_scales(inverse_ard_lengthscales(X, y, restarts, seed, map));
}

Vec ard_scales_classification(const Mat& X, const Labels& y, int restarts, std::uint64_t seed, bool map) {
  const std::set<int> classes(y.begin(), y.end());
  if (classes.size() < 2) return Vec::Ones(X.cols());  // nothing to separate: isotropic
  Vec sum_sq = Vec::Zero(X.cols());
  int fits = 0;
  for (int c : classes) {
    Vec ind(static_cast<Eigen::Index>(y.size()));
    for (std::size_t i = 0; i < y.size(); ++i) ind(static_cast<Eigen::Index>(i)) = y[i] == c ? 1.0 : 0.0;
    sum_sq += inverse_ard_lengthscales(X, ind, restarts, seed + 31 * static_cast<std::uint64_t>(fits), map).cwiseAbs2();
    ++fits;
    if (classes.size() == 2) break;  // the other indicator is 1 − this one: the same fit
  }
  return normalised_scales((sum_sq / fits).cwiseSqrt());
}

}  // namespace kbo::kfo
