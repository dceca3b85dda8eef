#pragma once
// Cholesky factorisation and inverse of SMALL dense matrices (n below ~100) as plain loops compiled for
// AVX2+FMA (linalg_small_avx2.cpp; see CMakeLists.txt, kbo_avx2_sources). At these sizes OpenBLAS's
// potrf/potri spend more time in dispatch and blocking than in arithmetic, and a GP fit on tens of
// points calls them ~100 times. Declarations only: nothing compiled for AVX2 is shared through inline
// code. linalg.cpp calls these only when the CPU has AVX2 and FMA.

namespace kbo::linalg_detail {

/// Left-looking Cholesky of the lower triangle of the column-major n x n matrix A, in place; reads and
/// writes the lower triangle only. False when a pivot is not positive.
bool small_cholesky_avx2(long n, double* A);
/// X = L⁻¹ for L in the lower triangle of A (both n x n, contiguous); writes X's lower triangle only.
/// rd: n doubles of scratch.
void small_lower_inverse_avx2(long n, const double* A, double* X, double* rd);
/// With L in the lower triangle of A: writes the lower triangle of (L Lᵀ)⁻¹ = L⁻ᵀL⁻¹ over it (upper
/// triangle untouched). work: 2·n·n doubles.
void small_cholesky_inverse_avx2(long n, double* A, double* work);

}  // namespace kbo::linalg_detail
