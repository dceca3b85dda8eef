#pragma once
// Exact Gaussian-process regression.
//
// Hyperparameter vector θ (log space): [kernel.log_params()..., log noise variance]. With
// normalisation on (default), targets are standardised (y - mean)/std and the noise variance is in
// standardised units; predictions are always returned in the original units. With it off, the raw
// targets are used with a zero prior mean (so numbers match textbook GP implementations exactly).
//
// Known noise: set_data may give each observation a noise variance s_i² known beforehand (a noisy
// objective's squared standard error), in the units of the targets it is given. The covariance of the
// observations is then K + diag(σ² + s_i²/y_scale²): σ² is still learned, on top of what is known.
// A GP is immutable under prediction: const methods are safe to call from many threads.
#include <cstdint>
#include <optional>
#include <vector>

#include "kbo/model/kernel.hpp"
#include "kbo/core/priors.hpp"

namespace kbo {

/// GP::fit's options (the fitter itself is fit_hyperparameters in kbo/model/fit.hpp).
struct FitOptions {
  int restarts = 5;            // random starting points besides the current hyperparameters
  int polish = 0;              // how many of the best starting points (by objective value) L-BFGS polishes;
                               // screening by value costs one Cholesky per start, a polish ~30 gradients.
                               // 0 ⇒ automatic: 3 below 200 points (cheap, and small data is the most
                               // multimodal), 1 from 200 points on
  int max_evaluations = 100;   // per L-BFGS run
  bool map = false;            // add log priors to the objective (MAP); otherwise ML-II
  std::vector<Prior> priors;   // per θ entry; empty with map=true ⇒ default_priors()
  Vec lower, upper;            // log-space bounds per θ entry; empty ⇒ default_bounds()
  std::vector<bool> fit_mask;  // which θ entries are optimised; empty ⇒ all (noise only if learned)
  std::uint64_t seed = 0;      // of the random restarts
};

class GP {
 public:
  explicit GP(KernelPtr kernel, double noise_variance = 1e-6, bool normalize = true, bool learn_noise = true);
  GP(const GP& other);
  GP& operator=(const GP& other);
  GP(GP&&) noexcept = default;
  GP& operator=(GP&&) noexcept = default;

  // ---- data ----
  /// Sets the training data and factorises (O(n^3)). InputError on empty X, size mismatch, NaN/inf.
  void set_data(const Mat& X, const Vec& y);
  /// Same, with a known noise variance per observation (known_noise, in y's units; empty: none; entries >= 0),
  /// added to the learned noise variance on the covariance's diagonal.
  void set_data(const Mat& X, const Vec& y, const Vec& known_noise);
  /// Adds one observation with unchanged hyperparameters and normalisation constants: the Cholesky
  /// factor is extended in O(n^2). (Call set_data or set_targets to re-standardise.)
  void add_observation(const Vec& x, double y);
  /// Adds the rows of Xnew with targets ynew (original units), as add_observation does, in one block:
  /// O(n²m) for m rows, one triangular solve. A data-dependent kernel, or a new block that is not
  /// numerically positive definite, is refactorised from scratch instead (jitter escalation).
  void append_observations(const Mat& Xnew, const Vec& ynew);
  /// Same, with the new rows' known noise variances (set_data's units; empty: none).
  void append_observations(const Mat& Xnew, const Vec& ynew, const Vec& known_noise_new);
  /// Replaces every target (same points, same hyperparameters) and re-standardises as set_data does:
  /// α and the likelihood are recomputed in O(n²) from the factor, which does not depend on the targets.
  /// With known noise, a change of the standardisation scale changes the covariance: refactorised then (O(n³)).
  void set_targets(const Vec& y);
  /// Same, with every row's known noise variance replaced too (set_data's units; empty: none).
  void set_targets(const Vec& y, const Vec& known_noise);
  int size() const { return static_cast<int>(X_.rows()); }
  int input_dim() const { return static_cast<int>(X_.cols()); }
  const Mat& X() const { return X_; }
  const Vec& y() const { return y_raw_; }        // original units
  /// The targets the likelihood is computed on: (y − y_mean)/y_scale when normalising, else y.
  const Vec& targets() const { return y_; }
  double y_mean() const { return y_mean_; }
  double y_scale() const { return y_scale_; }
  /// The known noise variance per observation in y's units (empty: none given).
  const Vec& known_noise() const { return known_noise_raw_; }
  /// The same in the units of targets(): what the covariance's diagonal adds to σ² (empty: none).
  const Vec& known_noise_targets() const { return known_noise_; }

