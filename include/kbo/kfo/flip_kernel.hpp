#pragma once
// Spectrum flip of an indefinite kernel for GPs (KFO §3.3, docs/papers.md#kfo-krein-fixes: the authors' regression
// code flips K_xx; the paper's default for GPs is α-clipping, kbo offers the flip as an option).
//
// With the training Gram K = Z Λ Zᵀ (K = inner kernel on the GP's training inputs R) the flip is
// K̂_train = Z |Λ| Zᵀ = K + 2 Z₋ |Λ₋| Z₋ᵀ, Z₋/Λ₋ the eigenpairs with λ < 0. It is extended to any points by
//     K̂(x, x') = v · [K(x, x') + 2 c(x)ᵀ Z₋ |Λ₋|⁻¹ Z₋ᵀ c(x')],     c(x) = K(R, x),
// the unique symmetric form that (i) equals Z|Λ|Zᵀ on the training points, (ii) maps a test row c to ϑc with
// ϑ = Z sign(Λ) Zᵀ (the SVM's test transform, so a test point equal to training point j gets row j of K̂_train),
// and (iii) leaves K unchanged where c(x) = 0 (far from the data the prior variance stays K(x, x)).
// K̂ is PSD on the training points; on new points it is not guaranteed PSD (the GP's predictive variance is
// then clipped at 0 by the caller). Eigenvalues in [−tol·max|λ|, 0) are treated as 0 and not flipped: the
// extension divides by |λ|, so flipping rounding-level eigenvalues would blow up at new points.
//
// A data-dependent kernel: the GP calls condition_on(X_train) before factorising; the decomposition is
// cached for the reference set. The inner kernel's hyperparameters are frozen; the only hyperparameter is
// log v (flip(v·K) = v·flip(K), so the eigendecomposition does not depend on it).
#include "kbo/model/kernel.hpp"

namespace kbo::kfo {

class SpectrumFlipKernel : public Kernel {
 public:
  /// reference: the training inputs (may be empty until condition_on is called).
  SpectrumFlipKernel(KernelPtr inner, const Mat& reference = Mat(), double variance = 1.0, bool learn_variance = true,
                     double rel_tol = 1e-8);
  SpectrumFlipKernel(const SpectrumFlipKernel& o);

  std::unique_ptr<Kernel> clone() const override { return std::make_unique<SpectrumFlipKernel>(*this); }
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

  void condition_on(const Mat& X_train) override;
  bool depends_on_training_data() const override { return true; }

  const Kernel& inner() const { return *inner_; }
  const Mat& reference() const { return ref_; }
  int flipped_eigenvalues() const { return static_cast<int>(W_.cols()); }
  double variance() const { return variance_; }
  double rel_tol() const { return rel_tol_; }
  void set_variance(double v);

 private:
  void rebuild();
  /// c(X)ᵀ W (n_X × n_flipped), W = Z₋ |Λ₋|^{-1/2}.
  Mat projected(const Mat& X) const;
  KernelPtr inner_;
  Mat ref_;
  double variance_;
  bool learn_variance_;
  double rel_tol_;
  Mat W_;
};

}  // namespace kbo::kfo
