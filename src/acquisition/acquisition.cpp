// UCB, log-EI and log-PI on a fitted GP (original units, latent variance), with analytic gradients.
#include "kbo/acquisition/acquisition.hpp"

#include "kbo/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kbo {
namespace {

/// Floor on the predictive standard deviation (relative to the target scale): σ = 0 at a noiseless
/// training point would make z = ±∞ and the gradient dvar/(2σ) undefined. Below the floor σ is treated
/// as the constant floor (zero σ-gradient), which keeps values and gradients finite.
double sigma_floor(const GP& gp) { return 1e-10 * std::max(gp.y_scale(), 1e-300); }

struct Moments {
  double mean, sigma;
  Vec dmean, dsigma;
};

Moments moments_with_gradient(const GP& gp, const Vec& x) {
  Moments m;
  double var = 0.0;
  Vec dvar;
  gp.predict_with_gradient(x, m.mean, var, m.dmean, dvar);
  const double floor = sigma_floor(gp);
  const double s = std::sqrt(std::max(var, 0.0));
  if (s > floor) {
    m.sigma = s;
    m.dsigma = dvar / (2.0 * s);
  } else {
    m.sigma = floor;
    m.dsigma = Vec::Zero(x.size());
  }
  return m;
}

double clamp_sigma(const GP& gp, double var) { return std::max(std::sqrt(std::max(var, 0.0)), sigma_floor(gp)); }

/// Never let NaN out of an acquisition: the optimisers treat -inf as "failed/worst".
double finite_or_worst(double v) { return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v; }

Mat row_as_matrix(const Vec& x) { return x.transpose(); }

}  // namespace

Vec Acquisition::values(const Mat& X) const {
  Vec out(X.rows());
  Vec x(X.cols());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    x = X.row(i).transpose();
    out[i] = value(x);
  }
  return out;
}

// ---------------- UCB ----------------
namespace {
// One weight per part, finite and >= 0, not all 0; normalised to sum 1 (InputError naming `who` otherwise).
std::vector<double> normalised_weights(std::vector<double> w, std::size_t n, const std::string& who) {
  if (w.size() != n || n == 0)
    throw InputError(who + ": " + std::to_string(w.size()) + " weights for " + std::to_string(n) + " parts");
  double total = 0.0;
  for (const double v : w) {
    if (!std::isfinite(v) || v < 0.0) throw InputError(who + ": weights must be finite and >= 0");
    total += v;
  }
  if (!(total > 0.0)) throw InputError(who + ": the weights sum to 0");
  for (double& v : w) v /= total;
  return w;
}
}  // namespace

AveragedAcquisition::AveragedAcquisition(std::vector<std::unique_ptr<Acquisition>> parts)
    : AveragedAcquisition(std::move(parts), {}) {}

AveragedAcquisition::AveragedAcquisition(std::vector<std::unique_ptr<Acquisition>> parts, std::vector<double> weights)
    : parts_(std::move(parts)) {
  if (parts_.empty()) throw InputError("AveragedAcquisition: needs at least one acquisition");
  if (weights.empty()) weights.assign(parts_.size(), 1.0);
  weights_ = normalised_weights(std::move(weights), parts_.size(), "AveragedAcquisition");
}

double AveragedAcquisition::value(const Vec& x) const {
  double v = 0.0;
  for (std::size_t k = 0; k < parts_.size(); ++k)
    if (weights_[k] > 0.0) v += weights_[k] * parts_[k]->value(x);
  return v;
}

double AveragedAcquisition::value_and_gradient(const Vec& x, Vec& grad) const {
  double v = 0.0;
  grad = Vec::Zero(x.size());
  Vec g;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    if (weights_[k] == 0.0) continue;
    v += weights_[k] * parts_[k]->value_and_gradient(x, g);
    grad += weights_[k] * g;
  }
  return v;
}

