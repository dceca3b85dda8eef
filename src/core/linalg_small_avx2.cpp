// Small-matrix Cholesky and inverse, compiled for AVX2+FMA with -ffast-math (see linalg_small.hpp).
// -ffast-math only lets GCC reassociate the dot products and axpys into vector lanes; a NaN pivot is
// caught by the callers, which check that the diagonal of the factor is finite and positive.
// Plain loops over raw pointers; no std:: templates, no Eigen (nothing AVX2 may leak via the linker).
#include "linalg_small.hpp"

#include <cmath>

namespace kbo::linalg_detail {

bool small_cholesky_avx2(long n, double* A) {
  for (long j = 0; j < n; ++j) {
    double* __restrict c = A + j * n;  // column j; rows j..n−1 are updated
    for (long k = 0; k < j; ++k) {
      const double* __restrict lk = A + k * n;
      const double ljk = lk[j];
      for (long i = j; i < n; ++i) c[i] -= lk[i] * ljk;
    }
    const double d = c[j];
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    c[j] = l;
    const double inv = 1.0 / l;
    for (long i = j + 1; i < n; ++i) c[i] *= inv;
  }
  return true;
}

void small_cholesky_inverse_avx2(long n, double* A, double* work) {
  // work ← L⁻¹ column by column (forward substitution in axpy form: contiguous inner loops).
  for (long j = 0; j < n; ++j) {
    double* __restrict x = work + j * n;
    for (long i = j; i < n; ++i) x[i] = 0.0;
    x[j] = 1.0;
    for (long k = j; k < n; ++k) {
      const double* __restrict lk = A + k * n;
      const double xk = x[k] / lk[k];
      x[k] = xk;
      for (long i = k + 1; i < n; ++i) x[i] -= lk[i] * xk;
    }
  }
  // (L⁻ᵀL⁻¹)_ij = Σ_{k ≥ i} L⁻¹_ki L⁻¹_kj for i ≥ j (L⁻¹ is lower triangular).
  for (long j = 0; j < n; ++j) {
    const double* __restrict xj = work + j * n;
    for (long i = j; i < n; ++i) {
      const double* __restrict xi = work + i * n;
      double s = 0.0;
      for (long k = i; k < n; ++k) s += xi[k] * xj[k];
      A[j * n + i] = s;
    }
  }
}

}  // namespace kbo::linalg_detail
