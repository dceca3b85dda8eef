#include "kbo/model/gp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <nlopt.hpp>
#include <string>
#include <random>
#include <thread>

#include "kbo/core/random.hpp"

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
      y_raw_(o.y_raw_), y_(o.y_), y_mean_(o.y_mean_), y_scale_(o.y_scale_), chol_(o.chol_), alpha_(o.alpha_),
      lml_(o.lml_) {}

GP& GP::operator=(const GP& o) {
  if (this != &o) {
    GP copy(o);
    *this = std::move(copy);
  }
  return *this;
}

void GP::set_data(const Mat& X, const Vec& y) {
  if (X.rows() == 0) throw InputError("GP: no training points");
  if (y.size() != X.rows())
    throw InputError("GP: " + std::to_string(X.rows()) + " points but " + std::to_string(y.size()) + " targets");
  require_finite(X, "GP inputs");
  require_finite(y, "GP targets");
  X_ = X;
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
  factorise();
}

void GP::factorise() {
  kernel_->condition_on(X_);
  Mat K = kernel_->gram(X_);
  K.diagonal().array() += noise_;
  chol_.compute(K);
  alpha_ = chol_.solve(y_);
  lml_ = -0.5 * y_.dot(alpha_) - 0.5 * chol_.log_det() - 0.5 * static_cast<double>(y_.size()) * kLog2Pi;
}

void GP::refactor() {
  if (X_.rows() > 0) factorise();
}