Vec AveragedAcquisition::values(const Mat& X) const {
  Vec v = Vec::Zero(X.rows());
  for (std::size_t k = 0; k < parts_.size(); ++k)
    if (weights_[k] > 0.0) v += weights_[k] * parts_[k]->values(X);
  return v;
}

UpperConfidenceBound::UpperConfidenceBound(const GP& gp, double beta) : gp_(gp), beta_(beta) {
  if (!(beta >= 0.0) || !std::isfinite(beta))
    throw InputError("UCB: beta must be finite and >= 0, got " + std::to_string(beta));
}

double UpperConfidenceBound::value(const Vec& x) const {
  const auto p = gp_.predict(row_as_matrix(x));
  return finite_or_worst(p.mean[0] + std::sqrt(beta_) * clamp_sigma(gp_, p.variance[0]));
}

double UpperConfidenceBound::value_and_gradient(const Vec& x, Vec& grad) const {
  const Moments m = moments_with_gradient(gp_, x);
  const double sb = std::sqrt(beta_);
  grad = m.dmean + sb * m.dsigma;
  return finite_or_worst(m.mean + sb * m.sigma);
}

Vec UpperConfidenceBound::values(const Mat& X) const {
  const auto p = gp_.predict(X);
  const double sb = std::sqrt(beta_);
  Vec out(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    out[i] = finite_or_worst(p.mean[i] + sb * clamp_sigma(gp_, p.variance[i]));
  return out;
}

// ---------------- log EI ----------------
// EI(x) = σ h(z), z = (μ - f*)/σ, h(z) = φ(z) + zΦ(z)  ⇒  log EI = log σ + log h(z).
// d log EI = dσ/σ + (log h)'(z) dz,  dz = (dμ - z dσ)/σ.
LogExpectedImprovement::LogExpectedImprovement(const GP& gp, double incumbent) : gp_(gp), incumbent_(incumbent) {
  if (!std::isfinite(incumbent)) throw InputError("log-EI: the incumbent must be finite");
}

double LogExpectedImprovement::value(const Vec& x) const { return values(row_as_matrix(x))[0]; }

double LogExpectedImprovement::value_and_gradient(const Vec& x, Vec& grad) const {
  const Moments m = moments_with_gradient(gp_, x);
  const double z = (m.mean - incumbent_) / m.sigma;
  const double g = d_log_h(z);
  grad = m.dsigma / m.sigma + g * (m.dmean - z * m.dsigma) / m.sigma;
  return finite_or_worst(std::log(m.sigma) + log_h(z));
}

Vec LogExpectedImprovement::values(const Mat& X) const {
  const auto p = gp_.predict(X);
  Vec out(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const double s = clamp_sigma(gp_, p.variance[i]);
    out[i] = finite_or_worst(std::log(s) + log_h((p.mean[i] - incumbent_) / s));
  }
  return out;
}

// ---------------- log PI ----------------
LogProbabilityOfImprovement::LogProbabilityOfImprovement(const GP& gp, double incumbent)
    : gp_(gp), incumbent_(incumbent) {
  if (!std::isfinite(incumbent)) throw InputError("log-PI: the incumbent must be finite");
}

double LogProbabilityOfImprovement::value(const Vec& x) const { return values(row_as_matrix(x))[0]; }

double LogProbabilityOfImprovement::value_and_gradient(const Vec& x, Vec& grad) const {
  const Moments m = moments_with_gradient(gp_, x);
  const double z = (m.mean - incumbent_) / m.sigma;
  grad = d_log_normal_cdf(z) * (m.dmean - z * m.dsigma) / m.sigma;
  return finite_or_worst(log_normal_cdf(z));
}

Vec LogProbabilityOfImprovement::values(const Mat& X) const {
  const auto p = gp_.predict(X);
  Vec out(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const double s = clamp_sigma(gp_, p.variance[i]);
    out[i] = finite_or_worst(log_normal_cdf((p.mean[i] - incumbent_) / s));
  }
  return out;
}

}  // namespace kbo
