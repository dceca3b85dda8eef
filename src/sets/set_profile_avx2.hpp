#pragma once
// Interface of the vector per-pair passes: AVX2+FMA (set_profile_avx2.cpp) and AVX-512
// (set_profile_avx512.cpp). Declarations only: no inline code, so nothing compiled for AVX2/AVX-512 is
// shared with the generic objects.

namespace kbo::sets_detail {

/// Same order as kbo::StationaryType (checked by a static_assert in set_engine.cpp).
enum class ProfileType : int { RBF = 0, Matern12 = 1, Matern32 = 2, Matern52 = 3 };

/// One column-major tile G (R x C, leading dimension ldg) of dot products of scaled elements: rows are
/// the global element rows row0..row0+R−1, columns col0..col0+C−1; element row i belongs to set i / L.
/// Adds, for every pair (row set s, column set c), Σ φ(r) to phi[c·ldo + s]; when gr2 != nullptr (and
/// gd == nullptr) Σ g(r)·r² to gr2[c·ldo + s]; when gd != nullptr, Σ g(r)·(a_k − b_k)² to
/// gd[k][c·ldo + s] for k < d, where a = row i of A (column-major, lda) and b = row j of B (ldb).
/// na (R), nb (C): squared norms of the rows; an r² that rounds below 0 is clamped to 0 (the caller
/// makes diagonal entries exactly 0 by writing G(i, i) = na(i) = nb(i)). work: 3·R doubles.
struct TilePassArgs {
  int type;
  long R, C;
  const double* G;
  long ldg;
  const double* na;
  const double* nb;
  long row0, col0, L;
  double* phi;
  long ldo;
  double* gr2;
  double* const* gd;
  const double* A;
  long lda;
  const double* B;
  long ldb;
  long d;
  double* work;
};
void tile_pass_avx2(const TilePassArgs& args);
/// The same pass with AVX-512 intrinsics and its own exp (only on CPUs with avx512f/dq/vl).
void tile_pass_avx512(const TilePassArgs& args);
/// y[i] = exp(x[i]) for x[i] ≤ 0 with the AVX-512 pass's exp (exposed for the accuracy test).
void exp_nonpos_avx512(long n, const double* x, double* y);

}  // namespace kbo::sets_detail