  // ---- hyperparameters ----
  Vec hyperparameters() const;                   // θ, log space
  void set_hyperparameters(const Vec& theta);    // refactorises if data is present
  std::vector<std::string> hyperparameter_names() const;
  /// The kernel's param_specs() and, last, the noise variance's (role Noise).
  std::vector<ParamSpec> hyperparameter_specs() const;
  double noise_variance() const { return noise_; }  // standardised units when normalising
  void set_noise_variance(double v);
  bool learns_noise() const { return learn_noise_; }
  bool normalizes() const { return normalize_; }
  const Kernel& kernel() const { return *kernel_; }
  Kernel& kernel() { return *kernel_; }           // call set_data/refactor after changing it
  void refactor();                                // recompute factorisation after kernel changes

  /// Log marginal likelihood of the (standardised) targets at the current θ, and its gradient wrt θ.
  double log_marginal_likelihood() const { return lml_; }
  Vec log_marginal_likelihood_gradient() const;
  /// LML (and gradient if grad != nullptr) at an arbitrary θ, without changing this GP.
  double log_marginal_likelihood_at(const Vec& theta, Vec* grad) const;

  /// Default log-space bounds per parameter role (ParamSpec), with r the input range of the parameter's
  /// coordinate (the mean range when it has none) and v the target scale (1 when normalising, else the
  /// targets' second moment): lengthscales and periods [1e-3 r, 1e3 r], variances [1e-4 v, 1e4 v],
  /// noise [1e-8 v, v], others [1e-4, 1e4]. A spec's own log_lower/log_upper replace them.
  void default_bounds(Vec& lower, Vec& upper) const;
  /// Priors that keep the fit away from "all noise": Gamma(3, 6/r) on lengthscales, Gamma(2, 0.15) on
  /// variances, Gamma(1.1, 0.05) on noise (BoTorch's defaults for standardised targets), none on the
  /// other roles. A spec's own prior replaces them.
  std::vector<Prior> default_priors() const;
  /// ML-II or MAP by fit_hyperparameters (fit.hpp) from the current θ and options.restarts random
  /// starts, within bounds; keeps the best θ found and refactorises. Returns the best objective (LML or
  /// LML + log prior). Defined in fit.cpp.
  double fit(const FitOptions& options = {});

  // ---- prediction (original units; variance of the latent f, noise excluded) ----
  struct Prediction {
    Vec mean;
    Vec variance;
  };
  Prediction predict(const Mat& Xs) const;
  Mat posterior_covariance(const Mat& Xs) const;
  /// Mean and variance at one point with their gradients wrt x.
  void predict_with_gradient(const Vec& x, double& mean, double& variance, Vec& dmean, Vec& dvariance) const;

  /// Information gain I(y; f) = ½ log det(I + Σ⁻¹ K) at the current θ, Σ = diag(σ² + known noise).
  double information_gain() const;
  const Cholesky& cholesky() const { return chol_; }
  const Vec& alpha() const { return alpha_; }    // (K + Σ)^{-1} y_standardised, Σ = diag(σ² + known noise)

 private:
  void factorise();
  void standardise(const Vec& y);  // y_raw_, y_, y_mean_, y_scale_ (and known_noise_) from original-unit targets
  void set_known_noise(const Vec& known_noise, Eigen::Index n);  // known_noise_raw_ for n rows (checked)
  void update_alpha();             // α and the LML from the factor and y_
  int noise_index() const { return kernel_->num_params(); }

  KernelPtr kernel_;
  double noise_;
  bool normalize_, learn_noise_;
  Mat X_;
  Vec y_raw_, y_;  // y_: standardised (or raw when not normalising)
  Vec known_noise_raw_, known_noise_;  // known noise variance per row: y_raw_'s units, y_'s units (empty: none)
  double y_mean_ = 0.0, y_scale_ = 1.0;
  Cholesky chol_;
  Vec alpha_;
  double lml_ = 0.0;
};

}  // namespace kbo
