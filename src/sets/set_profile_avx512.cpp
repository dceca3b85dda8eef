// The per-pair pass of the set kernels for AVX-512 (F, DQ, VL; see CMakeLists.txt, *_avx512.cpp): the
// same contract as tile_pass_avx2 (set_profile_avx2.hpp), written with intrinsics so that the hot loop
// is one pass over the GEMM output with no library call per vector:
// - exp is our own (exp_nonpos below): glibc's libmvec exp costs ~1.05 ns per value here, this one
//   0.48 ns, which is what brings the full Gram pass from 45 % to ~60 % of the GEMM throughput;
// - sqrt is vsqrtpd (measured faster than rsqrt14 + Newton steps on this CPU, and correctly rounded);
// - run tails use masked loads, so every pair goes through the same vector code.
// Everything here has internal linkage (anonymous namespace, static intrinsics): no AVX-512 instruction
// can reach generic code through the linker. The caller (set_engine.cpp) dispatches here only when the
// CPU reports avx512f, avx512dq and avx512vl.
// GCC 12's intrinsics give their unused pass-through operands a self-initialised value (__Y = __Y),
// which -Wmaybe-uninitialized reports at every inlined use; nothing reads them.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cmath>

#include "set_profile_avx2.hpp"

namespace kbo::sets_detail {

namespace {

// 2^(j/16), j = 0..15, correctly rounded (computed with 60-digit decimal arithmetic).
alignas(64) constexpr double kExp2Table[16] = {
    1.0,                1.0442737824274138, 1.0905077326652577, 1.1387886347566916,
    1.189207115002721,  1.241857812073484,  1.2968395546510096, 1.3542555469368927,
    1.4142135623730951, 1.4768261459394993, 1.5422108254079407, 1.6104903319492543,
    1.681792830507429,  1.7562521603732995, 1.8340080864093424, 1.9152065613971474};

// exp(x) for x ≤ 0 (every argument in the pass is −c·r or −r²/2). Range reduction x = (k/16)·ln 2 + ρ
// with k = round(16x/ln 2), |ρ| ≤ ln 2/32 (Cody–Waite: ln2/16 split into a 25-bit head, so k·head is
// exact for |k| < 2^28, and a tail); e^ρ − 1 by its Taylor polynomial of degree 7 (truncation
// < 2e-18 relative); 2^(j/16) for j = k mod 16 from a 16-entry table held in two registers
// (vpermt2pd indexes with the low 4 bits of the magic-number sum, which are k mod 16); 2^⌊k/16⌋ by
// vscalefpd, which also underflows gracefully (subnormals, then +0). Below −1000 the argument is clamped
// (the result is +0 either way). Accuracy: a few ulp against std::exp (tests/sets).
inline __m512d exp_nonpos(__m512d x) {
  const __m512d magic = _mm512_set1_pd(6755399441055744.0);  // 1.5·2^52: adding it rounds to an integer
  x = _mm512_max_pd(x, _mm512_set1_pd(-1000.0));
  const __m512d t = _mm512_fmadd_pd(x, _mm512_set1_pd(23.083120654223414), magic);  // 16/ln 2
  const __m512d kd = _mm512_sub_pd(t, magic);                                        // k, exactly
  __m512d r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(0.043321697041392326), x);         // ln2/16, head
  r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(1.7436042554835966e-09), r);               // ln2/16, tail
  __m512d s = _mm512_set1_pd(1.0 / 5040.0);
  s = _mm512_fmadd_pd(s, r, _mm512_set1_pd(1.0 / 720.0));
  s = _mm512_fmadd_pd(s, r, _mm512_set1_pd(1.0 / 120.0));
  s = _mm512_fmadd_pd(s, r, _mm512_set1_pd(1.0 / 24.0));
  s = _mm512_fmadd_pd(s, r, _mm512_set1_pd(1.0 / 6.0));
  s = _mm512_fmadd_pd(s, r, _mm512_set1_pd(0.5));
  s = _mm512_fmadd_pd(s, r, _mm512_set1_pd(1.0));
  const __m512d em1 = _mm512_mul_pd(s, r);  // e^ρ − 1
  const __m512d T = _mm512_permutex2var_pd(_mm512_load_pd(kExp2Table), _mm512_castpd_si512(t),
                                           _mm512_load_pd(kExp2Table + 8));
  // T·e^ρ as T + T·(e^ρ − 1): the rounding error of the small term is scaled down.
  return _mm512_scalef_pd(_mm512_fmadd_pd(T, em1, T), _mm512_mul_pd(kd, _mm512_set1_pd(1.0 / 16.0)));
}

