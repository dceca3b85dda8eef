#include "kbo/model/gp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <thread>

#include "lml_evaluator.hpp"
#include "kbo/core/parallel.hpp"

namespace kbo {

namespace {
constexpr double kLog2Pi = 1.8378770664093453;
}  // namespace

GP::GP(KernelPtr kernel, double noise_variance, bool normalize, bool learn_noise)
    : kernel_(std::move(kernel)), noise_(noise_variance), normalize_(normalize), learn_noise_(learn_noise) {
  if (!kernel_) throw InputError("GP: kernel is null");
  if (!(noise_variance > 0)) throw InputError("GP: noise variance must be > 0");
}

GP::GP(const GP& o)
    : kernel_(o.kernel_->clone()), noise_(o.noise_), normalize_(o.normalize_), learn_noise_(o.learn_noise_), X_(o.X_),
      y_raw_(o.y_raw_), y_(o.y_), known_noise_raw_(o.known_noise_raw_), known_noise_(o.known_noise_), y_mean_(o.y_mean_), y_scale_(o.y_scale_), chol_(o.chol_), alpha_(o.alpha_),
      lml_(o.lml_) {}

GP& GP::operator=(const GP& o) {
  if (this != &o) {
    GP copy(o);
    *this = std::move(copy);
  }
  return *this;
}

void GP::set_data(const Mat& X, const Vec& y) { set_data(X, y, Vec()); }

void GP::set_known_noise(const Vec& known_noise, Eigen::Index n) {
  if (known_noise.size() > 0) {
    if (known_noise.size() != n)
      throw InputError("GP: " + std::to_string(n) + " targets but " + std::to_string(known_noise.size()) +
                       " known noise variances");
    require_finite(known_noise, "GP known noise variances");
    if (known_noise.minCoeff() < 0.0) throw InputError("GP: a known noise variance is negative");
  }
  known_noise_raw_ = known_noise;
}

void GP::set_data(const Mat& X, const Vec& y, const Vec& known_noise) {
  if (X.rows() == 0) throw InputError("GP: no training points");
  if (y.size() != X.rows())
    throw InputError("GP: " + std::to_string(X.rows()) + " points but " + std::to_string(y.size()) + " targets");
  require_finite(X, "GP inputs");
  require_finite(y, "GP targets");
  set_known_noise(known_noise, y.size());
  X_ = X;
  standardise(y);
  factorise();
}

void GP::standardise(const Vec& y) {
  y_raw_ = y;
  if (normalize_) {
    y_mean_ = y.mean();
    double var = y.size() > 1 ? (y.array() - y_mean_).square().sum() / static_cast<double>(y.size() - 1) : 0.0;
    y_scale_ = var > 1e-300 ? std::sqrt(var) : 1.0;
  } else {
    y_mean_ = 0.0;
    y_scale_ = 1.0;
  }
  y_ = (y.array() - y_mean_) / y_scale_;
  // A standard error scales with the targets: variances by the square of the scale.
  known_noise_ = known_noise_raw_.size() == y.size() ? Vec(known_noise_raw_ / (y_scale_ * y_scale_)) : Vec();
}

void GP::factorise() {
  kernel_->condition_on(X_);
  Mat K = kernel_->gram(X_);
  K.diagonal().array() += noise_;
  if (known_noise_.size() > 0) K.diagonal() += known_noise_;
  chol_.compute(K);
  update_alpha();
}

void GP::update_alpha() {
  alpha_ = chol_.solve(y_);
  lml_ = -0.5 * y_.dot(alpha_) - 0.5 * chol_.log_det() - 0.5 * static_cast<double>(y_.size()) * kLog2Pi;
}

void GP::set_targets(const Vec& y) { set_targets(y, known_noise_raw_); }

void GP::set_targets(const Vec& y, const Vec& known_noise) {
  if (y.size() != X_.rows())
    throw InputError("GP: " + std::to_string(X_.rows()) + " points but " + std::to_string(y.size()) + " targets");
  require_finite(y, "GP targets");
  const Vec before = known_noise_;
  set_known_noise(known_noise, y.size());
  standardise(y);
  // The factor depends on the targets only through the known noise in their units.
  const bool same_diagonal = before.size() == known_noise_.size() && (before.size() == 0 || before == known_noise_);
  if (same_diagonal)
    update_alpha();
  else
    factorise();
}

void GP::refactor() {
  if (X_.rows() > 0) factorise();
}

void GP::add_observation(const Vec& x, double y) {
  if (X_.rows() > 0 && x.size() != X_.cols())
    throw InputError("GP: point has " + std::to_string(x.size()) + " coordinates, expected " + std::to_string(X_.cols()));
  append_observations(x.transpose(), Vec::Constant(1, y));
}

void GP::append_observations(const Mat& Xnew, const Vec& ynew) { append_observations(Xnew, ynew, Vec()); }

void GP::append_observations(const Mat& Xnew, const Vec& ynew, const Vec& known_noise_new) {
  if (known_noise_new.size() > 0 && known_noise_new.size() != ynew.size())
    throw InputError("GP: " + std::to_string(ynew.size()) + " new targets but " + std::to_string(known_noise_new.size()) +
                     " known noise variances");
  if (Xnew.rows() != ynew.size())
    throw InputError("GP: " + std::to_string(Xnew.rows()) + " new points but " + std::to_string(ynew.size()) + " targets");
  if (Xnew.rows() == 0) return;
  if (X_.rows() == 0) {
    set_data(Xnew, ynew, known_noise_new);
    return;
  }
  if (Xnew.cols() != X_.cols())
    throw InputError("GP: points have " + std::to_string(Xnew.cols()) + " coordinates, expected " + std::to_string(X_.cols()));
  require_finite(Xnew, "GP inputs");
  require_finite(ynew, "GP targets");
  if (known_noise_new.size() > 0) {
    require_finite(known_noise_new, "GP known noise variances");
    if (known_noise_new.minCoeff() < 0.0) throw InputError("GP: a known noise variance is negative");
  }
  const Eigen::Index n = X_.rows(), m = Xnew.rows();
  // Rows without known noise have none (0): the old rows when only the new ones bring it, and vice versa.
  if (known_noise_raw_.size() > 0 || known_noise_new.size() > 0) {
    if (known_noise_raw_.size() == 0) known_noise_raw_ = known_noise_ = Vec::Zero(n);
    known_noise_raw_.conservativeResize(n + m);
    known_noise_raw_.tail(m) = known_noise_new.size() > 0 ? known_noise_new : Vec(Vec::Zero(m));
    known_noise_.conservativeResize(n + m);
    known_noise_.tail(m) = known_noise_raw_.tail(m) / (y_scale_ * y_scale_);
  }
  X_.conservativeResize(n + m, Eigen::NoChange);
  X_.bottomRows(m) = Xnew;
  y_raw_.conservativeResize(n + m);
  y_raw_.tail(m) = ynew;
  y_.conservativeResize(n + m);
  y_.tail(m) = (ynew.array() - y_mean_) / y_scale_;
  if (kernel_->depends_on_training_data()) {
    factorise();
    return;
  }
  Mat K_new = kernel_->gram(Xnew);
  K_new.diagonal().array() += noise_;
  if (known_noise_.size() > 0) K_new.diagonal() += known_noise_.tail(m);
  try {
    chol_.extend(kernel_->cross(X_.topRows(n), Xnew), K_new);
  } catch (const NumericalError&) {
    factorise();  // e.g. a point repeated at tiny noise: the full factorisation escalates the jitter
    return;
  }
  update_alpha();
}

Vec GP::hyperparameters() const {
  Vec k = kernel_->log_params();
  Vec t(k.size() + 1);
  t << k, std::log(noise_);
  return t;
}

void GP::set_hyperparameters(const Vec& theta) {
  if (theta.size() != kernel_->num_params() + 1)
    throw InputError("GP: expected " + std::to_string(kernel_->num_params() + 1) + " hyperparameters, got " +
                     std::to_string(theta.size()));
  kernel_->set_log_params(theta.head(theta.size() - 1));
  noise_ = std::exp(theta[theta.size() - 1]);
  refactor();
}

std::vector<std::string> GP::hyperparameter_names() const {
  auto names = kernel_->param_names();
  names.push_back("noise_variance");
  return names;
}

std::vector<ParamSpec> GP::hyperparameter_specs() const {
  auto specs = kernel_->param_specs();
  specs.push_back(ParamSpec::of(ParamRole::Noise));
  return specs;
}

void GP::set_noise_variance(double v) {
  if (!(v > 0)) throw InputError("GP: noise variance must be > 0");
  noise_ = v;
  refactor();
}

double detail::LmlEvaluator::operator()(const Vec& theta, Vec* grad) {
  k_->set_log_params(theta.head(theta.size() - 1));
  const double noise = std::exp(theta[theta.size() - 1]);
  k_->condition_on(X_);
  const double n = static_cast<double>(y_.size());
  const auto add_known = [&](Mat& K) -> bool {
    if (known_.size() > 0) K.diagonal() += known_;
    return true;
  };
  if (k_->gram_lower_fused(X_, noise, B_, aux_) && add_known(B_) && cholesky_lower_in_place(B_)) {
    const Mat& L = B_;  // lower triangle
    const Vec diag = L.diagonal();
    if (diag.minCoeff() > 0.0 && std::isfinite(diag.sum())) {
      alpha_ = L.triangularView<Eigen::Lower>().solve(y_);
      L.triangularView<Eigen::Lower>().transpose().solveInPlace(alpha_);
      const double lml = -0.5 * y_.dot(alpha_) - diag.array().log().sum() - 0.5 * n * kLog2Pi;
      if (grad) {
        // ∂LML/∂θ = ½ tr((ααᵀ − K⁻¹) ∂K/∂θ); for log σ²_noise, ∂K/∂θ = σ²_noise I.
        cholesky_inverse_lower_in_place(B_);
        grad->resize(theta.size());
        grad->head(theta.size() - 1) = 0.5 * k_->gradient_contract_fused(X_, B_, alpha_, aux_);
        (*grad)[theta.size() - 1] = 0.5 * noise * (alpha_.squaredNorm() - B_.diagonal().sum());
      }
      return lml;
    }
  }
  Mat K = k_->gram(X_);
  K.diagonal().array() += noise;
  add_known(K);
  Cholesky chol(K);
  Vec alpha = chol.solve(y_);
  const double lml = -0.5 * y_.dot(alpha) - 0.5 * chol.log_det() - 0.5 * n * kLog2Pi;
  if (grad) {
    Mat W = chol.inverse();
    W = alpha * alpha.transpose() - W;
    grad->resize(theta.size());
    grad->head(theta.size() - 1) = 0.5 * k_->gram_gradient_contract(X_, W);
    (*grad)[theta.size() - 1] = 0.5 * noise * W.trace();
  }
  return lml;
}

double GP::log_marginal_likelihood_at(const Vec& theta, Vec* grad) const {
  if (X_.rows() == 0) throw InputError("GP: log marginal likelihood needs data");
  if (theta.size() != kernel_->num_params() + 1)
    throw InputError("GP: expected " + std::to_string(kernel_->num_params() + 1) + " hyperparameters, got " +
                     std::to_string(theta.size()));
  detail::LmlEvaluator eval(*kernel_, X_, y_, known_noise_);
  return eval(theta, grad);
}

Vec GP::log_marginal_likelihood_gradient() const {
  Vec g;
  log_marginal_likelihood_at(hyperparameters(), &g);
  return g;
}

GP::Prediction GP::predict(const Mat& Xs) const {
  if (X_.rows() == 0) throw InputError("GP: predict before any data");
  if (Xs.cols() != X_.cols())
    throw InputError("GP: test points have " + std::to_string(Xs.cols()) + " columns, training points have " +
                     std::to_string(X_.cols()));
  Prediction p;
  p.mean.resize(Xs.rows());
  p.variance.resize(Xs.rows());
  const Eigen::Index n = X_.rows(), rows = Xs.rows();
  // Many test points: variances through an explicit L⁻¹ (n³/3 once) and, per chunk, K* ← K* L⁻ᵀ in place
  // with BLAS trmm. Same flops as a triangular solve with m right-hand sides, but trmm runs about twice
  // as fast, needs no transposed copy of K*, and the n³/3 is repaid from m ≈ n/2 test points on.
  Mat Linv;
  if (2 * rows >= n) Linv = chol_.lower_inverse();
  auto predict_rows = [&](const Kernel& kernel, Eigen::Index begin, Eigen::Index end) {
    const Eigen::Index chunk = 4096;  // bounds the memory of K*
    for (Eigen::Index start = begin; start < end; start += chunk) {
      const Eigen::Index m = std::min(chunk, end - start);
      const Mat Xc = Xs.middleRows(start, m);
      Mat Ks = kernel.cross(Xc, X_);  // m x n
      p.mean.segment(start, m) = Ks * alpha_;
      if (m == 1) {  // vector solve: avoids BLAS repacking L for a single right-hand side
        Vec v = chol_.solve_lower(Vec(Ks.row(0).transpose()));
        p.variance[start] = std::max(kernel.diag(Xc)[0] - v.squaredNorm(), 0.0);
      } else if (Linv.size() > 0) {
        multiply_by_lower_transpose_in_place(Ks, Linv);
        p.variance.segment(start, m) = (kernel.diag(Xc) - Ks.rowwise().squaredNorm()).cwiseMax(0.0);
      } else {
        Mat V = chol_.solve_lower(Mat(Ks.transpose()));
        p.variance.segment(start, m) = (kernel.diag(Xc) - V.colwise().squaredNorm().transpose()).cwiseMax(0.0);
      }
    }
  };
  // Large batches (≥ 400,000 kernel values, e.g. plotting or scoring a grid) are split between the
  // machine's threads, each with its own kernel clone (kernels may cache). The acquisition's candidate
  // batches stay below this and single-threaded, since the optimisers already run starts in parallel.
  const size_t hw = static_cast<size_t>(hardware_threads());
  const size_t threads = rows * n >= 400000 ? std::min<size_t>(hw, static_cast<size_t>(rows / 256)) : 1;
  if (threads <= 1) {
    predict_rows(*kernel_, 0, rows);
  } else {
    // One contiguous block of rows per thread, each with its own kernel clone.
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (size_t t = 0; t < threads; ++t) kernels.push_back(kernel_->clone());
    const auto T = static_cast<Eigen::Index>(threads);
    parallel_for(static_cast<int>(threads), static_cast<int>(threads), [&](int t) {
      predict_rows(*kernels[t], rows * t / T, rows * (t + 1) / T);
    });
  }
  p.mean = (p.mean.array() * y_scale_ + y_mean_).matrix();
  p.variance *= y_scale_ * y_scale_;
  return p;
}

Mat GP::posterior_covariance(const Mat& Xs) const {
  if (X_.rows() == 0) throw InputError("GP: posterior covariance before any data");
  Mat Ks = kernel_->cross(Xs, X_);
  Mat V = chol_.solve_lower(Mat(Ks.transpose()));
  Mat C = kernel_->gram(Xs) - V.transpose() * V;
  return y_scale_ * y_scale_ * 0.5 * (C + C.transpose());
}

void GP::predict_with_gradient(const Vec& x, double& mean, double& variance, Vec& dmean, Vec& dvariance) const {
  if (X_.rows() == 0) throw InputError("GP: predict before any data");
  Mat xm = x.transpose();
  Vec ks = kernel_->cross(xm, X_).row(0).transpose();  // n
  Mat J = kernel_->cross_grad_x(x, X_);                 // D x n
  Vec v = chol_.solve_lower(ks);
  Vec w = chol_.L().triangularView<Eigen::Lower>().transpose().solve(v);  // K⁻¹ k*
  mean = ks.dot(alpha_);
  variance = kernel_->diag(xm)[0] - v.squaredNorm();
  dmean = J * alpha_;
  dvariance = kernel_->diag_grad_x(x) - 2.0 * J * w;
  if (variance < 0.0) {
    variance = 0.0;
    dvariance.setZero();
  }
  mean = mean * y_scale_ + y_mean_;
  dmean *= y_scale_;
  variance *= y_scale_ * y_scale_;
  dvariance *= y_scale_ * y_scale_;
}

double GP::information_gain() const {
  if (X_.rows() == 0) return 0.0;
  if (known_noise_.size() > 0) return 0.5 * (chol_.log_det() - (known_noise_.array() + noise_).log().sum());
  return 0.5 * (chol_.log_det() - static_cast<double>(X_.rows()) * std::log(noise_));
}

}  // namespace kbo
