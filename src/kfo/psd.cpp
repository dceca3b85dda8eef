#include "kbo/kfo/psd.hpp"

#include "kbo/core/error.hpp"

namespace kbo::kfo {

SpectrumFix parse_spectrum_fix(const std::string& name) {
  if (name == "none") return SpectrumFix::None;
  if (name == "clip") return SpectrumFix::Clip;
  if (name == "flip") return SpectrumFix::Flip;
  throw InputError("unknown spectrum fix '" + name + "' (allowed: none, clip, flip)");
}

SpectralTransform::SpectralTransform(const Mat& K_train, SpectrumFix fix) : fix_(fix) {
  if (K_train.rows() != K_train.cols()) throw InputError("SpectralTransform: training Gram matrix is not square");
  if (fix == SpectrumFix::None) {
    train_ = 0.5 * (K_train + K_train.transpose());
    return;
  }
  SymmetricEigen e = symmetric_eigen(K_train);
  vectors_ = std::move(e.vectors);
  values_ = std::move(e.values);
  indicator_.resize(values_.size());
  for (Eigen::Index i = 0; i < values_.size(); ++i) {
    const bool neg = values_(i) < 0.0;
    negatives_ += neg ? 1 : 0;
    indicator_(i) = fix == SpectrumFix::Clip ? (neg ? 0.0 : 1.0) : (neg ? -1.0 : 1.0);
  }
  // ϑ C = Z D Λ Zᵀ.
  train_ = vectors_ * (indicator_.cwiseProduct(values_)).asDiagonal() * vectors_.transpose();
}

Mat SpectralTransform::test(const Mat& K_test_train) const {
  if (fix_ == SpectrumFix::None) return K_test_train;
  if (K_test_train.cols() != vectors_.rows()) throw InputError("SpectralTransform: test rows have the wrong length");
  // (ϑ c)ᵀ = cᵀ Z D Zᵀ for every row c.
  return ((K_test_train * vectors_) * indicator_.asDiagonal()) * vectors_.transpose();
}

}  // namespace kbo::kfo
