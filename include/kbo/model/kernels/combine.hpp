#pragma once
// Kernel composition: scale (s² k), sum (k1 + k2) and product (k1 k2). Hyperparameters are the
// concatenation of the parts' (scale: log s² first).
#include "kbo/model/kernel.hpp"

namespace kbo {

class ScaleKernel : public Kernel {
 public:
  ScaleKernel(KernelPtr base, double scale = 1.0);
  ScaleKernel(const ScaleKernel& o) : base_(o.base_->clone()), log_scale_(o.log_scale_) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<ScaleKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override;
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override;
  std::vector<ParamSpec> param_specs() const override;
  Mat cross(const Mat& X, const Mat& Y) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  Vec diag_grad_x(const Vec& x) const override;
  void condition_on(const Mat& X) override { base_->condition_on(X); }
  const Kernel& base() const { return *base_; }
 private:
  KernelPtr base_;
  double log_scale_;
};

/// Sum or product of two kernels.
class BinaryKernel : public Kernel {
 public:
  enum class Op { Sum, Product };
  BinaryKernel(Op op, KernelPtr a, KernelPtr b);
  BinaryKernel(const BinaryKernel& o) : op_(o.op_), a_(o.a_->clone()), b_(o.b_->clone()) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<BinaryKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override;
  void set_log_params(const Vec& p) override;
  std::vector<std::string> param_names() const override;
  std::vector<ParamSpec> param_specs() const override;
  Mat cross(const Mat& X, const Mat& Y) const override;
  Vec diag(const Mat& X) const override;
  std::vector<Mat> gram_gradients(const Mat& X) const override;
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  Vec diag_grad_x(const Vec& x) const override;
  void condition_on(const Mat& X) override { a_->condition_on(X); b_->condition_on(X); }
 private:
  Op op_;
  KernelPtr a_, b_;
};

inline KernelPtr operator+(KernelPtr a, KernelPtr b) {
  return std::make_unique<BinaryKernel>(BinaryKernel::Op::Sum, std::move(a), std::move(b));
}
inline KernelPtr operator*(KernelPtr a, KernelPtr b) {
  return std::make_unique<BinaryKernel>(BinaryKernel::Op::Product, std::move(a), std::move(b));
}

}  // namespace kbo
