// Small-matrix Cholesky and inverse, compiled for AVX2+FMA with -ffast-math (see linalg_small.hpp).
// -ffast-math only lets GCC reassociate the sums into vector lanes; a NaN pivot is caught by the
// callers, which check that the diagonal of the factor is finite and positive.
// Plain loops over raw pointers; no std:: templates, no Eigen (nothing AVX2 may leak via the linker).
//
// Every inner loop is a contiguous column update that GCC vectorises. Updates are applied four
// columns at a time (c −= l₀a₀ + l₁a₁ + l₂a₂ + l₃a₃) so that the updated column is loaded and stored
// once per four multiply-adds instead of once per one: at n ≈ 50 the one-at-a-time loops were bound
// by those loads and stores (≈ 3 GFLOP/s).
#include "linalg_small.hpp"

#include <cmath>

namespace kbo::linalg_detail {

namespace {

// y[i] −= Σ_{t<4} C[t·ld + i] · a_t for i in [0, m): four consecutive columns of a column-major matrix
// with leading dimension ld, C pointing at the first column's first row used.
inline void subtract4(long m, double* __restrict y, const double* __restrict C, long ld, double a0, double a1,
                    double a2, double a3) {
  const double* __restrict c0 = C;
  const double* __restrict c1 = C + ld;
  const double* __restrict c2 = C + 2 * ld;
  const double* __restrict c3 = C + 3 * ld;
  for (long i = 0; i < m; ++i) y[i] -= c0[i] * a0 + c1[i] * a1 + c2[i] * a2 + c3[i] * a3;
}

// The same with coefficients a_t = sign · (row `row` of those columns), rows row..row+m−1 updated:
// y −= sign · C[row.., k..k+3] C[row, k..k+3]ᵀ, where col0 points at column k (row 0).
inline void subtract4_by_row(long m, double* y, const double* col0, long ld, long row, double sign) {
  subtract4(m, y, col0 + row, ld, sign * col0[row], sign * col0[ld + row], sign * col0[2 * ld + row],
          sign * col0[3 * ld + row]);
}

inline void subtract1(long m, double* __restrict y, const double* __restrict c0, double a0) {
  for (long i = 0; i < m; ++i) y[i] -= c0[i] * a0;
}

}  // namespace

bool small_cholesky_avx2(long n, double* A) {
  for (long j = 0; j < n; ++j) {
    double* c = A + j * n + j;  // rows j..n−1 of column j
    const long m = n - j;
    long k = 0;
    for (; k + 4 <= j; k += 4) subtract4_by_row(m, c, A + k * n, n, j, 1.0);
    for (; k < j; ++k) subtract1(m, c, A + k * n + j, A[k * n + j]);
    const double d = c[0];
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    c[0] = l;
    const double inv = 1.0 / l;
    for (long i = 1; i < m; ++i) c[i] *= inv;
  }
  return true;
}

void small_lower_inverse_avx2(long n, const double* A, double* X, double* rd) {
  // X = L⁻¹ (column-major, lower triangular), column by column by forward substitution. Reciprocal
  // pivots once: divisions in the 4 x 4 diagonal blocks' dependency chain were the hottest instructions.
  for (long k = 0; k < n; ++k) rd[k] = 1.0 / A[k * n + k];
  for (long j = 0; j < n; ++j) {
    double* x = X + j * n;
    for (long i = j; i < n; ++i) x[i] = 0.0;
    x[j] = 1.0;
    long k = j;
    for (; k + 4 <= n; k += 4) {
      const double* l0 = A + k * n;  // columns k..k+2 enter the 4 x 4 diagonal block's solve
      const double* l1 = l0 + n;
      const double* l2 = l1 + n;
      // the 4 x 4 diagonal block, then one four-column update of the rows below it
      const double x0 = x[k] * rd[k];
      const double x1 = (x[k + 1] - l0[k + 1] * x0) * rd[k + 1];
      const double x2 = (x[k + 2] - l0[k + 2] * x0 - l1[k + 2] * x1) * rd[k + 2];
      const double x3 = (x[k + 3] - l0[k + 3] * x0 - l1[k + 3] * x1 - l2[k + 3] * x2) * rd[k + 3];
      x[k] = x0, x[k + 1] = x1, x[k + 2] = x2, x[k + 3] = x3;
      subtract4(n - k - 4, x + k + 4, l0 + k + 4, n, x0, x1, x2, x3);
    }
    for (; k < n; ++k) {
      const double* lk = A + k * n;
      const double xk = x[k] * rd[k];
      x[k] = xk;
      subtract1(n - k - 1, x + k + 1, lk + k + 1, xk);
    }
  }
}

void small_cholesky_inverse_avx2(long n, double* A, double* work) {
  double* X = work;
  small_lower_inverse_avx2(n, A, X, work + n * n);  // work's second half is scratch until Z below
  // (L⁻ᵀL⁻¹)_ij = Σ_{k ≥ i} X_ki X_kj for i ≥ j. Column j of the result, rows i ≥ j, in axpy form over
  // the rows k of X, which must then be contiguous: Z = Xᵀ (upper triangular, zeros stored below).
  double* Z = work + n * n;
  for (long t = 0; t < n * n; ++t) Z[t] = 0.0;
  for (long i = 0; i < n; ++i) {
    const double* __restrict xi = X + i * n;  // column i of X: rows k ≥ i, read contiguously
    for (long k = i; k < n; ++k) Z[k * n + i] = xi[k];
  }
  for (long j = 0; j < n; ++j) {
    double* out = A + j * n;  // rows j..n−1 of column j
    for (long i = j; i < n; ++i) out[i] = 0.0;
    // out[i] += Σ_k Z[i,k] Z[j,k] over k ≥ i: column k of Z (rows j..k) scaled by Z[j,k] = X[k,j].
    long k = j;
    // column k+t is nonzero in rows ≤ k+t: one update over rows j..k+3 (the stored zeros cover the rest)
    for (; k + 4 <= n; k += 4) subtract4_by_row(k + 4 - j, out + j, Z + k * n, n, j, -1.0);
    for (; k < n; ++k) {
      const double* zk = Z + k * n;
      subtract1(k + 1 - j, out + j, zk + j, -zk[j]);
    }
  }
}

}  // namespace kbo::linalg_detail
