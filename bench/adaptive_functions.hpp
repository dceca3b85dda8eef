#pragma once
// Test functions of the A-GP-UCB experiments (paper §5.1, docs/papers.md#adaptive-test-functions,
// #adaptive-berkenkamp-function), all MAXIMISED on [0,1]^d.
#include <cstdint>
#include <functional>
#include <utility>
#include <string>

#include "kbo/core/linalg.hpp"

namespace kbo::bench {

/// f(x) = Σ_i α_i exp(−‖x − c_i‖² / (2θ²)): a member of the Gaussian-kernel RKHS H_θ with
/// ‖f‖²_θ = αᵀ K_c α exactly (K_c the kernel matrix of the centres).
struct RkhsFunction {
  Mat centres;  // m x d
  Vec alpha;    // m
  double theta = 0.1;
  double operator()(const Vec& x) const;
  double rkhs_norm() const;
  void scale_to_norm(double norm);  // α ← α · norm / ‖f‖
  int dim() const { return static_cast<int>(centres.cols()); }
};

/// The Fig. 2/4 function (docs/papers.md#adaptive-test-functions construction): θ = 0.1, ‖f‖ = 2, centres
/// c = (0.08, 0.2, 0.32, 0.6, 0.7, 0.8, 0.9) with relative weights (−0.6, 1.6, −0.6, 0.28, 0.28, 0.28, 0.28)
/// rescaled to norm 2: a narrow global maximum f ≈ 1.406 at x ≈ 0.2 (flanked by two negative bumps) and a
/// broad local maximum f ≈ 0.936 at x ≈ 0.75 (from four overlapping bumps). Regret when stuck ≈ 0.47.
RkhsFunction paper_rkhs_function();

/// docs/papers.md#adaptive-test-functions GP-sample experiment: values of a GP(0, k_θ) sample at `grid`
/// equispaced points of [0,1] (seeded), interpolated with the kernel (α = K⁻¹ f_grid, jittered Cholesky),
/// rescaled to ‖f‖_θ = norm.
RkhsFunction gp_sample_function(std::uint64_t seed, double theta = 0.1, double norm = 4.0, int grid = 30);

/// Ziomek et al.'s "berkenkamp" shape (docs/papers.md#adaptive-berkenkamp-function):
/// f(x) = 0.6x + N(x; 0.2, 0.08²)/8 on [0,1]; f* = 0.745198 at x* ≈ 0.20618, broad local maximum f(1) = 0.6.
double berkenkamp_function(double x);

/// Global maximum of a 1-d function on [0,1]: dense grid (20001 points) then golden-section refinement
/// around the best grid point. Returns {x*, f*}.
std::pair<double, double> maximize_1d(const std::function<double(double)>& f);

}  // namespace kbo::bench
