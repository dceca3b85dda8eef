#pragma once
// Pairwise evaluations of a base kernel on row pairs (A_t, B_t): values, input gradients and
// hyperparameter gradients. StationaryKernel (isotropic or ARD) is done in closed form; any other
// kernel through its public interface (slow, used only by brute-force paths with exotic bases).
#include "kbo/model/kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo::inv {

/// base as an isotropic StationaryKernel, or nullptr.
const StationaryKernel* as_isotropic(const Kernel& base);

/// φ'(r)/r for the stationary profile (finite limit at r → 0; 0 for Matérn-1/2 at r = 0).
double profile_deriv_over_r(const StationaryKernel& k, double r);

/// k(A_t, B_t) for every row t.
Vec pair_values(const Kernel& base, const Mat& A, const Mat& B);
/// ∂k(a, b)/∂a at (A_t, B_t) as row t (N x D).
Mat pair_grad_a(const Kernel& base, const Mat& A, const Mat& B);
/// ∂k(A_t, B_t)/∂θ_p as entry (t, p) (N x P).
Mat pair_param_grads(const Kernel& base, const Mat& A, const Mat& B);

}  // namespace kbo::inv
