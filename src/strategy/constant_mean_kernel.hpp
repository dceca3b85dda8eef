#pragma once
// The GLS constant mean of BOStrategy (BOModelOptions::prior_mean "gls") as a kernel term: k(x, y) + c, the
// prior variance c of an unknown constant mean, marginalised exactly. Internal to the study module (the
// strategy and its refit both build it).
#include <memory>
#include <string>
#include <vector>

#include "kbo/core/error.hpp"
#include "kbo/model/kernel.hpp"

namespace kbo {

template <class K>
bool forward_fused_gram(const K& k, const Mat& X, double shift, Mat& G, Mat& aux) {
  if constexpr (requires { k.gram_lower_fused(X, shift, G, aux); }) return k.gram_lower_fused(X, shift, G, aux);
  else return false;
}
template <class K>
Vec forward_fused_gradient(const K& k, const Mat& X, const Mat& S, const Vec& a, const Mat& aux) {
  if constexpr (requires { k.gradient_contract_fused(X, S, a, aux); }) return k.gradient_contract_fused(X, S, a, aux);
  else throw NumericalError("fused kernel gradient without a fused Gram");  // unreachable: the GP asks only after gram_lower_fused
}

/// k(x, y) + c: the model kernel plus a constant (the prior variance of the unknown constant mean).
/// Hyperparameters, their gradients and the input gradients are the wrapped kernel's (c is fixed).
class ConstantMeanKernel : public Kernel {
 public:
  ConstantMeanKernel(KernelPtr inner, double c) : inner_(std::move(inner)), c_(c) {}
  ConstantMeanKernel(const ConstantMeanKernel& o) : Kernel(o), inner_(o.inner_->clone()), c_(o.c_) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<ConstantMeanKernel>(*this); }
  std::string describe() const override { return inner_->describe() + " + constant mean"; }
  Vec log_params() const override { return inner_->log_params(); }
  void set_log_params(const Vec& p) override { inner_->set_log_params(p); }
  std::vector<std::string> param_names() const override { return inner_->param_names(); }
  std::vector<ParamSpec> param_specs() const override { return inner_->param_specs(); }
  Mat cross(const Mat& X, const Mat& Y) const override { return (inner_->cross(X, Y).array() + c_).matrix(); }
  Mat gram(const Mat& X) const override { return (inner_->gram(X).array() + c_).matrix(); }
  Vec diag(const Mat& X) const override { return (inner_->diag(X).array() + c_).matrix(); }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return inner_->gram_gradients(X); }
  Vec gram_gradient_contract(const Mat& X, const Mat& W) const override { return inner_->gram_gradient_contract(X, W); }
  // The GP's fused likelihood path: the wrapped kernel's, plus c on the lower triangle (the gradient is
  // unchanged as c is fixed). Kernel's fused hooks are recent: the requires-expressions keep this file
  // building against a kernel.hpp without them (then the GP uses gram() and gram_gradient_contract()).
  bool gram_lower_fused(const Mat& X, double shift, Mat& K, Mat& aux) const {
    if (!forward_fused_gram(*inner_, X, shift, K, aux)) return false;
    for (Eigen::Index j = 0; j < K.cols(); ++j) K.col(j).tail(K.rows() - j).array() += c_;
    return true;
  }
  Vec gradient_contract_fused(const Mat& X, const Mat& S, const Vec& a, const Mat& aux) const {
    return forward_fused_gradient(*inner_, X, S, a, aux);
  }
  Mat cross_grad_x(const Vec& x, const Mat& X) const override { return inner_->cross_grad_x(x, X); }
  Vec diag_grad_x(const Vec& x) const override { return inner_->diag_grad_x(x); }
  void condition_on(const Mat& X) override { inner_->condition_on(X); }
  bool depends_on_training_data() const override { return inner_->depends_on_training_data(); }
  const Kernel* fit_surrogate() const override { return inner_->fit_surrogate(); }  // unwrapped; see refit
  std::unique_ptr<Kernel> local_chart(const Vec& x, Mat& X) const override { return inner_->local_chart(x, X); }  // unwrapped
  void recentre(const Vec& x) override { inner_->recentre(x); }
  const Kernel& inner() const { return *inner_; }

 private:
  KernelPtr inner_;
  double c_;
};

inline KernelPtr with_constant_mean(KernelPtr k, double c) {
  if (c <= 0.0) return k;  // no constant-mean term: the GP's sample mean is the prior mean
  return std::make_unique<ConstantMeanKernel>(std::move(k), c);
}

}  // namespace kbo
