#pragma once
// Group-invariant kernels built on any base kernel (paper 003, docs/papers.md#invariance).
//
//   MaxKernel        k_max(x, y) = max_g k(x, g y)            (symmetric, invariant, NOT PSD in general)
//   ProjectedKernel  k̃(x, y) = k_max(x, D) K₊^† k_max(D, y)    (PSD surrogate on the design set D, eq. 7)
//   AveragedKernel   k_avg(x, y) = 1/|G| Σ_g k(x, g y)         (orbit average, eq. 5; PSD)
//   NormalizedKernel k(x, y)/sqrt(k(x, x) k(y, y))            (optional for the averaged kernel)
//
// Groups act around a centre c: x ↦ c + g(x − c) (c = 0.5 on the unit cube the BO works in).
//
// One-sided vs two-sided: max_g k(x, g y) equals the two-sided max_{g,g'} k(g x, g' y) (and the |G|
// average equals the |G|² one) when k is invariant under simultaneous isometries, i.e. for an ISOTROPIC
// stationary base kernel and an orthogonal group. kbo uses the one-sided forms exactly then and the
// two-sided forms otherwise (e.g. ARD base kernels), so the kernel is always symmetric and invariant.
//
// Fast paths (isotropic kbo::StationaryKernel base, φ decreasing): max_g k(x, g y) = v φ(min_g ||x − g y||/ℓ)
// and the nearest orbit point is found in closed form (Group::align, see groups.hpp); the brute-force
// enumeration (finite groups) is the reference. Continuous groups (rotation, scaling) need an isotropic
// stationary base; the rotation average uses the Bessel closed form for RBF
// (docs/papers.md#invariance-continuous-groups) and an m-angle rule otherwise, the scaling average a
// Gauss–Legendre rule over the factor range.
//
// Hyperparameters: every invariant kernel has exactly its base kernel's log-parameters (same order), so
// a θ fitted on the base kernel can be plugged in unchanged. The paper (and its code) fits them on the
// BASE kernel; kernels built that way report it through fit_surrogate() below.
#include <string>

#include <nlohmann/json.hpp>

#include "kbo/invariance/groups.hpp"
#include "kbo/model/kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/invariance/invariant_kernel_type.hpp"

namespace kbo {

/// Generic hook (knows nothing about groups): a kernel whose hyperparameters should be fitted on
/// ANOTHER kernel with the same log-parameter layout. A strategy that sees fit_surrogate(k) != nullptr
/// fits a GP with a clone of the surrogate on the same data and copies its θ into the real GP.
class FitSurrogateProvider {
 public:
  virtual ~FitSurrogateProvider() = default;
  /// nullptr ⇒ fit on the kernel itself.
  virtual const Kernel* fit_surrogate() const = 0;
};
/// The kernel to fit hyperparameters on for k (nullptr: k itself).
const Kernel* fit_surrogate(const Kernel& k);

/// How the orbit is searched.
enum class OrbitPath { Auto, Fast, Brute };
template <>
struct EnumNames<OrbitPath> {
  static constexpr std::array<std::pair<OrbitPath, const char*>, 3> table{
      {{OrbitPath::Auto, "auto"}, {OrbitPath::Fast, "fast"}, {OrbitPath::Brute, "brute"}}};
};
OrbitPath parse_orbit_path(const std::string& s);  // "auto" | "fast" | "brute"

/// Raw max kernel max_g k(x, g y) (two-sided for non-isotropic bases).
class MaxKernel : public Kernel, public FitSurrogateProvider {
 public:
  /// tied_ard: the base is an ARD stationary kernel whose lengthscales are tied across the coordinates
  /// the group mixes (Group::lengthscale_classes: one lengthscale per class, e.g. d for m points in R^d
  /// under blocks:m, one per coordinate for signflip). The kernel's parameters are then the class
  /// lengthscales and the variance; the exact fast paths run on the coordinates divided by their
  /// lengthscales (the scaling commutes with the group), and the base kernel is invariant, so no
  /// two-sided form is needed.
  MaxKernel(KernelPtr base, GroupPtr group, Vec center, OrbitPath path = OrbitPath::Auto, bool fit_on_base = true,
            bool tied_ard = false);
  MaxKernel(const MaxKernel& o);
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<MaxKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override;
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override;
  std::vector<ParamSpec> param_specs() const override;
  bool tied_ard() const { return tied_; }

  Mat cross(const Mat& X, const Mat& Y) const override;
  Mat gram(const Mat& X) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override { return cross_param_gradients(X, X); }
  /// ∂k_max(X_i, Y_j)/∂θ_p (a.e.: the gradient of k at the maximising alignment, Danskin).
  std::vector<Mat> cross_param_gradients(const Mat& X, const Mat& Y) const;
  Mat cross_grad_x(const Vec& x, const Mat& Y) const override;
  Vec diag_grad_x(const Vec& x) const override;

