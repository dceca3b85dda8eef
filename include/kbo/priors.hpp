#pragma once
// Priors on positive hyperparameters, evaluated on the log-parameter p = log θ (Jacobian included,
// so MAP in log space is the MAP of the density of p).
#include <string>

namespace kbo {

struct Prior {
  enum class Type { None, Gamma, LogNormal };
  Type type = Type::None;
  double a = 0.0;  // Gamma: shape k;   LogNormal: mean μ of log θ
  double b = 0.0;  // Gamma: rate;      LogNormal: std σ of log θ

  static Prior none() { return {}; }
  static Prior gamma(double shape, double rate) { return {Type::Gamma, shape, rate}; }
  static Prior log_normal(double mu, double sigma) { return {Type::LogNormal, mu, sigma}; }

  /// log density of p = log θ (up to a constant) and its derivative d/dp.
  double log_density(double p, double* dlog_dp) const;
  std::string describe() const;
};

}  // namespace kbo
