#include "kbo/core/linalg.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kbo/core/blas_threads.hpp"
#include "linalg_small.hpp"

#ifdef KBO_HAVE_LAPACK
// LAPACK (OpenBLAS): blocked, multi-threaded potrf/lauum are 2-3x faster than Eigen's generic paths
// for the n = 100..1000 matrices of GP fitting.
extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dlauum_(const char* uplo, const int* n, double* a, const int* lda, int* info);
}
#endif

namespace kbo {

namespace {
// kbo's BLAS thread policy (blas_threads.hpp), applied when the program is loaded: every model links this
// file, and OpenBLAS (a shared library) has read OPENBLAS_NUM_THREADS before static initialisers run.
const bool kBlasPolicyApplied = (apply_blas_thread_policy(), true);

// Below this size (and with AVX2+FMA) the plain-loop kernels of linalg_small_avx2.cpp beat OpenBLAS.
constexpr Eigen::Index kSmallMax = 96;
bool small_kernels() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
}
// L⁻¹ over the lower triangle of the n x n block at A (leading dimension lda); the strict upper triangle
// is not touched. Recursive: [A 0; B C]⁻¹ = [A⁻¹ 0; −C⁻¹BA⁻¹ C⁻¹], the off-diagonal block by two trmm's,
// so nearly all flops run in BLAS-3 kernels. OpenBLAS's trtri solves its large diagonal blocks with
// level-2 trmv (18 GFLOP/s at n = 500); this was 2.2x faster at n = 500 and 2.9x at n = 200.
void lower_inverse_in_place(double* A, int n, int lda, std::vector<double>& buf) {
  constexpr int kBase = 32;
  if (n <= kBase) {
    buf.assign(static_cast<size_t>(2 * n * n + n), 0.0);
    double* L = buf.data();
    double* X = L + n * n;
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) L[j * n + i] = A[static_cast<size_t>(j) * lda + i];
    if (small_kernels()) {
      linalg_detail::small_lower_inverse_avx2(n, L, X, X + n * n);
    } else {
      Eigen::Map<Mat> Lm(L, n, n), Xm(X, n, n);
      Xm = Lm.triangularView<Eigen::Lower>().solve(Mat::Identity(n, n));
    }
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) A[static_cast<size_t>(j) * lda + i] = X[j * n + i];
    return;
  }
#ifdef KBO_HAVE_LAPACK
  int n1 = std::min(n - 1, (n / 2 + 7) / 8 * 8);  // multiples of 8 keep the BLAS kernels' panels whole
  const int n2 = n - n1;
  double* A11 = A;
  double* A21 = A + n1;
  double* A22 = A + static_cast<size_t>(n1) * lda + n1;
  lower_inverse_in_place(A11, n1, lda, buf);
  lower_inverse_in_place(A22, n2, lda, buf);
  const double minus_one = -1.0, one = 1.0;
  dtrmm_("R", "L", "N", "N", &n2, &n1, &minus_one, A11, &lda, A21, &lda);  // −B A⁻¹
  dtrmm_("L", "L", "N", "N", &n2, &n1, &one, A22, &lda, A21, &lda);        // C⁻¹ (−B A⁻¹)
#else
  Eigen::Map<Mat, 0, Eigen::OuterStride<>> block(A, n, n, Eigen::OuterStride<>(lda));
  Mat X = block.triangularView<Eigen::Lower>().solve(Mat::Identity(n, n));
  block.triangularView<Eigen::Lower>() = X;
#endif
}

#ifdef KBO_HAVE_LAPACK
// (LLᵀ)⁻¹ = L⁻ᵀL⁻¹ over the lower triangle: recursive L⁻¹, then LAPACK's lauum (which runs near GEMM
// speed). Replaces potri, whose trtri half is slow (see above).
void cholesky_inverse_lapack(double* A, int n) {
  std::vector<double> buf;
  lower_inverse_in_place(A, n, n, buf);
  int info = 0;
  dlauum_("L", &n, A, &n, &info);
  if (info != 0) throw NumericalError("Cholesky inverse: singular factor");
}
#endif
}  // namespace