  bool uses_fast_path() const { return fast_; }
  bool two_sided() const { return two_sided_; }
  const Kernel& base() const { return *base_; }
  const Group& group() const { return *group_; }
  const Vec& center() const { return center_; }
  /// True when k_max is PSD by construction, i.e. k_max(x, y) = k(Φx, Φy) for a canonical map Φ:
  /// rotation (Φ = radius), scaling (direction), and the reflection groups permutation (Φ = sort),
  /// signflip (|·|) and hyperoctahedral (sort∘|·|), whose orbit distance is ||Φz − Φw|| (isotropic base).
  bool known_psd() const;
  const Kernel* fit_surrogate() const override { return fit_on_base_ ? base_.get() : nullptr; }
  /// Rows of X moved to their orbit point nearest x (the maximising alignment of k_max(x, ·)) and the base
  /// kernel; nullptr for the two-sided form and non-isometric groups (there x itself would move), and for
  /// continuous groups (their orbits are manifolds: the chart would lose dimensions).
  KernelPtr local_chart(const Vec& x, Mat& X) const override;

 private:
  // Nearest/maximising pair for (x, y), in original coordinates; jx = ∂x'/∂x.
  void align_pair(const Vec& x, const Vec& y, Vec& xa, Vec& ya, Mat* jx) const;
  Mat cross_fast(const Mat& X, const Mat& Y, bool symmetric) const;
  Mat cross_brute(const Mat& X, const Mat& Y) const;

  // Rows of Z (centred) divided by the per-coordinate lengthscales (tied mode; identity otherwise).
  Mat scaled(const Mat& Z) const;
  Vec scale_;  // tied mode: 1/ℓ per coordinate (refreshed by set_log_params)
  void refresh_scale();

  KernelPtr base_;
  GroupPtr group_;
  Vec center_;
  const StationaryKernel* iso_ = nullptr;   // base_ if it is an isotropic StationaryKernel
  const StationaryKernel* stat_ = nullptr;  // base_ in tied mode (ARD StationaryKernel)
  bool fast_ = false, two_sided_ = false, fit_on_base_ = true, tied_ = false;
  std::vector<int> classes_;                // tied mode: lengthscale class per coordinate
  std::vector<int> class_first_;            // tied mode: first coordinate of each class
  std::vector<SignedPerm> elements_;        // brute-force path only
};

/// How AveragedKernel computes the average: "orbit" (finite, |G| form), "orbit2" (finite, |G|² form),
/// "bessel" (rotation + RBF, closed form), "angles" (rotation, m-angle rule), "factors" (scaling).
enum class AveragingMethod { Orbit, Orbit2, Bessel, Angles, Factors };
template <>
struct EnumNames<AveragingMethod> {
  static constexpr std::array<std::pair<AveragingMethod, const char*>, 5> table{
      {{AveragingMethod::Orbit, "orbit"}, {AveragingMethod::Orbit2, "orbit2"}, {AveragingMethod::Bessel, "bessel"},
       {AveragingMethod::Angles, "angles"}, {AveragingMethod::Factors, "factors"}}};
};

/// Orbit-averaged kernel (1/|G|) Σ_g k(x, g y) (the |G|² form for non-isotropic bases).
class AveragedKernel : public Kernel, public FitSurrogateProvider {
 public:
  /// quadrature: angles for the rotation average of non-RBF bases / factors per side for scaling.
  AveragedKernel(KernelPtr base, GroupPtr group, Vec center, int quadrature = 64, bool fit_on_base = true);
  AveragedKernel(const AveragedKernel& o);
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<AveragedKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return base_->log_params(); }
  void set_log_params(const Vec& p) override { base_->set_log_params(p); }
  std::vector<std::string> param_names() const override { return base_->param_names(); }
  std::vector<ParamSpec> param_specs() const override { return base_->param_specs(); }

  Mat cross(const Mat& X, const Mat& Y) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override { return cross_param_gradients(X, X); }
  std::vector<Mat> cross_param_gradients(const Mat& X, const Mat& Y) const;
  Mat cross_grad_x(const Vec& x, const Mat& Y) const override;
  Vec diag_grad_x(const Vec& x) const override;

  const Kernel& base() const { return *base_; }
  const Group& group() const { return *group_; }
  AveragingMethod method() const { return method_; }
  const Kernel* fit_surrogate() const override { return fit_on_base_ ? base_.get() : nullptr; }
  /// As MaxKernel's (nearest orbit point, Euclidean): isotropic base, finite isometric group only, else nullptr.
  KernelPtr local_chart(const Vec& x, Mat& X) const override;

