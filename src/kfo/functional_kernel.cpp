#include "kbo/kfo/functional_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kbo {

Mat pairwise_distances(const Mat& X, const Mat& Y) {
  if (X.cols() != Y.cols()) throw InputError("pairwise_distances: inputs have different dimensions");
  Mat R(X.rows(), Y.rows());
  for (Eigen::Index j = 0; j < Y.rows(); ++j)
    R.col(j) = (X.rowwise() - Y.row(j)).rowwise().norm();
  return R;
}

FunctionalKernel::FunctionalKernel(const Vec& grid_distances, const Vec& alpha, kfo::HyperkernelParams hyper,
                                   FunctionalPsd psd, bool learn_variance, double variance, KernelPtr base)
    : hyper_(hyper), psd_(psd), learn_variance_(learn_variance), variance_(variance), base_(std::move(base)) {
  kfo::validate(hyper);
  if (!(variance > 0.0)) throw InputError("FunctionalKernel: variance must be > 0");
  init(grid_distances, alpha);
}

FunctionalKernel::FunctionalKernel(const kfo::FunctionalBasis& basis, const Vec& z, FunctionalPsd psd,
                                   bool learn_variance, double variance, KernelPtr base)
    : FunctionalKernel(basis.grid_distances(), basis.alpha(z), basis.hyper(), psd, learn_variance, variance,
                       std::move(base)) {}

FunctionalKernel::FunctionalKernel(const FunctionalKernel& o)
    : hyper_(o.hyper_), psd_(o.psd_), learn_variance_(o.learn_variance_), variance_(o.variance_),
      base_(o.base_ ? o.base_->clone() : nullptr), distances_(o.distances_), weights_(o.weights_), m_grid_(o.m_grid_),
      scales_(o.scales_) {}

void FunctionalKernel::set_input_scales(const Vec& s) {
  for (Eigen::Index d = 0; d < s.size(); ++d)
    if (!(std::isfinite(s(d)) && s(d) >= 0.0)) throw InputError("FunctionalKernel: input scales must be finite and >= 0");
  scales_ = s;
}

Mat FunctionalKernel::scaled(const Mat& X) const {
  if (scales_.size() == 0) return X;
  if (X.cols() != scales_.size()) throw InputError("FunctionalKernel: inputs have " + std::to_string(X.cols()) +
                                                   " columns but the kernel has " + std::to_string(scales_.size()) + " input scales");
  return X * scales_.asDiagonal();
}

void FunctionalKernel::init(const Vec& r, const Vec& alpha) {
  if (r.size() != alpha.size() || r.size() == 0) throw InputError("FunctionalKernel: distances and alpha must have the same non-zero size");
  // Clip per grid point first (the paper's α-clipping), then merge equal distances: κ(·, r_j) depends on r_j only.
  std::vector<std::pair<double, double>> items;
  for (Eigen::Index j = 0; j < r.size(); ++j) {
    const double a = psd_ == FunctionalPsd::AlphaClip ? std::max(alpha(j), 0.0) : alpha(j);
    items.emplace_back(r(j), a);
  }
  std::sort(items.begin(), items.end());
  std::vector<double> d, w;
  for (const auto& [rj, a] : items) {
    if (!d.empty() && std::abs(rj - d.back()) <= 1e-12 * std::max(1.0, rj)) {
      w.back() += a;
    } else {
      d.push_back(rj);
      w.push_back(a);
    }
  }
  distances_ = Eigen::Map<Vec>(d.data(), d.size());
  weights_ = Eigen::Map<Vec>(w.data(), w.size());
  m_grid_.resize(distances_.size());
  for (Eigen::Index u = 0; u < distances_.size(); ++u) m_grid_(u) = kfo::matern32_corr(distances_(u), hyper_.lengthscale);
}

std::string FunctionalKernel::describe() const {
  std::ostringstream os;
  os << "functional(kfo, lambda_h=" << hyper_.lambda_h << ", l=" << hyper_.lengthscale << ", terms=" << weights_.size()
     << ", psd=" << (psd_ == FunctionalPsd::AlphaClip ? "alpha-clip" : "none") << ", v=" << variance_;
  if (scales_.size() != 0) {
    os << ", input_scales=[";
    for (Eigen::Index d = 0; d < scales_.size(); ++d) os << (d ? "," : "") << scales_(d);
    os << "]";
  }
  if (base_) os << ", base=" << base_->describe();
  os << ")";
  return os.str();
}

