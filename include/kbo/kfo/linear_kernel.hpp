#pragma once
// Linear kernel k(x, y) = v · xᵀy (the third part of the MKL baseline: w1·SE + w2·Matérn-3/2 + w3·linear).
// Log-hyperparameter: log v.
#include "kbo/model/kernel.hpp"

namespace kbo::kfo {

class LinearKernel : public Kernel {
 public:
  explicit LinearKernel(double variance = 1.0);
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<LinearKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return Vec::Constant(1, std::log(variance_)); }
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override { return {"variance"}; }
  std::vector<ParamSpec> param_specs() const override { return {ParamSpec::variance()}; }
  Mat cross(const Mat& X, const Mat& Y) const override { return variance_ * X * Y.transpose(); }
  Vec diag(const Mat& X) const override { return variance_ * X.rowwise().squaredNorm(); }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return {gram(X)}; }
  Mat cross_grad_x(const Vec& /*x*/, const Mat& X) const override { return variance_ * X.transpose(); }
  Vec diag_grad_x(const Vec& x) const override { return 2.0 * variance_ * x; }
 private:
  double variance_;
};

}  // namespace kbo::kfo
