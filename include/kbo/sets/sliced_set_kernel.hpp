#pragma once
// The sliced set kernel: a stationary kernel on the sorted projections of a set's elements.
//
//   S(X) = (1/√d) · (sort(E_X θ_1), …, sort(E_X θ_L)) ∈ R^(L·m),   k(X, Y) = k_base(S(X), S(Y)),
//
// with E_X the m x d element matrix and θ_l fixed unit directions: the d coordinate axes and, for every pair
// of coordinates i < j, the diagonals (e_i ± e_j)/√2 (L = d²). These form a tight frame (Σ θ_l θ_lᵀ = d·I),
// so a move δ of one element that does not reorder any projection moves S by exactly ‖δ‖: the lengthscale
// means what it means for the flat GP. ‖S(X) − S(Y)‖² is L/d times a Monte-Carlo-free sliced Wasserstein-2
// distance between the two empirical measures, a Euclidean distance of an embedding, so k is exactly PSD
// with constant prior variance, and invariant under element orderings.
//
// Why (docs/bench/structure.md): the normalised orbit average is a smooth invariant kernel, so a
// split of two coincident elements by ±t changes it only at order t², and its normaliser doubles at
// coincident sets: posterior variance has a ridge there that UCB follows. Sorting is continuous and
// piecewise linear: splitting a coincident pair by ±t moves S at order |t|, as the flat GP sees it, and no
// normaliser is involved. Unlike `sorted` (rows sorted lexicographically), S has no seam: it is continuous
// everywhere (sorting scalars is 1-Lipschitz).
#include <string>
#include <vector>

#include "kbo/model/kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo {

class SlicedSetKernel : public Kernel {
 public:
  /// base: stationary kernel type; isotropic (one lengthscale) on the L·m sorted projections.
  SlicedSetKernel(StationaryType type, int set_size, int element_dim, double lengthscale = 1.0 / 3.0,
                  double variance = 1.0);

  std::unique_ptr<Kernel> clone() const override { return std::make_unique<SlicedSetKernel>(*this); }
  std::string describe() const override;
  Vec log_params() const override { return base_.log_params(); }
  void set_log_params(const Vec& p) override { base_.set_log_params(p); }
  std::vector<std::string> param_names() const override { return base_.param_names(); }
  std::vector<ParamSpec> param_specs() const override { return base_.param_specs(); }

  Mat cross(const Mat& X, const Mat& Y) const override { return base_.cross(embed_known(X), embed_known(Y)); }
  Mat gram(const Mat& X) const override { return base_.gram(embed_known(X)); }
  Vec diag(const Mat& X) const override { return base_.diag(X); }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return base_.gram_gradients(embed_known(X)); }
  Vec gram_gradient_contract(const Mat& X, const Mat& W) const override {
    return base_.gram_gradient_contract(embed_known(X), W);
  }
  bool gram_lower_fused(const Mat& X, double shift, Mat& K, Mat& aux) const override {
    return base_.gram_lower_fused(embed_known(X), shift, K, aux);
  }
  Vec gradient_contract_fused(const Mat& X, const Mat& S, const Vec& a, const Mat& aux) const override {
    return base_.gradient_contract_fused(embed_known(X), S, a, aux);
  }
  /// Chain rule through the sort: S is linear in x with the ordering of x's projections held fixed.
  Mat cross_grad_x(const Vec& x, const Mat& X) const override;
  /// Keeps the embedding of the GP's training sets: the acquisition's every cross(x, X) and
  /// cross_grad_x(x, X) would otherwise re-sort all n sets' L·m projections.
  void condition_on(const Mat& X) override { conditioned_X_ = X, conditioned_S_ = embed(X); }
  /// The incumbent's chart (set_chart.hpp): the rows' elements paired with x's; the plain kernel on the m·d
  /// coordinates there, with this kernel's lengthscale and variance as the local fit's warm start.
  KernelPtr local_chart(const Vec& x, Mat& X) const override;

  /// The embedding S of every row (n x L·m) and the directions θ_l (columns, d x L).
  Mat embed(const Mat& X) const;
  const Mat& directions() const { return dirs_; }
  const StationaryKernel& base() const { return base_; }

 private:
  /// S(x) for one set, and for each feature the element it came from.
  Vec embed_one(const Vec& x, std::vector<int>* source) const;
  /// embed(X), from the cache when X is the conditioned training set.
  Mat embed_known(const Mat& X) const {
    const bool known = X.rows() == conditioned_X_.rows() && X.cols() == conditioned_X_.cols() && X == conditioned_X_;
    return known ? conditioned_S_ : embed(X);
  }

  int m_, d_;
  Mat dirs_;  // d x L, scaled by 1/√d
  StationaryKernel base_;
  Mat conditioned_X_, conditioned_S_;  // condition_on: the training sets and their embedding
};

}  // namespace kbo
