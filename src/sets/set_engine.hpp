#pragma once
// Internal building blocks of the set kernels (not installed): stacking the elements of flat sets,
// squared distances through one GEMM, the stationary profile and its radial derivative elementwise,
// block reductions by reshapes, and the tiling of large set collections.
#include <algorithm>
#include <vector>

#include "kbo/model/kernels/stationary.hpp"
#include "kbo/core/linalg.hpp"

namespace kbo::sets_detail {

/// Elements of the flat sets (rows of X, n x (m·d), row-major m x d blocks) stacked as rows of an
/// (n·m) x d matrix and divided by the lengthscale(s) `ls` (size 1 or d).
Mat stack_scaled(const Mat& X, int m, int d, const Vec& ls);

/// ‖a_i − b_j‖² for rows of A and B via ‖a‖² + ‖b‖² − 2 A Bᵀ, clamped at 0.
Mat sq_dist(const Mat& A, const Mat& B);

/// φ(r) and, if g != nullptr, g(r) = −φ'(r)/r (finite at r = 0 except Matérn-1/2, where it is set
/// to 0: every use multiplies it by a distance that vanishes there), elementwise from r².
void profile_eval(StationaryType type, const Mat& r2, Mat& phi, Mat* g);

/// Sums of the ma x mb blocks of P ((ra·ma) x (cb·mb)) → ra x cb, by two column-major reshapes.
Mat block_sums(const Mat& P, int ma, int mb);

/// G(0:rw, 0:cw) = A·Bᵀ (rw = A.rows(), cw = B.rows()) for one chunk of the vector passes: dgemm with
/// beta = 0 when Eigen is routed through BLAS, Eigen's product otherwise. G must be at least rw x cw.
void chunk_products(const Eigen::Ref<const Mat>& A, const Eigen::Ref<const Mat>& B, Mat& G);

/// Block sums of one tile of set pairs, computed from GEMM outputs A Bᵀ by one fused pass per column,
/// never materialising the element-pair matrices (AVX2 path: in L2-sized chunks, see set_engine.cpp): phi = Σ_block φ(r), and when requested
/// gr2 = Σ_block g(r)·r² (isotropic lengthscale gradient) and gd[k] = Σ_block g(r)·(a_k − b_k)² (ARD).
/// A and B are stacked scaled elements ((ni·L) x d and (nj·L) x d). zero_diag: A and B are the same
/// rows (diagonal tile), so entry (j, j) is an element with itself and gets r = 0 exactly.
struct TileSums {
  Mat phi, gr2;
  std::vector<Mat> gd;
};
void tile_block_sums(StationaryType type, const Eigen::Ref<const Mat>& A, const Eigen::Ref<const Mat>& B, int L,
                     bool zero_diag, bool want_gr2, bool want_gd, TileSums& out);
/// The portable implementation (Eigen packets); tile_block_sums uses it when the AVX2 pass is off.
void tile_block_sums_generic(StationaryType type, const Eigen::Ref<const Mat>& A, const Eigen::Ref<const Mat>& B,
                             int L, bool zero_diag, bool want_gr2, bool want_gd, TileSums& out);

/// Calls f(i0, ni, j0, nj) for tiles of whole sets covering an na x nb set grid with at most
/// `tile_elements` stacked elements per side; symmetric ⇒ only tiles with j0 ≥ i0.
template <class F>
void for_each_tile(int na, int ma, int nb, int mb, bool symmetric, int tile_elements, F&& f) {
  const int ta = std::max(1, tile_elements / std::max(1, ma));
  const int tb = std::max(1, tile_elements / std::max(1, mb));
  for (int i0 = 0; i0 < na; i0 += ta) {
    const int ni = std::min(ta, na - i0);
    for (int j0 = symmetric ? i0 : 0; j0 < nb; j0 += tb) {
      const int nj = std::min(tb, nb - j0);
      f(i0, ni, j0, nj);
    }
  }
}

}  // namespace kbo::sets_detail
