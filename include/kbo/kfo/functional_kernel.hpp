#pragma once
// The kernel learned by KFO (kbo::kfo): K(x, x') = v · (K_base(x, x') + Σ_j α_j κ(||x − x'||, r_j)),
// with α = P z from a FunctionalBasis (eq. 4) and κ the Matérn harmonic hyperkernel (eq. 3).
//  - α-clipping (the paper's PSD fix for GPs, default): α ← max(α, 0). Each κ(·, r_j) is, as a kernel on
//    (x, x'), (1 − λh) Σ_n λh^n m_j^n m(||x − x'||)^n with m_j ≥ 0 — a non-negative combination of powers of
//    the Matérn-3/2 kernel — so a non-negative α gives a PSD kernel.
//  - K_base (optional, fixed) is a kbo extension: starting the search from a fitted baseline kernel, so the
//    search space contains it (z = 0 ⇒ K = v·K_base). The paper starts from K# = 0 (no base).
//  - Input scales s (optional, fixed): the functional acts on ||s ⊙ (x − x')|| instead of ||x − x'||, so
//    it can weight dimensions by relevance (KFO over ARD-scaled inputs, kfo/input_scales.hpp). Empty s = isotropic.
// Only hyperparameter: log v (when learn_variance), so gram_gradients is {K}.
#include "kbo/model/kernel.hpp"
#include "kbo/kfo/hyperkernel.hpp"

namespace kbo {

enum class FunctionalPsd { None, AlphaClip };

class FunctionalKernel : public Kernel {
 public:
  /// grid_distances r_j and weights α_j (size Ng each).
  FunctionalKernel(const Vec& grid_distances, const Vec& alpha, kfo::HyperkernelParams hyper,
                   FunctionalPsd psd = FunctionalPsd::AlphaClip, bool learn_variance = true, double variance = 1.0,
                   KernelPtr base = nullptr);
  /// The functional with PCA coordinates z in `basis`.
  FunctionalKernel(const kfo::FunctionalBasis& basis, const Vec& z, FunctionalPsd psd = FunctionalPsd::AlphaClip,
                   bool learn_variance = true, double variance = 1.0, KernelPtr base = nullptr);
  FunctionalKernel(const FunctionalKernel& o);

  std::unique_ptr<Kernel> clone() const override { return std::make_unique<FunctionalKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override;
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override;
  std::vector<ParamSpec> param_specs() const override;  // the variance, when learned

  Mat cross(const Mat& X, const Mat& Y) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  Vec diag_grad_x(const Vec& x) const override;

  /// The functional part Σ_u a_u κ(r, d_u) (no variance, no base) at pair distance r.
  double profile(double r) const;
  /// profile applied elementwise to a matrix of pair distances.
  Mat profile_matrix(const Mat& R) const;
  double variance() const { return variance_; }
  void set_variance(double v);
  const Vec& weights() const { return weights_; }       // aggregated α per distinct grid distance
  const Vec& distances() const { return distances_; }   // distinct grid distances d_u
  const Kernel* base() const { return base_.get(); }
  /// Per-dimension input scales s (empty: none, the paper's isotropic functional). All entries finite, >= 0.
  void set_input_scales(const Vec& s);
  const Vec& input_scales() const { return scales_; }
  /// X with its columns multiplied by the input scales (X itself when there are none).
  Mat scaled(const Mat& X) const;
  const kfo::HyperkernelParams& hyper() const { return hyper_; }
  FunctionalPsd psd() const { return psd_; }

 private:
  void init(const Vec& grid_distances, const Vec& alpha);
  kfo::HyperkernelParams hyper_;
  FunctionalPsd psd_;
  bool learn_variance_;
  double variance_;
  KernelPtr base_;
  Vec distances_, weights_, m_grid_;  // m_grid_ = Matérn correlation at d_u
  Vec scales_;
};

/// Pairwise Euclidean distances between the rows of X and Y (computed from differences, exact at 0).
Mat pairwise_distances(const Mat& X, const Mat& Y);

}  // namespace kbo
