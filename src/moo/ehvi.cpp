// logEHVI over a box decomposition (see include/kbo/moo/ehvi.hpp).
#include "kbo/moo/ehvi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "kbo/core/error.hpp"

namespace kbo {

namespace {

constexpr double kEhviLogZero = -std::numeric_limits<double>::infinity();
constexpr double kEhviLogSqrt2Pi = 0.91893853320467274178;

double ehvi_log_normal_pdf(double z) { return -0.5 * z * z - kEhviLogSqrt2Pi; }

/// log(1 − e^d) for d <= 0, accurate near 0 and for very negative d.
double ehvi_log1m_exp(double d) {
  if (d >= 0.0) return kEhviLogZero;
  return d > -0.6931471805599453 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d));
}

}  // namespace

EhviPairs::EhviPairs(const BoxDecomposition& boxes) {
  const Eigen::Index m = boxes.lower.cols();
  const int B = boxes.size();
  index.resize(B, m);
  lower.resize(static_cast<std::size_t>(m));
  upper.resize(static_cast<std::size_t>(m));
  for (Eigen::Index j = 0; j < m; ++j) {
    std::map<std::pair<double, double>, int> seen;
    for (int b = 0; b < B; ++b) {
      const auto key = std::make_pair(boxes.lower(b, j), boxes.upper(b, j));
      auto [it, fresh] = seen.emplace(key, static_cast<int>(seen.size()));
      if (fresh) {
        lower[static_cast<std::size_t>(j)].push_back(key.first);
        upper[static_cast<std::size_t>(j)].push_back(key.second);
      }
      index(b, j) = it->second;
    }
  }
}

double log_ehvi(const EhviPairs& pairs, const Vec& mean, const Vec& sd, Vec* grad_mean, Vec* grad_sd) {
  const Eigen::Index m = mean.size();
  if (pairs.index.rows() > 0 && pairs.index.cols() != m) throw InputError("log_ehvi: boxes and moments differ in size");
  const bool grad = grad_mean && grad_sd;
  if (grad) {
    grad_mean->setZero(m);
    grad_sd->setZero(m);
  }
  // Per objective, each distinct (lower, upper) of the boxes: log(ψ(l) − ψ(u)) and its derivatives. Boxes
  // share few distinct bounds per objective (the front's values), so this is where the special functions go.
  std::vector<std::vector<double>> factor(static_cast<std::size_t>(m)), dmu(static_cast<std::size_t>(m)),
      dsd(static_cast<std::size_t>(m));
  for (Eigen::Index j = 0; j < m; ++j) {
    const auto& L = pairs.lower[static_cast<std::size_t>(j)];
    const auto& U = pairs.upper[static_cast<std::size_t>(j)];
    auto& f = factor[static_cast<std::size_t>(j)];
    auto& gm = dmu[static_cast<std::size_t>(j)];
    auto& gs = dsd[static_cast<std::size_t>(j)];
    f.assign(L.size(), kEhviLogZero);
    gm.assign(L.size(), 0.0);
    gs.assign(L.size(), 0.0);
    const double s = sd[j];
    for (std::size_t p = 0; p < L.size(); ++p) {
      const double zl = (mean[j] - L[p]) / s;
      const double log_hl = log_h(zl);
      if (std::isinf(U[p])) {
        f[p] = std::log(s) + log_hl;
        if (grad) {
          // dψ/dμ = Φ(z), dψ/dσ = φ(z); divided by ψ(l) = σ h(z_l).
          gm[p] = std::exp(log_normal_cdf(zl) - f[p]);
          gs[p] = std::exp(ehvi_log_normal_pdf(zl) - f[p]);
        }
      } else {
        const double zu = (mean[j] - U[p]) / s;
        f[p] = std::log(s) + log_hl + ehvi_log1m_exp(log_h(zu) - log_hl);
        if (grad && f[p] > kEhviLogZero) {
          gm[p] = std::exp(log_normal_cdf(zl) - f[p]) - std::exp(log_normal_cdf(zu) - f[p]);
          gs[p] = std::exp(ehvi_log_normal_pdf(zl) - f[p]) - std::exp(ehvi_log_normal_pdf(zu) - f[p]);
        }
      }
    }
  }
  const Eigen::Index B = pairs.index.rows();
  std::vector<double> terms(static_cast<std::size_t>(B), 0.0);
  double top = kEhviLogZero;
  for (Eigen::Index b = 0; b < B; ++b) {
    double t = 0.0;
    for (Eigen::Index j = 0; j < m; ++j) t += factor[static_cast<std::size_t>(j)][static_cast<std::size_t>(pairs.index(b, j))];
    terms[static_cast<std::size_t>(b)] = t;
    top = std::max(top, t);
  }
  if (!(top > kEhviLogZero)) return kEhviLogZero;
  double sum = 0.0;
  for (double t : terms) sum += std::exp(t - top);
  const double value = top + std::log(sum);
  if (grad) {
    for (Eigen::Index b = 0; b < B; ++b) {
      const double w = std::exp(terms[static_cast<std::size_t>(b)] - value);  // softmax weight of the box
      if (w == 0.0) continue;
      for (Eigen::Index j = 0; j < m; ++j) {
        const auto p = static_cast<std::size_t>(pairs.index(b, j));
        (*grad_mean)[j] += w * dmu[static_cast<std::size_t>(j)][p];
        (*grad_sd)[j] += w * dsd[static_cast<std::size_t>(j)][p];
      }
    }
  }
  return value;
}

