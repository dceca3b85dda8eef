#pragma once
// Priors on positive hyperparameters θ, evaluated at the log-parameter p = log θ that fits optimise.
// Two conventions for what "MAP" means (they differ by the Jacobian dθ/dp = θ):
// - default: the density of p (Jacobian included), the MAP of log θ. A Gamma(k, r) then behaves like a
//   Gamma(k + 1, r) on θ (it pushes θ up by one more power of θ).
// - value_density(): the density of θ itself, p(θ), without the Jacobian — what GPyTorch/BoTorch
//   maximise (log p(y|θ) + log p(θ), whatever parametrisation the optimiser uses), so BoTorch's prior
//   parameters mean the same thing in kbo.
#include <string>

namespace kbo {

struct Prior {
  enum class Type { None, Gamma, LogNormal };
  Type type = Type::None;
  double a = 0.0;  // Gamma: shape k;   LogNormal: mean μ of log θ
  double b = 0.0;  // Gamma: rate;      LogNormal: std σ of log θ
  bool jacobian = true;  // true: density of p = log θ; false: density of θ (see the top of the file)

  static Prior none() { return {}; }
  static Prior gamma(double shape, double rate) { return {Type::Gamma, shape, rate}; }
  static Prior log_normal(double mu, double sigma) { return {Type::LogNormal, mu, sigma}; }
  /// The same distribution of θ, evaluated as the density of θ (no Jacobian; BoTorch's convention).
  Prior value_density() const {
    Prior p = *this;
    p.jacobian = false;
    return p;
  }

  /// log prior (up to a constant) at p = log θ in the convention of `jacobian`, and its derivative d/dp.
  double log_density(double p, double* dlog_dp) const;
  /// The density of p = log θ (Jacobian included) whatever `jacobian` says.
  double log_density_of_log(double p, double* dlog_dp) const;
  std::string describe() const;
};

}  // namespace kbo