// φ(r) and g(r) = −φ'(r)/r from q = r² (≥ 0), for one profile type; G: also compute g.
template <int Type, bool G>
inline __m512d profile(__m512d q, __m512d* g) {
  const double s3 = 1.7320508075688772, s5 = 2.23606797749979;
  if constexpr (Type == static_cast<int>(ProfileType::RBF)) {
    const __m512d phi = exp_nonpos(_mm512_mul_pd(q, _mm512_set1_pd(-0.5)));
    if constexpr (G) *g = phi;
    return phi;
  } else if constexpr (Type == static_cast<int>(ProfileType::Matern12)) {
    const __m512d r = _mm512_sqrt_pd(q);
    const __m512d phi = exp_nonpos(_mm512_sub_pd(_mm512_setzero_pd(), r));
    // g = e^{-r}/r, set to 0 at r = 0 (every use multiplies it by a vanishing distance).
    if constexpr (G) *g = _mm512_maskz_div_pd(_mm512_cmp_pd_mask(r, _mm512_setzero_pd(), _CMP_GT_OQ), phi, r);
    return phi;
  } else if constexpr (Type == static_cast<int>(ProfileType::Matern32)) {
    const __m512d r = _mm512_sqrt_pd(q);
    const __m512d e = exp_nonpos(_mm512_mul_pd(r, _mm512_set1_pd(-s3)));
    if constexpr (G) *g = _mm512_mul_pd(e, _mm512_set1_pd(3.0));
    return _mm512_mul_pd(_mm512_fmadd_pd(r, _mm512_set1_pd(s3), _mm512_set1_pd(1.0)), e);
  } else {
    const __m512d r = _mm512_sqrt_pd(q);
    const __m512d e = exp_nonpos(_mm512_mul_pd(r, _mm512_set1_pd(-s5)));
    const __m512d lin = _mm512_fmadd_pd(r, _mm512_set1_pd(s5), _mm512_set1_pd(1.0));
    if constexpr (G) *g = _mm512_mul_pd(_mm512_mul_pd(lin, _mm512_set1_pd(5.0 / 3.0)), e);
    return _mm512_mul_pd(_mm512_fmadd_pd(q, _mm512_set1_pd(5.0 / 3.0), lin), e);
  }
}

// r² = max(0, na + nbj − 2G) for 8 rows.
inline __m512d r2_of(__m512d G, __m512d na, __m512d nbj) {
  return _mm512_max_pd(_mm512_fmadd_pd(_mm512_set1_pd(-2.0), G, _mm512_add_pd(na, nbj)), _mm512_setzero_pd());
}

inline __mmask8 tail_mask(long rem) { return static_cast<__mmask8>((1u << rem) - 1u); }

// Σ_i φ(r_i) over one contiguous run of a column (the Gram/cross path: no temporaries).
template <int Type>
double run_profile_sum(long n, const double* G, const double* na, double nbj) {
  const __m512d vnb = _mm512_set1_pd(nbj);
  __m512d acc0 = _mm512_setzero_pd(), acc1 = _mm512_setzero_pd();
  long i = 0;
  for (; i + 16 <= n; i += 16) {  // two independent vectors per iteration: more work in flight
    acc0 = _mm512_add_pd(acc0, profile<Type, false>(r2_of(_mm512_loadu_pd(G + i), _mm512_loadu_pd(na + i), vnb), nullptr));
    acc1 = _mm512_add_pd(acc1, profile<Type, false>(r2_of(_mm512_loadu_pd(G + i + 8), _mm512_loadu_pd(na + i + 8), vnb), nullptr));
  }
  for (; i < n; i += 8) {
    const __mmask8 m = n - i >= 8 ? static_cast<__mmask8>(0xFF) : tail_mask(n - i);
    const __m512d q = r2_of(_mm512_maskz_loadu_pd(m, G + i), _mm512_maskz_loadu_pd(m, na + i), vnb);
    acc0 = _mm512_mask_add_pd(acc0, m, acc0, profile<Type, false>(q, nullptr));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
}

// Whole column: r2 (or r2·g when gr2 is wanted), phi and g (when G) into the buffers.
template <int Type, bool G>
void column_profile(long n, const double* Gc, const double* na, double nbj, double* r2, double* phi, double* g,
                    bool r2_times_g) {
  const __m512d vnb = _mm512_set1_pd(nbj);
  for (long i = 0; i < n; i += 8) {
    const __mmask8 m = n - i >= 8 ? static_cast<__mmask8>(0xFF) : tail_mask(n - i);
    const __m512d q = r2_of(_mm512_maskz_loadu_pd(m, Gc + i), _mm512_maskz_loadu_pd(m, na + i), vnb);
    __m512d gv = _mm512_setzero_pd();
    _mm512_mask_storeu_pd(phi + i, m, profile<Type, G>(q, &gv));
    if constexpr (G) {
      _mm512_mask_storeu_pd(g + i, m, gv);
      _mm512_mask_storeu_pd(r2 + i, m, r2_times_g ? _mm512_mul_pd(q, gv) : q);
    }
  }
}

#include "set_tile_pass.inc"

template <int Type>
void tile_pass(const TilePassArgs& t) {
  auto run_profile = [](long len, const double* G, const double* na, double nbj) {
    return run_profile_sum<Type>(len, G, na, nbj);
  };
  auto column = [&](const double* Gc, double nbj, double* r2, double* phi, double* g, bool need_g) {
    if (need_g)
      column_profile<Type, true>(t.R, Gc, t.na, nbj, r2, phi, g, t.gd == nullptr);
    else
      column_profile<Type, false>(t.R, Gc, t.na, nbj, r2, phi, g, false);
  };
  tile_pass_with(t, run_profile, column);
}

}  // namespace

void tile_pass_avx512(const TilePassArgs& t) {
  switch (static_cast<ProfileType>(t.type)) {
    case ProfileType::RBF: return tile_pass<static_cast<int>(ProfileType::RBF)>(t);
    case ProfileType::Matern12: return tile_pass<static_cast<int>(ProfileType::Matern12)>(t);
    case ProfileType::Matern32: return tile_pass<static_cast<int>(ProfileType::Matern32)>(t);
    case ProfileType::Matern52: return tile_pass<static_cast<int>(ProfileType::Matern52)>(t);
  }
}

void exp_nonpos_avx512(long n, const double* x, double* y) {
  for (long i = 0; i < n; i += 8) {
    const __mmask8 m = n - i >= 8 ? static_cast<__mmask8>(0xFF) : tail_mask(n - i);
    _mm512_mask_storeu_pd(y + i, m, exp_nonpos(_mm512_maskz_loadu_pd(m, x + i)));
  }
}

}  // namespace kbo::sets_detail
