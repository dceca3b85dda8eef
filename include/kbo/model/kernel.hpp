#pragma once
// The kernel interface. Points are rows of X (n x D). Hyperparameters live in LOG space (every
// hyperparameter is positive), and every kernel provides analytic gradients with respect to them and
// with respect to the input, so GP fitting and acquisition optimisation never use finite differences.
// Every hyperparameter also declares what it is (param_specs): the fitter chooses bounds, restart
// ranges and priors from that role, never from the parameter's name.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kbo/core/linalg.hpp"
#include "kbo/core/priors.hpp"

namespace kbo {

/// What a hyperparameter is. Every hyperparameter is positive and lives in log space; the GP's default
/// bounds, fit restart ranges and MAP priors are chosen per role (see GP::default_bounds):
///   Lengthscale  an input scale ℓ (units of the input coordinate(s) it divides)
///   Variance     a signal variance / output scale σ² (units of the targets squared)
///   Noise        an observation-noise variance (the GP appends its own as the last θ entry)
///   Period       the period of a periodic kernel (units of the input coordinate; bounded like a
///                lengthscale, no default prior)
///   Other        anything else (weights, shape parameters): generic bounds [1e-4, 1e4], no prior
enum class ParamRole { Lengthscale, Variance, Noise, Period, Other };

/// One hyperparameter's declaration: its role, the input coordinate it belongs to, and optionally
/// bounds or a prior of its own that replace the GP's defaults for the role.
struct ParamSpec {
  ParamRole role = ParamRole::Other;
  /// Lengthscale/Period: the input coordinate it applies to (ARD), or −1 when it applies to all of
  /// them (isotropic); data-aware defaults then use the mean input range. Unused for other roles.
  int dim = -1;
  std::optional<double> log_lower, log_upper;  // log-space bounds replacing the role's defaults
  std::optional<Prior> prior;                  // MAP prior replacing the role's default

  static ParamSpec of(ParamRole role, int dim = -1) {
    ParamSpec s;
    s.role = role;
    s.dim = dim;
    return s;
  }
  static ParamSpec lengthscale(int dim = -1) { return of(ParamRole::Lengthscale, dim); }
  static ParamSpec variance() { return of(ParamRole::Variance); }
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual std::unique_ptr<Kernel> clone() const = 0;
  /// Human-readable description with current hyperparameters, e.g. "matern52(ard, l=[..], s2=1.3)".
  virtual std::string describe() const = 0;

  // ---- hyperparameters (log space) ----
  virtual Vec log_params() const = 0;
  virtual void set_log_params(const Vec& p) = 0;
  virtual std::vector<std::string> param_names() const = 0;  // "lengthscale[0]", "variance", ... (display only)
  /// One spec per log-parameter, same order as log_params(). Wrappers forward their base kernel's
  /// (with the same coordinate indices); composites concatenate their parts'.
  virtual std::vector<ParamSpec> param_specs() const = 0;
  int num_params() const { return static_cast<int>(log_params().size()); }

  // ---- evaluation ----
  virtual Mat cross(const Mat& X, const Mat& Y) const = 0;  // n x m, K_ij = k(X_i, Y_j)
  virtual Mat gram(const Mat& X) const { return cross(X, X); }
  virtual Vec diag(const Mat& X) const;                      // k(X_i, X_i); default: row by row
  double operator()(const Vec& x, const Vec& y) const;

  // ---- gradients ----
  /// dK/dθ_p on X for every log-hyperparameter p (size num_params(), each n x n).
  virtual std::vector<Mat> gram_gradients(const Mat& X) const = 0;
  /// g_p = Σ_ij W_ij ∂K_ij/∂θ_p for a symmetric W. The default builds gram_gradients(); stationary
  /// kernels override it to avoid materialising P matrices.
  virtual Vec gram_gradient_contract(const Mat& X, const Mat& W) const;
  // ---- fused likelihood path (optional; the GP's hot loop) ----
  /// In one pass over the pairs i ≥ j: the lower triangle (with the diagonal) of K(X, X) + shift·I into
  /// K, and kernel-private per-pair data into the lower triangle of aux (both resized to n x n; their
  /// strict upper triangles are left unspecified). Returns false (the default) when the kernel has no
  /// fused path; the GP then uses gram() and gram_gradient_contract().
  virtual bool gram_lower_fused(const Mat& /*X*/, double /*shift*/, Mat& /*K*/, Mat& /*aux*/) const { return false; }
  /// For a symmetric S given by its lower triangle and aux as gram_lower_fused left it (same X and
  /// hyperparameters): g_p = Σ_ij W_ij ∂K_ij/∂θ_p with W = a aᵀ − S — the likelihood gradient's
  /// ααᵀ − K⁻¹ — without forming W or any ∂K/∂θ_p. Only called after gram_lower_fused returned true.
  virtual Vec gradient_contract_fused(const Mat& X, const Mat& S, const Vec& a, const Mat& aux) const;
  /// ∂k(x, X_j)/∂x as a D x n matrix (column j is the gradient of k(x, X_j)).
  virtual Mat cross_grad_x(const Vec& x, const Mat& X) const = 0;
  /// ∂k(x, x)/∂x (zero for stationary kernels, the default).
  virtual Vec diag_grad_x(const Vec& x) const { return Vec::Zero(x.size()); }

  /// Data-dependent kernels (PSD-projected max kernel, approximate set kernel) rebuild their state
  /// from the training inputs here; the GP calls it before every factorisation. Default: nothing.
  virtual void condition_on(const Mat& /*X_train*/) {}
  /// True for kernels whose values depend on the training set (they override condition_on): the GP
  /// then refactorises instead of extending its Cholesky factor when a point is added.
  virtual bool depends_on_training_data() const { return false; }
  /// A kernel whose hyperparameters should be fitted on ANOTHER kernel with the same log-parameter
  /// layout (e.g. an invariant kernel fitted on its base kernel, as the max-kernel paper does) returns
  /// it here; strategies then fit a GP with a clone of it and copy θ over. nullptr: fit on this kernel.
  virtual const Kernel* fit_surrogate() const { return nullptr; }
  /// A kernel invariant under a group of maps gives the local view of the data around x (a BO strategy's
  /// local step): every row of X replaced, in place, by its image under the maps nearest x (in the
  /// kernel's metric), and the kernel that models the function near x on those images (the base kernel,
  /// at this kernel's hyperparameters). nullptr and X untouched: no such structure (the default).
  virtual std::unique_ptr<Kernel> local_chart(const Vec& /*x*/, Mat& /*X*/) const { return nullptr; }
  /// A kernel defined in a chart around a point (the aligned set kernel: every set's elements paired with the
  /// incumbent's) moves its centre to x; strategies call it with the incumbent before a refit, and the GP
  /// must be given its data again (set_data) after. Default: nothing (the kernel has no centre).
  virtual void recentre(const Vec& /*x*/) {}
};

using KernelPtr = std::unique_ptr<Kernel>;

}  // namespace kbo