double log_ehvi(const BoxDecomposition& boxes, const Vec& mean, const Vec& sd, Vec* grad_mean, Vec* grad_sd) {
  if (boxes.size() > 0 && boxes.lower.cols() != mean.size()) throw InputError("log_ehvi: boxes and moments differ in size");
  return log_ehvi(EhviPairs(boxes), mean, sd, grad_mean, grad_sd);
}

LogExpectedHypervolumeImprovement::LogExpectedHypervolumeImprovement(std::vector<const GP*> models,
                                                                     BoxDecomposition boxes)
    : models_(std::move(models)), pairs_(boxes) {
  if (models_.empty() || static_cast<Eigen::Index>(models_.size()) != boxes.lower.cols())
    throw InputError("logEHVI: one model per objective of the box decomposition");
}

namespace {
// Predictive standard deviations are floored so that log EHVI stays finite at observed points.
constexpr double kEhviMinVariance = 1e-18;
}  // namespace

double LogExpectedHypervolumeImprovement::value(const Vec& x) const {
  const Eigen::Index m = static_cast<Eigen::Index>(models_.size());
  Vec mu(m), sd(m);
  Mat X = x.transpose();
  for (Eigen::Index j = 0; j < m; ++j) {
    const GP::Prediction p = models_[static_cast<std::size_t>(j)]->predict(X);
    mu[j] = p.mean[0];
    sd[j] = std::sqrt(std::max(p.variance[0], kEhviMinVariance));
  }
  return log_ehvi(pairs_, mu, sd);
}

double LogExpectedHypervolumeImprovement::value_and_gradient(const Vec& x, Vec& grad) const {
  const Eigen::Index m = static_cast<Eigen::Index>(models_.size());
  Vec mu(m), sd(m);
  std::vector<Vec> dmu(static_cast<std::size_t>(m)), dsd(static_cast<std::size_t>(m));
  for (Eigen::Index j = 0; j < m; ++j) {
    double mean, var;
    Vec dmean, dvar;
    models_[static_cast<std::size_t>(j)]->predict_with_gradient(x, mean, var, dmean, dvar);
    mu[j] = mean;
    const double v = std::max(var, kEhviMinVariance);
    sd[j] = std::sqrt(v);
    dmu[static_cast<std::size_t>(j)] = dmean;
    // dσ/dx = dvar/(2σ); zero where the variance is floored.
    dsd[static_cast<std::size_t>(j)] = var > kEhviMinVariance ? Vec(dvar / (2.0 * sd[j])) : Vec(Vec::Zero(x.size()));
  }
  Vec gm, gs;
  const double value = log_ehvi(pairs_, mu, sd, &gm, &gs);
  grad.setZero(x.size());
  if (!std::isfinite(value)) return value;
  for (Eigen::Index j = 0; j < m; ++j)
    grad += gm[j] * dmu[static_cast<std::size_t>(j)] + gs[j] * dsd[static_cast<std::size_t>(j)];
  return value;
}

Vec LogExpectedHypervolumeImprovement::values(const Mat& X) const {
  const Eigen::Index m = static_cast<Eigen::Index>(models_.size());
  std::vector<GP::Prediction> preds;
  for (const GP* g : models_) preds.push_back(g->predict(X));
  Vec out(X.rows());
  Vec mu(m), sd(m);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    for (Eigen::Index j = 0; j < m; ++j) {
      mu[j] = preds[static_cast<std::size_t>(j)].mean[i];
      sd[j] = std::sqrt(std::max(preds[static_cast<std::size_t>(j)].variance[i], kEhviMinVariance));
    }
    out[i] = log_ehvi(pairs_, mu, sd);
  }
  return out;
}

}  // namespace kbo
