#pragma once
// Internal to the model module (gp.cpp, fit.cpp): the log marginal likelihood of one data set at
// arbitrary θ, with its gradient.
#include "kbo/model/kernel.hpp"

namespace kbo::detail {

// Holds a kernel clone and the n x n buffers, reused across the evaluations of one optimiser run, so
// that an evaluation allocates nothing of size n² after the first.
//
// Fused path (kernels overriding gram_lower_fused, e.g. stationary ones): one pass writes the lower
// triangle of K + σ²I and the kernel's per-pair data; Cholesky and then the inverse (potri) overwrite
// that triangle in place; one more pass contracts ααᵀ − K⁻¹ with every ∂K/∂θ_p at once. That is
// Cholesky + inverse ≈ 3 Choleskys of arithmetic plus two O(n²·D) passes. Where the in-place Cholesky
// fails (needs jitter) and for other kernels, the generic path (Cholesky with jitter escalation,
// gram_gradient_contract on a dense W) runs instead.
class LmlEvaluator {
 public:
  /// X and y must outlive the evaluator (they are not copied); y are the targets the GP fits (GP::targets).
  /// known: each row's known noise variance in y's units (GP::known_noise_targets; empty: none), added to
  /// the diagonal beside θ's noise variance.
  LmlEvaluator(const Kernel& kernel, const Mat& X, const Vec& y, Vec known = Vec())
      : k_(kernel.clone()), X_(X), y_(y), known_(std::move(known)) {}

  /// LML at θ = [kernel log-params..., log noise variance]; its gradient into *grad when grad != nullptr.
  /// NumericalError when even the jittered Cholesky fails.
  double operator()(const Vec& theta, Vec* grad);

 private:
  KernelPtr k_;
  const Mat& X_;
  const Vec& y_;
  Vec known_;
  Mat B_, aux_;
  Vec alpha_;
};

}  // namespace kbo::detail