 private:
  // The finitely many linear maps averaged over on each side (finite groups, rotation angle rules),
  // with weights; they act on centred points. left_ is {identity} for the one-sided forms.
  struct Side {
    std::vector<SignedPerm> perms;  // finite groups
    std::vector<Mat> maps;          // rotation angle rule (2 x 2)
    Vec weights;
    int size() const { return static_cast<int>(weights.size()); }
    Mat apply_rows(int k, const Mat& Zc) const;    // rows z ↦ g_k z
    Vec apply_transpose(int k, const Vec& v) const;  // g_kᵀ v
  };
  Mat orbit_rows(const Side& s, int k, const Mat& X) const;  // c + g_k(X − c), row-wise
  Mat cross_orbit(const Mat& X, const Mat& Y) const;
  Mat cross_bessel(const Mat& X, const Mat& Y) const;
  Mat cross_factors(const Mat& X, const Mat& Y) const;
  Mat representatives(const Mat& X, double factor) const;  // c + factor ρ x̂, row-wise (scaling)

  KernelPtr base_;
  GroupPtr group_;
  Vec center_;
  const StationaryKernel* iso_ = nullptr;
  AveragingMethod method_ = AveragingMethod::Orbit;
  bool fit_on_base_ = true;
  Side left_, right_;
  Vec factors_, factor_weights_;  // scaling: Gauss–Legendre rule in log a  // left_ = {identity} for one-sided forms
};

/// k(x, y)/sqrt(k(x, x) k(y, y)): unit prior variance everywhere (docs/papers.md#invariance-fixed-point-artifact:
/// the unnormalised averaged kernel has its full prior variance only at fixed points of the group).
/// With keep_variance, the result is multiplied by the inner kernel's signal variance v (its first
/// Variance-role parameter): v·k(x, y)/sqrt(k(x, x) k(y, y)), prior variance v everywhere, so the fit keeps
/// an output scale (used by the normalised set kernels; the inner variance otherwise cancels).
class NormalizedKernel : public Kernel, public FitSurrogateProvider {
 public:
  explicit NormalizedKernel(KernelPtr inner, bool keep_variance = false);
  NormalizedKernel(const NormalizedKernel& o)
      : inner_(o.inner_->clone()), variance_index_(o.variance_index_), label_(o.label_) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<NormalizedKernel>(*this); }
  std::string describe() const override { return label_ + "(" + inner_->describe() + ")"; }
  Vec log_params() const override { return inner_->log_params(); }
  void set_log_params(const Vec& p) override { inner_->set_log_params(p); }
  std::vector<std::string> param_names() const override { return inner_->param_names(); }
  std::vector<ParamSpec> param_specs() const override { return inner_->param_specs(); }
  Mat cross(const Mat& X, const Mat& Y) const override;
  Vec diag(const Mat& X) const override { return Vec::Constant(X.rows(), scale()); }
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Mat cross_grad_x(const Vec& x, const Mat& Y) const override;
  void condition_on(const Mat& X) override { inner_->condition_on(X); }
  bool depends_on_training_data() const override { return inner_->depends_on_training_data(); }
  const Kernel* fit_surrogate() const override { return kbo::fit_surrogate(*inner_); }
  KernelPtr local_chart(const Vec& x, Mat& X) const override { return inner_->local_chart(x, X); }
  const Kernel& inner() const { return *inner_; }
 private:
  double scale() const;  // v with keep_variance, else 1
  KernelPtr inner_;
  int variance_index_ = -1;  // the inner's variance parameter (keep_variance), else −1
  std::string label_ = "normalized";
};

