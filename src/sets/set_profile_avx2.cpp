// The per-pair pass of the set kernels, compiled for AVX2+FMA (see CMakeLists.txt, kbo_avx2_sources):
// from one column-major tile of dot products G = A·Bᵀ (the GEMM output), r² = ‖a‖² + ‖b‖² − 2a·b
// clamped at 0, the stationary profile φ(r) and, for gradients, g(r) = −φ'(r)/r, reduced to the sums
// over each (row set, column set) block. Plain loops over raw pointers only: GCC vectorises them 4-wide
// and calls glibc's libmvec for exp; no Eigen and no header templates, so no AVX2 instruction can leak
// into generic code through an inline function the linker might pick from this object. The caller
// (set_engine.cpp) dispatches here only when the CPU has AVX2 and FMA.
//
// -ffast-math is safe here: inputs are finite, the clamp keeps sqrt's argument ≥ 0, and sums may be
// reassociated (the tests compare with the generic path to ~1e-12 relative).
#include "set_profile_avx2.hpp"

#include <cmath>

namespace kbo::sets_detail {

namespace {

// r²[i] = max(0, na[i] + nbj − 2 G[i]) for one column.
inline void column_r2(long n, const double* __restrict G, const double* __restrict na, double nbj,
                      double* __restrict r2) {
  for (long i = 0; i < n; ++i) {
    const double q = na[i] + nbj - 2.0 * G[i];
    r2[i] = q > 0.0 ? q : 0.0;
  }
}

// φ of a column of r² values (into phi) and, if g != nullptr, g = −φ'(r)/r (Matérn-1/2: 0 at r = 0,
// the value every caller multiplies by a vanishing distance).
void column_profile(int type, long n, const double* __restrict r2, double* __restrict phi, double* __restrict g) {
  const double s3 = std::sqrt(3.0), s5 = std::sqrt(5.0);
  switch (static_cast<ProfileType>(type)) {
    case ProfileType::RBF:
      for (long i = 0; i < n; ++i) phi[i] = std::exp(-0.5 * r2[i]);
      if (g)
        for (long i = 0; i < n; ++i) g[i] = phi[i];
      return;
    case ProfileType::Matern12:
      if (!g) {
        for (long i = 0; i < n; ++i) phi[i] = std::exp(-std::sqrt(r2[i]));
      } else {
        for (long i = 0; i < n; ++i) {
          const double r = std::sqrt(r2[i]);
          const double e = std::exp(-r);
          phi[i] = e;
          g[i] = r > 0.0 ? e / (r > 0.0 ? r : 1.0) : 0.0;
        }
      }
      return;
    case ProfileType::Matern32:
      for (long i = 0; i < n; ++i) {
        const double r = std::sqrt(r2[i]);
        const double e = std::exp(-s3 * r);
        phi[i] = (1.0 + s3 * r) * e;
        if (g) g[i] = 3.0 * e;
      }
      return;
    case ProfileType::Matern52:
      for (long i = 0; i < n; ++i) {
        const double r = std::sqrt(r2[i]);
        const double e = std::exp(-s5 * r);
        const double lin = 1.0 + s5 * r;
        phi[i] = (lin + (5.0 / 3.0) * r2[i]) * e;
        if (g) g[i] = (5.0 / 3.0) * lin * e;
      }
      return;
  }
}

// Σ_i φ(r_i) over one contiguous run of a column, r² computed on the fly (the Gram path: no temporary).
double run_profile_sum(int type, long n, const double* __restrict G, const double* __restrict na, double nbj) {
  const double s3 = std::sqrt(3.0), s5 = std::sqrt(5.0);
  double s = 0.0;
  switch (static_cast<ProfileType>(type)) {
    case ProfileType::RBF:
      for (long i = 0; i < n; ++i) {
        double q = na[i] + nbj - 2.0 * G[i];
        q = q > 0.0 ? q : 0.0;
        s += std::exp(-0.5 * q);
      }
      return s;
    case ProfileType::Matern12:
      for (long i = 0; i < n; ++i) {
        double q = na[i] + nbj - 2.0 * G[i];
        q = q > 0.0 ? q : 0.0;
        s += std::exp(-std::sqrt(q));
      }
      return s;
    case ProfileType::Matern32:
      for (long i = 0; i < n; ++i) {
        double q = na[i] + nbj - 2.0 * G[i];
        q = q > 0.0 ? q : 0.0;
        const double r = std::sqrt(q);
        s += (1.0 + s3 * r) * std::exp(-s3 * r);
      }
      return s;
    case ProfileType::Matern52:
      for (long i = 0; i < n; ++i) {
        double q = na[i] + nbj - 2.0 * G[i];
        q = q > 0.0 ? q : 0.0;
        const double r = std::sqrt(q);
        s += (1.0 + s5 * r + (5.0 / 3.0) * q) * std::exp(-s5 * r);
      }
      return s;
  }
  return s;
}

#include "set_tile_pass.inc"

}  // namespace

void tile_pass_avx2(const TilePassArgs& t) {
  auto run_profile = [&](long len, const double* G, const double* na, double nbj) {
    return run_profile_sum(t.type, len, G, na, nbj);
  };
  auto column = [&](const double* Gc, double nbj, double* r2, double* phi, double* g, bool need_g) {
    column_r2(t.R, Gc, t.na, nbj, r2);
    column_profile(t.type, t.R, r2, phi, need_g ? g : nullptr);
    // g·r² only for gr2: the ARD sums (gd) use the per-coordinate squared differences.
    if (t.gr2 && !t.gd)
      for (long i = 0; i < t.R; ++i) r2[i] *= g[i];
  };
  tile_pass_with(t, run_profile, column);
}

}  // namespace kbo::sets_detail
