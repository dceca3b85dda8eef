#pragma once
// The aligned set kernel: a stationary kernel on the flat vector of a set whose elements are put in the order
// that pairs them with a centre set's (set_chart.hpp; the strategy recentres it at the incumbent before each
// refit):
//
//   A(X) = X with element i the element of X assigned to the centre's element i (least total squared distance),
//   k(X, Y) = k_base(A(X), A(Y)).
//
// A is a function of the set alone (every ordering of X has the same pairing), so k is an exactly PSD set
// kernel with constant prior variance. Near the centre it is the flat GP in the incumbent's ordering, with its
// ARD lengthscales per element and coordinate, while every observation counts at its ordering nearest the
// incumbent; its seams (where the pairing switches) lie between the centre's elements, away from the incumbent.
//
// Why (docs/bench/structure.md): the orbit average and the sliced kernel spread their variance over
// every ordering, and their first BO steps went to the box's faces where the flat GP stepped next to the
// incumbent. The flat GP sees each set in whatever ordering it was suggested; this kernel sees them all in one.
#include <string>
#include <vector>

#include "kbo/model/kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo {

class AlignedSetKernel : public Kernel {
 public:
  /// base: stationary kernel type on the m·d coordinates (ARD: one lengthscale per element and coordinate).
  AlignedSetKernel(StationaryType type, int set_size, int element_dim, bool ard, double lengthscale = 1.0 / 3.0,
                   double variance = 1.0);

  std::unique_ptr<Kernel> clone() const override { return std::make_unique<AlignedSetKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return base_.log_params(); }
  void set_log_params(const Vec& p) override { base_.set_log_params(p); }
  std::vector<std::string> param_names() const override { return base_.param_names(); }
  std::vector<ParamSpec> param_specs() const override { return base_.param_specs(); }

  Mat cross(const Mat& X, const Mat& Y) const override { return base_.cross(aligned_known(X), aligned_known(Y)); }
  Mat gram(const Mat& X) const override { return base_.gram(aligned_known(X)); }
  Vec diag(const Mat& X) const override { return base_.diag(X); }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return base_.gram_gradients(aligned_known(X)); }
  Vec gram_gradient_contract(const Mat& X, const Mat& W) const override {
    return base_.gram_gradient_contract(aligned_known(X), W);
  }
  bool gram_lower_fused(const Mat& X, double shift, Mat& K, Mat& aux) const override {
    return base_.gram_lower_fused(aligned_known(X), shift, K, aux);
  }
  Vec gradient_contract_fused(const Mat& X, const Mat& S, const Vec& a, const Mat& aux) const override {
    return base_.gradient_contract_fused(aligned_known(X), S, a, aux);
  }
  /// A is a permutation of x's elements, fixed near x: the base kernel's gradient with its rows permuted back.
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  /// Keeps the training sets' pairing: the acquisition's every cross(x, X) would otherwise solve n assignments.
  void condition_on(const Mat& X) override { conditioned_X_ = X, conditioned_A_ = aligned(X); }
  /// The centre's pairing (before the first recentre: the sets as given).
  void recentre(const Vec& x) override;
  /// The incumbent's chart: the rows aligned to x and the base kernel, at this kernel's hyperparameters.
  KernelPtr local_chart(const Vec& x, Mat& X) const override;

  /// A(X), row by row.
  Mat aligned(const Mat& X) const;
  const Vec& centre() const { return centre_; }
  const StationaryKernel& base() const { return base_; }

 private:
  Mat aligned_known(const Mat& X) const {
    const bool known = X.rows() == conditioned_X_.rows() && X.cols() == conditioned_X_.cols() && X == conditioned_X_;
    return known ? conditioned_A_ : aligned(X);
  }

  int m_, d_;
  StationaryKernel base_;
  Vec centre_;                         // empty: no pairing yet
  Mat conditioned_X_, conditioned_A_;  // condition_on: the training sets and their pairing
};

}  // namespace kbo
