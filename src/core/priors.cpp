#include "kbo/core/priors.hpp"

#include <cmath>
#include <cstdio>

namespace kbo {

double Prior::log_density(double p, double* dlog_dp) const {
  // log p_θ(θ) = log p_p(p) − p: the density of θ drops the Jacobian e^p of θ = e^p.
  const double shift = type == Type::None || jacobian ? 0.0 : 1.0;
  const double v = log_density_of_log(p, dlog_dp);
  if (dlog_dp) *dlog_dp -= shift;
  return v - shift * p;
}

double Prior::log_density_of_log(double p, double* dlog_dp) const {
  switch (type) {
    case Type::None:
      if (dlog_dp) *dlog_dp = 0.0;
      return 0.0;
    case Type::Gamma: {
      // θ = e^p ~ Gamma(k, rate): log p(p) = k p − rate e^p + const (the Jacobian e^p folds into k).
      const double theta = std::exp(p);
      if (dlog_dp) *dlog_dp = a - b * theta;
      return a * p - b * theta;
    }
    case Type::LogNormal: {
      // p = log θ ~ N(μ, σ²).
      const double z = (p - a) / b;
      if (dlog_dp) *dlog_dp = -z / b;
      return -0.5 * z * z;
    }
  }
  return 0.0;
}

std::string Prior::describe() const {
  char buf[80];
  switch (type) {
    case Type::None: return "none";
    case Type::Gamma: std::snprintf(buf, sizeof buf, "gamma(%g, %g)%s", a, b, jacobian ? "" : " on theta"); return buf;
    case Type::LogNormal: std::snprintf(buf, sizeof buf, "lognormal(%g, %g)%s", a, b, jacobian ? "" : " on theta"); return buf;
  }
  return "none";
}

}  // namespace kbo