/// PSD surrogate of the max kernel on the design set D (docs/papers.md#invariance-psd-projection):
/// K = k_max(D, D) = V Λ Vᵀ, K₊^† = V₊ Λ₊⁻¹ V₊ᵀ over eigenvalues ≥ threshold, k̃(x, y) = k_max(x, D) K₊^† k_max(D, y).
/// condition_on(X) (and any change of hyperparameters once conditioned) rebuilds it: O(n² cost(k_max))
/// + one O(n³) eigendecomposition; a query then costs O(n cost(k_max) + n r). Before the first
/// condition_on, and when `project` is false, it is the raw max kernel.
class ProjectedKernel : public Kernel, public FitSurrogateProvider {
 public:
  ProjectedKernel(MaxKernel max_kernel, double eig_threshold = 1e-4, bool project = true);
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<ProjectedKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return max_.log_params(); }
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override { return max_.param_names(); }
  std::vector<ParamSpec> param_specs() const override { return max_.param_specs(); }

  Mat cross(const Mat& X, const Mat& Y) const override;
  Mat gram(const Mat& X) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Mat cross_grad_x(const Vec& x, const Mat& Y) const override;
  Vec diag_grad_x(const Vec& x) const override;
  void condition_on(const Mat& X_train) override;
  const Kernel* fit_surrogate() const override { return max_.fit_surrogate(); }
  KernelPtr local_chart(const Vec& x, Mat& X) const override { return max_.local_chart(x, X); }

  const MaxKernel& max_kernel() const { return max_; }
  bool conditioned() const { return conditioned_; }
  /// Eigenvalues of k_max(D, D) (ascending) and how many were kept.
  const Vec& eigenvalues() const { return lambda_; }
  int rank() const { return static_cast<int>(W_.cols()); }

 private:
  void rebuild();
  bool active() const { return project_ && conditioned_; }
  bool is_design(const Mat& Y) const;
  Mat features(const Mat& Y) const;  // k_max(Y, D) W
  MaxKernel max_;
  double threshold_;
  bool project_;
  bool conditioned_ = false;
  Mat D_;       // design set
  Vec lambda_;  // all eigenvalues (ascending)
  Mat V_;       // all eigenvectors
  Mat W_;       // V₊ Λ₊^{-1/2} (n x r): k̃(x, y) = (k_max(x, D) W)·(k_max(y, D) W)
  Mat PhiD_;    // k_max(D, D) W, the design points' features
};

/// Options of make_invariant_kernel (JSON keys, all optional):
///   "path": "auto"|"fast"|"brute"          orbit search (fast needs an isotropic StationaryKernel base)
///   "normalize": bool (false)               average mode: k/sqrt(k(x,x)k(y,y))
///   "projection": "always"|"auto"|"never"   max mode: "always" (default, the paper) projects + Nyström;
///                                           "auto" uses the exact k_max where it is PSD by construction
///                                           (MaxKernel::known_psd: rotation, scaling, permutation,
///                                           signflip, hyperoctahedral) and projects otherwise
///   "eig_threshold": double (1e-4)          eigenvalues kept in K₊^† (reference code: 1e-4)
///   "fit": "base"|"kernel" ("base")         fit θ on the base kernel (paper) or on the invariant kernel
///   "quadrature": int (64)                  rotation average (non-RBF) angles / scaling factors
///   "radius", "max_factor"                  scaling group (groups.hpp)
///   "matrices": [[[..]..]..]                custom group
enum class MaxProjection { Auto, Always, Never };
template <>
struct EnumNames<MaxProjection> {
  static constexpr std::array<std::pair<MaxProjection, const char*>, 3> table{
      {{MaxProjection::Auto, "auto"}, {MaxProjection::Always, "always"}, {MaxProjection::Never, "never"}}};
};
enum class InvariantFit { Base, Kernel };
template <>
struct EnumNames<InvariantFit> {
  static constexpr std::array<std::pair<InvariantFit, const char*>, 2> table{
      {{InvariantFit::Base, "base"}, {InvariantFit::Kernel, "kernel"}}};
};
struct InvariantOptions {
  OrbitPath path = OrbitPath::Auto;
  bool normalize = false;
  MaxProjection projection = MaxProjection::Always;
  double eig_threshold = 1e-4;
  InvariantFit fit = InvariantFit::Base;
  int quadrature = 64;
  static InvariantOptions from_json(const nlohmann::json& j);  // InputError on unknown keys/values
};

/// The study's entry point. invariance: none|permutation|signflip|hyperoctahedral|blocks:K|cyclic|
/// rotation|scaling|custom ("none" returns base unchanged); mode: max|average; center: the group's
/// centre in the kernel's input coordinates (0.5·1 on the unit cube). InputError naming the allowed
/// values otherwise.
/// tied_ard (max mode, ARD stationary base): lengthscales tied across the coordinates the group mixes
/// (MaxKernel's tied mode).
KernelPtr make_invariant_kernel(KernelPtr base, const std::string& invariance, InvariantKernelType mode,
                                const Vec& center, const nlohmann::json& options = nlohmann::json::object(),
                                bool tied_ard = false);
/// The same with mode as text (parsed here: InputError naming max, average).
KernelPtr make_invariant_kernel(KernelPtr base, const std::string& invariance, const std::string& mode,
                                const Vec& center, const nlohmann::json& options = nlohmann::json::object());

/// Exponentially scaled modified Bessel functions e^{−x} I0(x), e^{−x} I1(x) for x ≥ 0 (no overflow).
double bessel_i0e(double x);
double bessel_i1e(double x);

}  // namespace kbo