bool cholesky_lower_in_place(Mat& A) {
  if (A.rows() != A.cols()) throw NumericalError("Cholesky: matrix is not square");
  if (A.rows() > 0 && A.rows() <= kSmallMax && small_kernels())
    return linalg_detail::small_cholesky_avx2(static_cast<long>(A.rows()), A.data());
#ifdef KBO_HAVE_LAPACK
  if (A.rows() >= 64) {
    const int n = static_cast<int>(A.rows());
    int info = 0;
    dpotrf_("L", &n, A.data(), &n, &info);
    return info == 0;
  }
#endif
  // Eigen's in-place LLT reads and writes the lower triangle only.
  Eigen::LLT<Eigen::Ref<Mat>, Eigen::Lower> llt(A);
  return llt.info() == Eigen::Success;
}

void cholesky_inverse_lower_in_place(Mat& A) {
  const Eigen::Index n = A.rows();
  if (n > 0 && n <= kSmallMax && small_kernels()) {
    Mat work(n, 2 * n);
    linalg_detail::small_cholesky_inverse_avx2(static_cast<long>(n), A.data(), work.data());
    return;
  }
#ifdef KBO_HAVE_LAPACK
  if (n >= 64) {
    cholesky_inverse_lapack(A.data(), static_cast<int>(n));
    return;
  }
#endif
  // Small n: L⁻¹ by a triangular solve, then the lower triangle of L⁻ᵀL⁻¹ by a rank update.
  Mat Linv = Mat::Identity(n, n);
  A.triangularView<Eigen::Lower>().solveInPlace(Linv);
  Mat inv = Mat::Zero(n, n);
  inv.selfadjointView<Eigen::Lower>().rankUpdate(Linv.transpose());
  A.triangularView<Eigen::Lower>() = inv;
}

namespace {
// Lower Cholesky factor of A in place with a zeroed strict upper triangle.
bool factor_lower(Mat& A) {
  if (!cholesky_lower_in_place(A)) return false;
  A.triangularView<Eigen::StrictlyUpper>().setZero();
  return true;
}
}  // namespace

void Cholesky::compute(const Mat& K) {
  if (K.rows() != K.cols()) throw NumericalError("Cholesky: matrix is not square");
  const Eigen::Index n = K.rows();
  const double scale = n > 0 ? std::max(K.diagonal().cwiseAbs().mean(), 1e-300) : 1.0;
  // Jitter escalation: 0, then 1e-10 … 1e-1 of the mean diagonal.
  for (double rel = 0.0; rel <= 0.1 + 1e-15; rel = (rel == 0.0 ? 1e-10 : rel * 10.0)) {
    Mat A = K;
    const double jitter = rel * scale;
    if (jitter > 0.0) A.diagonal().array() += jitter;
    if (factor_lower(A) && A.diagonal().minCoeff() > 0.0 && std::isfinite(A.diagonal().sum())) {
      L_ = std::move(A);
      jitter_ = jitter;
      return;
    }
  }
  throw NumericalError("Cholesky failed: the matrix is not positive definite even with jitter " +
                       std::to_string(0.1 * scale) + " (n = " + std::to_string(n) + ")");
}

void Cholesky::extend(const Vec& k_new, double k_nn) {
  if (k_new.size() != L_.rows()) throw NumericalError("Cholesky::extend: size mismatch");
  extend(Mat(k_new), Mat::Constant(1, 1, k_nn));
}

void Cholesky::extend(const Mat& K_old_new, const Mat& K_new_new) {
  const Eigen::Index n = L_.rows(), m = K_new_new.rows();
  if (K_new_new.cols() != m || K_old_new.rows() != n || K_old_new.cols() != m)
    throw NumericalError("Cholesky::extend: size mismatch");
  if (m == 0) return;
  // [L 0; Bᵀ C] with B = L⁻¹ K_old_new and C Cᵀ = K_new_new + jitter I − BᵀB (the Schur complement).
  const Mat B = n > 0 ? Mat(L_.triangularView<Eigen::Lower>().solve(K_old_new)) : Mat(0, m);
  Mat S = K_new_new;
  S.diagonal().array() += jitter_;
  if (n > 0) S.noalias() -= B.transpose() * B;
  Eigen::LLT<Mat> llt(S);
  if (llt.info() != Eigen::Success || !(llt.matrixLLT().diagonal().minCoeff() > 0.0) ||
      !std::isfinite(llt.matrixLLT().diagonal().sum()))
    throw NumericalError("Cholesky::extend: new pivot is not positive (duplicate point?)");
  L_.conservativeResize(n + m, n + m);
  L_.bottomLeftCorner(m, n) = B.transpose();
  L_.topRightCorner(n, m).setZero();
  L_.bottomRightCorner(m, m) = llt.matrixL();
}

