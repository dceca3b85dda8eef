#pragma once
// Kreĭn → PSD fixes for Gram matrices of an indefinite learned kernel (KFO §3.3, docs/papers.md#kfo-krein-fixes).
// With the training Gram C = Z Λ Zᵀ and an eigen-indicator ϑ = Z D Zᵀ:
//   Clip: D = diag(1[λ ≥ 0]), Ĉ_train = ϑ C = Z max(Λ, 0) Zᵀ (the Frobenius-nearest PSD matrix);
//   Flip: D = diag(sign λ),   Ĉ_train = ϑ C = Z |Λ| Zᵀ;
// and a test row c (kernel values against the training points) becomes ϑ c, the SAME linear map, so a
// test point that coincides with training point i gets exactly row i of Ĉ_train.
// (The authors' SVM code transforms only the test rows; kbo transforms both, as the paper says.)
#include <string>

#include "kbo/core/linalg.hpp"

namespace kbo::kfo {

enum class SpectrumFix { None, Clip, Flip };
SpectrumFix parse_spectrum_fix(const std::string& name);  // "none" | "clip" | "flip"

class SpectralTransform {
 public:
  SpectralTransform(const Mat& K_train, SpectrumFix fix);
  const Mat& train() const { return train_; }
  /// Rows of K_test_train (n_test × n_train) mapped by ϑ.
  Mat test(const Mat& K_test_train) const;
  int negative_eigenvalues() const { return negatives_; }
  const Vec& eigenvalues() const { return values_; }

 private:
  SpectrumFix fix_;
  Mat vectors_;
  Vec values_, indicator_;
  Mat train_;
  int negatives_ = 0;
};

}  // namespace kbo::kfo
