// Standard errors and posteriors between observed values and GP targets (see kbo/strategy/target_units.hpp).
#include "kbo/strategy/target_units.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo {

namespace {

/// A monotone piecewise-linear map through the knots (a_k, b_k), a strictly increasing, extended linearly
/// past both ends by its outermost segments.
class PiecewiseLinear {
 public:
  /// The knots from the pairs (a_i, b_i): equal a's are merged (their b's averaged).
  PiecewiseLinear(const Vec& a, const Vec& b) {
    std::vector<std::pair<double, double>> p;
    for (Eigen::Index i = 0; i < a.size(); ++i) p.emplace_back(a[i], b[i]);
    std::sort(p.begin(), p.end());
    for (std::size_t i = 0; i < p.size();) {
      std::size_t j = i;
      double sum = 0.0;
      while (j < p.size() && p[j].first == p[i].first) sum += p[j++].second;
      a_.push_back(p[i].first);
      b_.push_back(sum / static_cast<double>(j - i));
      i = j;
    }
  }
  bool usable() const { return a_.size() >= 2; }
  double operator()(double t) const {
    // The segment [a_k, a_{k+1}] holding t (the first or last one outside the knots).
    const auto it = std::upper_bound(a_.begin(), a_.end(), t);
    std::size_t k = it == a_.begin() ? 0 : static_cast<std::size_t>(it - a_.begin()) - 1;
    k = std::min(k, a_.size() - 2);
    const double w = (t - a_[k]) / (a_[k + 1] - a_[k]);
    return b_[k] + w * (b_[k + 1] - b_[k]);
  }

 private:
  std::vector<double> a_, b_;
};

void check_sizes(const Vec& y, const Vec& z, Eigen::Index n, const char* what) {
  if (y.size() != z.size() || (n >= 0 && z.size() != n))
    throw InputError(std::string("target units: ") + what + " sizes differ");
}

}  // namespace

Vec sem_in_target_units(const Vec& y, const Vec& z, const Vec& sem) {
  check_sizes(y, z, sem.size(), "values, targets and standard errors");
  const PiecewiseLinear T(y, z);
  if (!T.usable()) return sem;
  Vec out(sem.size());
  for (Eigen::Index i = 0; i < sem.size(); ++i)
    out[i] = sem[i] > 0.0 ? 0.5 * std::abs(T(y[i] + sem[i]) - T(y[i] - sem[i])) : 0.0;
  return out;
}

void targets_to_values(const Vec& y, const Vec& z, const Vec& mean_z, const Vec& sd_z, Vec& mean_y, Vec& sd_y) {
  check_sizes(y, z, -1, "values and targets");
  if (mean_z.size() != sd_z.size()) throw InputError("target units: means and standard deviations sizes differ");
  // T is increasing, so T⁻¹ interpolates the same knots with the roles swapped; a constant stretch of T
  // (ties in z, e.g. values beyond a warp's resolution) merges into one knot of T⁻¹.
  const PiecewiseLinear inverse(z, y);
  if (!inverse.usable()) {
    mean_y = mean_z;
    sd_y = sd_z;
    return;
  }
  mean_y.resize(mean_z.size());
  sd_y.resize(sd_z.size());
  for (Eigen::Index i = 0; i < mean_z.size(); ++i) {
    mean_y[i] = inverse(mean_z[i]);
    sd_y[i] = 0.5 * std::abs(inverse(mean_z[i] + sd_z[i]) - inverse(mean_z[i] - sd_z[i]));
  }
}

}  // namespace kbo