Vec Cholesky::solve(const Vec& b) const {
  Vec x = L_.triangularView<Eigen::Lower>().solve(b);
  L_.triangularView<Eigen::Lower>().transpose().solveInPlace(x);
  return x;
}
Mat Cholesky::solve(const Mat& B) const {
  Mat X = L_.triangularView<Eigen::Lower>().solve(B);
  L_.triangularView<Eigen::Lower>().transpose().solveInPlace(X);
  return X;
}
Vec Cholesky::solve_lower(const Vec& b) const { return L_.triangularView<Eigen::Lower>().solve(b); }
Mat Cholesky::solve_lower(const Mat& B) const { return L_.triangularView<Eigen::Lower>().solve(B); }

Mat Cholesky::lower_inverse() const {
  const int n = static_cast<int>(L_.rows());
  Mat Linv = L_;
  std::vector<double> buf;
  if (n > 0) lower_inverse_in_place(Linv.data(), n, n, buf);
  return Linv.triangularView<Eigen::Lower>();
}

void multiply_by_lower_transpose_in_place(Mat& B, const Mat& T) {
  if (B.cols() != T.rows() || T.rows() != T.cols())
    throw NumericalError("multiply_by_lower_transpose_in_place: size mismatch");
#ifdef KBO_HAVE_LAPACK
  // BLAS trmm in place: no copy of B and half the flops of a GEMM; at m = 10,000 rows it runs at
  // about twice the speed of a triangular solve with the same shape (measured n = 50..500).
  const int m = static_cast<int>(B.rows()), n = static_cast<int>(B.cols());
  const double one = 1.0;
  if (m > 0 && n > 0) dtrmm_("R", "L", "T", "N", &m, &n, &one, T.data(), &n, B.data(), &m);
#else
  B = B * T.triangularView<Eigen::Lower>().transpose();
#endif
}

Mat Cholesky::inverse() const {
#ifdef KBO_HAVE_LAPACK
  if (L_.rows() >= 64) {
    Mat A = L_;
    cholesky_inverse_lapack(A.data(), static_cast<int>(A.rows()));
    return A.selfadjointView<Eigen::Lower>();
  }
#endif
  // K^{-1} = L^{-T} L^{-1}; computing L^{-1} once then a symmetric product halves the work of solve(I).
  Mat Linv = L_.triangularView<Eigen::Lower>().solve(Mat::Identity(L_.rows(), L_.rows()));
  Mat inv(L_.rows(), L_.rows());
  inv.setZero();
  inv.selfadjointView<Eigen::Lower>().rankUpdate(Linv.transpose());
  return inv.selfadjointView<Eigen::Lower>();
}

double Cholesky::log_det() const { return 2.0 * L_.diagonal().array().log().sum(); }

SymmetricEigen symmetric_eigen(const Mat& A) {
  Mat S = 0.5 * (A + A.transpose());
  Eigen::SelfAdjointEigenSolver<Mat> es(S);
  if (es.info() != Eigen::Success) throw NumericalError("symmetric eigendecomposition did not converge");
  return {es.eigenvalues(), es.eigenvectors()};
}

Mat psd_clip(const Mat& A, double floor) {
  SymmetricEigen e = symmetric_eigen(A);
  Vec clipped = (e.values.array() < floor).select(0.0, e.values);
  return e.vectors * clipped.asDiagonal() * e.vectors.transpose();
}

void require_finite(const Mat& A, const char* what) {
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      if (!std::isfinite(A(i, j)))
        throw InputError(std::string(what) + ": non-finite value (NaN or inf) at row " + std::to_string(i + 1) +
                         ", column " + std::to_string(j + 1));
}

}  // namespace kbo