void GP::add_observation(const Vec& x, double y) {
  if (X_.rows() == 0) {
    set_data(x.transpose(), Vec::Constant(1, y));
    return;
  }
  if (x.size() != X_.cols())
    throw InputError("GP: point has " + std::to_string(x.size()) + " coordinates, expected " + std::to_string(X_.cols()));
  require_finite(x, "GP input");
  if (!std::isfinite(y)) throw InputError("GP: non-finite target");
  const Eigen::Index n = X_.rows();
  X_.conservativeResize(n + 1, Eigen::NoChange);
  X_.row(n) = x.transpose();
  y_raw_.conservativeResize(n + 1);
  y_raw_[n] = y;
  y_.conservativeResize(n + 1);
  y_[n] = (y - y_mean_) / y_scale_;
  if (kernel_->depends_on_training_data()) {
    factorise();
    return;
  }
  Mat xm = x.transpose();
  Vec k_new = kernel_->cross(X_.topRows(n), xm).col(0);
  double k_nn = kernel_->diag(xm)[0] + noise_;
  chol_.extend(k_new, k_nn);
  alpha_ = chol_.solve(y_);
  lml_ = -0.5 * y_.dot(alpha_) - 0.5 * chol_.log_det() - 0.5 * static_cast<double>(y_.size()) * kLog2Pi;
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

namespace {
// Log marginal likelihood (+ gradient) at arbitrary θ for one data set. Holds a kernel clone and the
// n x n buffers, reused across the evaluations of one optimiser run, so that an evaluation allocates
// nothing of size n² after the first.
//
// Fused path (kernels overriding gram_lower_fused, e.g. stationary ones): one pass writes the lower
// triangle of K + σ²I and the kernel's per-pair data; Cholesky and then the inverse (potri) overwrite
// that triangle in place; one more pass contracts ααᵀ − K⁻¹ with every ∂K/∂θ_p at once. That is
// Cholesky + inverse ≈ 3 Choleskys of arithmetic plus two O(n²·D) passes. Where the in-place Cholesky
// fails (needs jitter) and for other kernels, the generic path (Cholesky with jitter escalation,
// gram_gradient_contract on a dense W) runs instead.
class LmlEvaluator {
 public:
  LmlEvaluator(const Kernel& kernel, const Mat& X, const Vec& y) : k_(kernel.clone()), X_(X), y_(y) {}

  double operator()(const Vec& theta, Vec* grad) {
    k_->set_log_params(theta.head(theta.size() - 1));
    const double noise = std::exp(theta[theta.size() - 1]);
    k_->condition_on(X_);
    const double n = static_cast<double>(y_.size());
    if (k_->gram_lower_fused(X_, noise, B_, aux_) && cholesky_lower_in_place(B_)) {
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

 private:
  KernelPtr k_;
  const Mat& X_;
  const Vec& y_;
  Mat B_, aux_;
  Vec alpha_;
};
}  // namespace

double GP::log_marginal_likelihood_at(const Vec& theta, Vec* grad) const {
  if (X_.rows() == 0) throw InputError("GP: log marginal likelihood needs data");
  if (theta.size() != kernel_->num_params() + 1)
    throw InputError("GP: expected " + std::to_string(kernel_->num_params() + 1) + " hyperparameters, got " +
                     std::to_string(theta.size()));
  LmlEvaluator eval(*kernel_, X_, y_);
  return eval(theta, grad);
}

Vec GP::log_marginal_likelihood_gradient() const {
  Vec g;
  log_marginal_likelihood_at(hyperparameters(), &g);
  return g;
}

namespace {
// Per-dimension input range of the data (1 where the column is constant or there is no data).
Vec input_ranges(const Mat& X, int dims) {
  Vec r = Vec::Ones(dims);
  if (X.rows() > 1 && X.cols() == dims)
    for (int d = 0; d < dims; ++d) {
      double span = X.col(d).maxCoeff() - X.col(d).minCoeff();
      if (span > 1e-12) r[d] = span;
    }
  return r;
}
// The input range a lengthscale (or period) is measured against: its coordinate's, else the mean.
double range_for(const ParamSpec& spec, const Vec& ranges) {
  if (spec.dim >= 0 && spec.dim < ranges.size()) return ranges[spec.dim];
  return ranges.mean();
}
}  // namespace

void GP::default_bounds(Vec& lower, Vec& upper) const {
  const auto specs = hyperparameter_specs();
  const int P = static_cast<int>(specs.size());
  lower.resize(P);
  upper.resize(P);
  Vec ranges = input_ranges(X_, static_cast<int>(X_.cols()));
  // Raw targets: bounds scale with their second moment; all-zero targets (a constant objective seen
  // through a fixed prior mean) carry no scale, so they get the standardised bounds.
  const double m2 = y_.size() == 0 ? 0.0 : y_.squaredNorm() / static_cast<double>(y_.size());
  const double yvar = normalize_ || m2 == 0.0 ? 1.0 : std::max(m2, 1e-12);
  for (int p = 0; p < P; ++p) {
    switch (specs[p].role) {
      case ParamRole::Lengthscale:
      case ParamRole::Period: {
        double r = range_for(specs[p], ranges);
        lower[p] = std::log(1e-3 * r);
        upper[p] = std::log(1e3 * r);
        break;
      }
      case ParamRole::Variance:
        lower[p] = std::log(1e-4 * yvar);
        upper[p] = std::log(1e4 * yvar);
        break;
      case ParamRole::Noise:
        lower[p] = std::log(1e-8 * yvar);
        upper[p] = std::log(yvar);
        break;
      case ParamRole::Other:
        lower[p] = std::log(1e-4);
        upper[p] = std::log(1e4);
        break;
    }
    if (specs[p].log_lower) lower[p] = *specs[p].log_lower;
    if (specs[p].log_upper) upper[p] = *specs[p].log_upper;
  }
}

std::vector<Prior> GP::default_priors() const {
  const auto specs = hyperparameter_specs();
  const int P = static_cast<int>(specs.size());
  std::vector<Prior> priors(P);
  Vec ranges = input_ranges(X_, static_cast<int>(X_.cols()));
  for (int p = 0; p < P; ++p) {
    if (specs[p].prior) {
      priors[p] = *specs[p].prior;
      continue;
    }
    switch (specs[p].role) {
      case ParamRole::Lengthscale: priors[p] = Prior::gamma(3.0, 6.0 / range_for(specs[p], ranges)); break;
      case ParamRole::Variance: priors[p] = Prior::gamma(2.0, 0.15); break;
      case ParamRole::Noise: priors[p] = Prior::gamma(1.1, 0.05); break;
      case ParamRole::Period:
      case ParamRole::Other: break;
    }
  }
  return priors;
}

double GP::fit(const FitOptions& options) {
  if (X_.rows() == 0) throw InputError("GP: fit needs data");
  const Vec theta0 = hyperparameters();
  const int P = static_cast<int>(theta0.size());
  Vec lower = options.lower, upper = options.upper;
  if (lower.size() == 0 || upper.size() == 0) default_bounds(lower, upper);
  if (lower.size() != P || upper.size() != P) throw InputError("GP fit: bounds must have one value per hyperparameter");
  std::vector<bool> mask = options.fit_mask;
  if (mask.empty()) {
    mask.assign(P, true);
    mask[P - 1] = learn_noise_;
  }
  std::vector<Prior> priors = options.priors;
  if (options.map && priors.empty()) priors = default_priors();
  std::vector<int> free;
  for (int p = 0; p < P; ++p)
    if (mask[p]) free.push_back(p);
  if (free.empty()) {
    refactor();
    return lml_;
  }

  auto objective = [&](LmlEvaluator& eval, const Vec& theta, Vec* grad) {
    double value = eval(theta, grad);
    if (options.map)
      for (int p = 0; p < P && p < static_cast<int>(priors.size()); ++p) {
        double d = 0.0;
        value += priors[p].log_density(theta[p], &d);
        if (grad) (*grad)[p] += d;
      }
    return value;
  };

  // Starting points: the current θ (clamped), then random restarts in data-aware ranges per role.
  std::vector<Vec> starts{theta0.cwiseMax(lower).cwiseMin(upper)};
  Rng rng = make_rng(options.seed + 7919);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  const auto specs = hyperparameter_specs();
  Vec ranges = input_ranges(X_, static_cast<int>(X_.cols()));
  for (int r = 0; r < options.restarts; ++r) {
    Vec t = starts[0];
    for (int p : free) {
      double lo, hi;
      if (specs[p].role == ParamRole::Lengthscale) {
        double s = range_for(specs[p], ranges);
        lo = std::log(0.05 * s), hi = std::log(2.0 * s);
      } else if (specs[p].role == ParamRole::Noise) {
        // Between 1e-4 and 0.3 of the target variance: tiny-noise starts tend to get stuck in
        // interpolating optima with lower likelihood.
        lo = std::max(lower[p], upper[p] + std::log(1e-4));
        hi = std::min(upper[p], upper[p] + std::log(0.3));
      } else {
        lo = theta0[p] - std::log(10.0), hi = theta0[p] + std::log(10.0);
      }
      t[p] = std::clamp(lo + (hi - lo) * unif(rng), lower[p], upper[p]);
    }
    starts.push_back(t);
  }

  // Screen every start by its objective value (no gradient: one Cholesky each), polish the best few.
  std::vector<double> screened(starts.size(), -std::numeric_limits<double>::infinity());
  const int polish = options.polish > 0 ? options.polish : (X_.rows() < 200 ? 3 : 1);
  if (starts.size() > 1 && polish < static_cast<int>(starts.size())) {
    LmlEvaluator eval(*kernel_, X_, y_);
    for (size_t s = 0; s < starts.size(); ++s) {
      try {
        screened[s] = objective(eval, starts[s], nullptr);
      } catch (const NumericalError&) {
      }
      if (!std::isfinite(screened[s])) screened[s] = -std::numeric_limits<double>::infinity();
    }
    std::vector<size_t> order(starts.size());
    for (size_t s = 0; s < order.size(); ++s) order[s] = s;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return screened[a] > screened[b]; });
    std::vector<Vec> kept;
    for (int i = 0; i < polish; ++i) kept.push_back(starts[order[i]]);
    starts = std::move(kept);
  }

  struct Outcome {
    Vec theta;
    double value = -std::numeric_limits<double>::infinity();
  };
  std::vector<Outcome> outcomes(starts.size());
  auto run = [&](size_t s) {
    Outcome best{starts[s], -std::numeric_limits<double>::infinity()};
    std::vector<double> x(free.size()), lo(free.size()), hi(free.size());
    for (size_t i = 0; i < free.size(); ++i) x[i] = starts[s][free[i]], lo[i] = lower[free[i]], hi[i] = upper[free[i]];
    LmlEvaluator eval(*kernel_, X_, y_);
    struct Ctx {
      decltype(objective)* f;
      LmlEvaluator* eval;
      const std::vector<int>* free;
      Vec theta;
      Vec grad;
      Outcome* best;
    } ctx{&objective, &eval, &free, starts[s], Vec(), &best};
    auto fn = [](unsigned n, const double* xv, double* g, void* data) -> double {
      auto* c = static_cast<Ctx*>(data);
      for (unsigned i = 0; i < n; ++i) c->theta[(*c->free)[i]] = xv[i];
      Vec& grad = c->grad;
      double v;
      try {
        v = (*c->f)(*c->eval, c->theta, g ? &grad : nullptr);
      } catch (const NumericalError&) {
        v = -std::numeric_limits<double>::infinity();
      }
      if (!std::isfinite(v)) {
        if (g) std::fill(g, g + n, 0.0);
        return -1e300;
      }
      if (g)
        for (unsigned i = 0; i < n; ++i) g[i] = std::isfinite(grad[(*c->free)[i]]) ? grad[(*c->free)[i]] : 0.0;
      if (v > c->best->value) c->best->value = v, c->best->theta = c->theta;
      return v;
    };
    nlopt::opt opt(nlopt::LD_LBFGS, static_cast<unsigned>(free.size()));
    opt.set_lower_bounds(lo);
    opt.set_upper_bounds(hi);
    opt.set_max_objective(fn, &ctx);
    opt.set_maxeval(options.max_evaluations);
    // Looser tolerances were tried: ftol 1e-5 saves only ~20% of the evaluations at n = 50 (the
    // count is set by the path to the optimum, not by the endgame) and moves the LML by 2e-4.
    opt.set_ftol_rel(1e-7);
    opt.set_xtol_rel(1e-5);
    double f = 0.0;
    try {
      opt.optimize(x, f);
    } catch (const std::exception&) {
      // roundoff-limited or forced stop: the best point seen is kept in `best`.
    }
    outcomes[s] = best;
  };
  // Large n: one polish at a time so that LAPACK/BLAS can use every core; small n: polishes in parallel.
  const size_t hw = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = X_.rows() >= 200 ? 1 : std::min<size_t>(starts.size(), hw);
  if (threads <= 1) {
    // Large matrices: give LAPACK every core for the sequential polishes, then restore.
    // An explicit OPENBLAS_NUM_THREADS wins: on a machine shared with other jobs, multi-threaded BLAS
    // calls wait for cores that are busy elsewhere (measured: a 200-point fit 10x slower at load 20).
    const bool user_choice = std::getenv("OPENBLAS_NUM_THREADS") != nullptr;
    const int previous = X_.rows() >= 200 && !user_choice ? set_blas_threads(static_cast<int>(hw)) : -1;
    for (size_t s = 0; s < starts.size(); ++s) run(s);
    if (previous > 0) set_blas_threads(previous);
  } else {
    std::vector<std::thread> pool;
    std::mutex m;
    size_t next = 0;
    for (size_t t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        for (;;) {
          size_t s;
          {
            std::lock_guard<std::mutex> lock(m);
            if (next >= starts.size()) return;
            s = next++;
          }
          run(s);
        }
      });
    for (auto& th : pool) th.join();
  }
  // Deterministic reduction: first best in start order.
  const Outcome* best = nullptr;
  for (const auto& o : outcomes)
    if (std::isfinite(o.value) && (!best || o.value > best->value)) best = &o;
  if (!best) throw NumericalError("GP fit: the likelihood could not be evaluated at any starting point");
  set_hyperparameters(best->theta);
  return best->value;
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
  const size_t hw = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = rows * n >= 400000 ? std::min<size_t>(hw, static_cast<size_t>(rows / 256)) : 1;
  if (threads <= 1) {
    predict_rows(*kernel_, 0, rows);
  } else {
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (size_t t = 0; t < threads; ++t) kernels.push_back(kernel_->clone());
    std::vector<std::exception_ptr> errors(threads);
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        try {
          predict_rows(*kernels[t], rows * static_cast<Eigen::Index>(t) / static_cast<Eigen::Index>(threads),
                       rows * static_cast<Eigen::Index>(t + 1) / static_cast<Eigen::Index>(threads));
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    for (auto& th : pool) th.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
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
  return 0.5 * (chol_.log_det() - static_cast<double>(X_.rows()) * std::log(noise_));
}

}  // namespace kbo