Vec FunctionalKernel::log_params() const {
  if (!learn_variance_) return Vec();
  return Vec::Constant(1, std::log(variance_));
}

void FunctionalKernel::set_log_params(const Vec& p) {
  if (p.size() != num_params()) throw InputError("FunctionalKernel: wrong number of log parameters");
  if (learn_variance_) variance_ = std::exp(p(0));
}

std::vector<std::string> FunctionalKernel::param_names() const {
  if (!learn_variance_) return {};
  return {"variance"};
}

std::vector<ParamSpec> FunctionalKernel::param_specs() const {
  if (!learn_variance_) return {};
  return {ParamSpec::variance()};
}

void FunctionalKernel::set_variance(double v) {
  if (!(v > 0.0)) throw InputError("FunctionalKernel: variance must be > 0");
  variance_ = v;
}

double FunctionalKernel::profile(double r) const {
  const double lam = hyper_.lambda_h;
  const double mr = lam * kfo::matern32_corr(r, hyper_.lengthscale);
  double s = 0.0;
  for (Eigen::Index u = 0; u < weights_.size(); ++u) s += weights_(u) / (1.0 - mr * m_grid_(u));
  return (1.0 - lam) * s;
}

Mat FunctionalKernel::profile_matrix(const Mat& R) const {
  Mat K(R.rows(), R.cols());
  for (Eigen::Index j = 0; j < R.cols(); ++j)
    for (Eigen::Index i = 0; i < R.rows(); ++i) K(i, j) = profile(R(i, j));
  return K;
}

Mat FunctionalKernel::cross(const Mat& X, const Mat& Y) const {
  Mat K = profile_matrix(pairwise_distances(scaled(X), scaled(Y)));
  if (base_) K += base_->cross(X, Y);
  return variance_ * K;
}

Vec FunctionalKernel::diag(const Mat& X) const {
  Vec d = Vec::Constant(X.rows(), profile(0.0));
  if (base_) d += base_->diag(X);
  return variance_ * d;
}

std::vector<Mat> FunctionalKernel::gram_gradients(const Mat& X) const {
  if (!learn_variance_) return {};
  return {gram(X)};  // ∂(v K)/∂log v = v K
}

Mat FunctionalKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  // ∂K/∂x = Σ_u a_u ∂κ/∂r · s² ⊙ (x − x_j)/r with r = ||s ⊙ (x − x_j)||; with m'(r)/r = −(3/l²) e^{−√3 r/l}
  // the ratio is finite at r = 0.
  const double lam = hyper_.lambda_h, l = hyper_.lengthscale;
  if (scales_.size() != 0 && scales_.size() != x.size()) throw InputError("FunctionalKernel: input has the wrong dimension");
  Mat G(x.size(), X.rows());
  for (Eigen::Index j = 0; j < X.rows(); ++j) {
    Vec diff = x - X.row(j).transpose();
    if (scales_.size() != 0) diff = diff.cwiseProduct(scales_);
    const double r = diff.norm();
    if (scales_.size() != 0) diff = diff.cwiseProduct(scales_);
    const double mr = kfo::matern32_corr(r, l);
    const double dm_over_r = kfo::matern32_corr_deriv_over_r(r, l);
    double s = 0.0;
    for (Eigen::Index u = 0; u < weights_.size(); ++u) {
      const double den = 1.0 - lam * mr * m_grid_(u);
      s += weights_(u) * lam * m_grid_(u) / (den * den);
    }
    G.col(j) = variance_ * (1.0 - lam) * s * dm_over_r * diff;
  }
  if (base_) G += variance_ * base_->cross_grad_x(x, X);
  return G;
}

Vec FunctionalKernel::diag_grad_x(const Vec& x) const {
  Vec g = Vec::Zero(x.size());
  if (base_) g = variance_ * base_->diag_grad_x(x);
  return g;
}

}  // namespace kbo
