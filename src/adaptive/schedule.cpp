// Pure pieces of the A-GP-UCB schedule: the g/b split of h, Lemma-1 β, the bound-based regret
// estimate (eq. 15) and the monotone line search that matches it to the reference p(t) (eq. 14).
#include <cmath>
#include <string>

#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"

namespace kbo {

Scaling split_scaling(double h, double lambda, int dim) {
  if (!std::isfinite(h) || h < 1.0)
    throw InputError("split_scaling: h must be a finite number >= 1, got " + std::to_string(h));
  if (!std::isfinite(lambda) || lambda < 0.0)
    throw InputError("split_scaling: lambda must be finite and >= 0, got " + std::to_string(lambda));
  if (dim < 1) throw InputError("split_scaling: dim must be >= 1");
  Scaling s;
  s.h = h;
  if (lambda == 0.0) {
    s.eps_g = h - 1.0;
  } else {
    // Positive root of λ ε² + (1 + λ) ε + (1 − h) = 0. Written as 2(h−1)/((1+λ) + sqrt(...)) to avoid
    // the cancellation of the textbook form when λ(h−1) ≪ (1+λ)².
    const double a = 1.0 + lambda;
    s.eps_g = 2.0 * (h - 1.0) / (a + std::sqrt(a * a + 4.0 * lambda * (h - 1.0)));
  }
  s.g = std::pow(1.0 + s.eps_g, 1.0 / dim);
  s.b = 1.0 + lambda * s.eps_g;
  return s;
}

Scaling lengthscale_scaling(double g, int dim) {
  Scaling s;
  s.g = g;
  s.h = std::pow(g, dim);
  s.eps_g = s.h - 1.0;
  return s;
}

double agpucb_beta_sqrt(double norm_bound, double noise_std, double information_gain, double delta) {
  return norm_bound + 4.0 * noise_std * std::sqrt(information_gain + 1.0 + std::log(1.0 / delta));
}

double regret_constant_c1(double noise_std) { return 8.0 / std::log(1.0 + 1.0 / (noise_std * noise_std)); }

double bound_regret_estimate(double h, const BoundEstimateInputs& in) {
  const Scaling s = split_scaling(h, in.lambda, in.dim);
  const double gd = std::pow(s.g, in.dim);  // = 1 + ε_g
  const double info = std::pow(s.g / in.g_prev, in.dim) * in.info_prev;
  const double bsqrt = agpucb_beta_sqrt(s.b * gd * in.B0, in.noise_std, info, in.delta);
  return std::sqrt(regret_constant_c1(in.noise_std) * in.t * bsqrt * bsqrt * info);
}

LineSearchResult match_reference(const std::function<double(double)>& R, double target, double h_prev,
                                 double h_max, double rel_tol, int max_evals) {
  if (!(h_prev >= 1.0) || !(h_max >= h_prev) || !(rel_tol > 0.0) || max_evals < 2)
    throw InputError("match_reference: need 1 <= h_prev <= h_max, rel_tol > 0 and max_evals >= 2");
  LineSearchResult res;
  res.h = h_prev;
  res.evaluations = 1;
  if (R(h_prev) >= target) return res;
  // Upper bracket by geometric expansion.
  double lo = h_prev, hi = h_prev;
  for (;;) {
    hi = std::min(h_max, std::max(hi * 4.0, hi + 1.0));
    ++res.evaluations;
    if (R(hi) >= target) break;
    lo = hi;
    if (hi >= h_max || res.evaluations >= max_evals) {
      res.h = hi;
      res.capped = hi >= h_max;
      return res;
    }
  }
  // Bisection in log h: R(lo) < target <= R(hi).
  while (hi > lo * (1.0 + rel_tol) && res.evaluations < max_evals) {
    const double mid = std::sqrt(lo * hi);
    ++res.evaluations;
    if (R(mid) >= target)
      hi = mid;
    else
      lo = mid;
  }
  res.h = hi;
  return res;
}

RegretEstimator parse_regret_estimator(const std::string& s) {
  return parse_enum<RegretEstimator>("agpucb estimator", s);
}

MapCombination parse_map_combination(const std::string& s) { return parse_enum<MapCombination>("agpucb combine", s); }

std::string to_string(RegretEstimator e) { return enum_name(e); }

std::string to_string(MapCombination c) { return enum_name(c); }

}  // namespace kbo
