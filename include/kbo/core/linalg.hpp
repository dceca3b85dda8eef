#pragma once
// Dense linear algebra used everywhere: Eigen aliases, Cholesky with jitter escalation and rank-one
// extension, symmetric eigendecomposition and PSD projection.
#include <limits>

#include <Eigen/Dense>

#include "kbo/core/blas_threads.hpp"  // set_blas_threads, for callers that included it from here
#include "kbo/core/error.hpp"

namespace kbo {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;  // points are the ROWS of a matrix: X is n x D

/// The value of a failed or infeasible evaluation in the maximisers and fits.
inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// Cholesky factor L (lower) of K + jitter*I. If K is not numerically positive definite, jitter is
/// escalated from 1e-10 to 1e-1 times the mean diagonal, by factors of 10; NumericalError after that.
class Cholesky {
 public:
  Cholesky() = default;
  explicit Cholesky(const Mat& K) { compute(K); }
  void compute(const Mat& K);

  /// Appends one row/column to the factored matrix in O(n^2): k_new = K(old, new), k_nn = K(new, new).
  /// The jitter already in use is added to k_nn. Throws NumericalError if the new pivot is not positive.
  void extend(const Vec& k_new, double k_nn);
  /// Appends m rows/columns at once in O(n²m): K_old_new = K(old, new) (n x m), K_new_new = K(new, new)
  /// (m x m, the jitter in use is added to its diagonal). Same factor as m calls of extend (up to
  /// rounding), with one triangular solve for all m columns. NumericalError if the new block is not
  /// positive definite (the factor is then unchanged).
  void extend(const Mat& K_old_new, const Mat& K_new_new);

  int size() const { return static_cast<int>(L_.rows()); }
  double jitter() const { return jitter_; }
  const Mat& L() const { return L_; }
  Vec solve(const Vec& b) const;        // (K + jitter I)^{-1} b
  Mat solve(const Mat& B) const;
  Vec solve_lower(const Vec& b) const;  // L^{-1} b
  Mat solve_lower(const Mat& B) const;
  Mat inverse() const;
  Mat lower_inverse() const;            // L^{-1} (lower triangular; zero strict upper triangle)
  double log_det() const;               // log det(K + jitter I)

 private:
  Mat L_;
  double jitter_ = 0.0;
};

/// Building blocks for hot loops that manage their own buffers (the GP's fused likelihood path).
/// Lower Cholesky factor of A in place, reading and writing only the lower triangle (the strict upper
/// triangle is left as it was); false if A is not numerically positive definite. No jitter: on false,
/// callers fall back to Cholesky, which escalates it.
bool cholesky_lower_in_place(Mat& A);
/// With a lower Cholesky factor L in the lower triangle of A: overwrites that triangle with the lower
/// triangle of (L Lᵀ)⁻¹ (LAPACK potri); the strict upper triangle is left as it was.
void cholesky_inverse_lower_in_place(Mat& A);

struct SymmetricEigen {
  Vec values;   // ascending
  Mat vectors;  // columns
};
/// Eigendecomposition of a symmetric matrix (self-adjoint solver; A is symmetrised first).
SymmetricEigen symmetric_eigen(const Mat& A);

/// Frobenius-nearest PSD matrix: eigenvalues below `floor` set to zero (Higham 1988).
Mat psd_clip(const Mat& A, double floor = 0.0);

/// B ← B Tᵀ for a lower-triangular T (only its lower triangle is read), in place. With T = L⁻¹ this
/// gives the rows L⁻¹k* of many test points at once for predictive variances.
void multiply_by_lower_transpose_in_place(Mat& B, const Mat& T);

/// Throws InputError naming `what` if any entry is NaN or infinite.
void require_finite(const Mat& A, const char* what);

/// Smallest Euclidean distance from u to a row of `rows` (+inf when there are none): how strategies tell a
/// repeat of a pending, evaluated or failed point.
inline double min_row_distance(const Vec& u, const Mat& rows) {
  return rows.rows() == 0 ? std::numeric_limits<double>::infinity() : (rows.rowwise() - u.transpose()).rowwise().norm().minCoeff();
}

}  // namespace kbo
