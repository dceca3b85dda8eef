#pragma once
// Stationary kernels k(x, y) = variance * φ(r), r = ||(x - y) / ℓ|| (isotropic: one ℓ; ARD: one per
// dimension). φ(0) = 1 and φ is decreasing, which the invariance fast paths rely on.
// Log-hyperparameters, in order: log ℓ (1 or D values), then log variance.
#include <string>

#include "kbo/core/enum_names.hpp"
#include "kbo/model/kernel.hpp"

namespace kbo {

enum class StationaryType { RBF, Matern12, Matern32, Matern52 };
template <>
struct EnumNames<StationaryType> {
  static constexpr std::array<std::pair<StationaryType, const char*>, 4> table{
      {{StationaryType::RBF, "rbf"}, {StationaryType::Matern12, "matern12"}, {StationaryType::Matern32, "matern32"},
       {StationaryType::Matern52, "matern52"}}};
  static constexpr std::array<std::pair<StationaryType, const char*>, 3> aliases{
      {{StationaryType::RBF, "se"}, {StationaryType::RBF, "sqexp"}, {StationaryType::Matern12, "exponential"}}};
};
/// "rbf" (alias "se"), "matern12", "matern32", "matern52"; InputError listing them otherwise.
StationaryType parse_stationary_type(const std::string& name);
std::string to_string(StationaryType t);

class StationaryKernel : public Kernel {
 public:
  StationaryKernel(StationaryType type, int dim, bool ard, double lengthscale = 1.0, double variance = 1.0);

  std::unique_ptr<Kernel> clone() const override { return std::make_unique<StationaryKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override;
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override;
  std::vector<ParamSpec> param_specs() const override;  // lengthscale(s) (dim i for ARD), variance

  Mat cross(const Mat& X, const Mat& Y) const override;
  /// From exact coordinate differences (not the ‖x‖²+‖y‖²−2x·y expansion cross() uses), so that it
  /// equals the fused likelihood path bit for bit and coincident points get r = 0 exactly.
  Mat gram(const Mat& X) const override;
  Vec diag(const Mat& X) const override { return Vec::Constant(X.rows(), variance_); }
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Vec gram_gradient_contract(const Mat& X, const Mat& W) const override;
  Mat cross_grad_x(const Vec& x, const Mat& Y) const override;
  /// Fused likelihood path: one pass for K and aux = σ² e^{−s} (the exponential part of φ), one pass
  /// for all lengthscale and variance gradients (see Kernel); none for dimension > 64.
  bool gram_lower_fused(const Mat& X, double shift, Mat& K, Mat& aux) const override;
  Vec gradient_contract_fused(const Mat& X, const Mat& S, const Vec& a, const Mat& aux) const override;

  /// φ(r) and dφ/dr for the type (no variance).
  double profile(double r) const;
  double profile_derivative(double r) const;
  /// Elementwise φ applied to a matrix of squared scaled distances r² (vectorised).
  Mat profile_from_sq(const Mat& r2) const;

  StationaryType type() const { return type_; }
  int dim() const { return dim_; }
  bool ard() const { return ard_; }
  const Vec& lengthscales() const { return lengthscales_; }  // size 1 (isotropic) or dim
  double variance() const { return variance_; }
  void set_lengthscales(const Vec& l);
  void set_variance(double v);

  /// Squared scaled distances ||(X_i - Y_j)/ℓ||² via ||x||²+||y||²-2x·y (clamped at 0).
  Mat scaled_sq_dist(const Mat& X, const Mat& Y) const;

 private:
  Mat scaled(const Mat& X) const;  // X with column d divided by its lengthscale

  StationaryType type_;
  int dim_;
  bool ard_;
  Vec lengthscales_;
  double variance_;
};

/// The per-pair loops of stationary kernels (gram, cross, the fused likelihood path) run the best build
/// the CPU has: AVX-512, AVX2+FMA or portable. set_stationary_simd_max caps it (tests compare the
/// builds), set_stationary_simd(false) forces the portable one; stationary_simd_in_use() says which runs.
enum class StationarySimd : int { Portable = 0, AVX2 = 1, AVX512 = 2 };
void set_stationary_simd_max(StationarySimd level);
void set_stationary_simd(bool allowed);
StationarySimd stationary_simd_in_use();
bool stationary_simd_active();

/// Convenience: make_kernel("matern52", dim, ard) etc.
KernelPtr make_stationary(const std::string& name, int dim, bool ard, double lengthscale = 1.0,
                          double variance = 1.0);

}  // namespace kbo
