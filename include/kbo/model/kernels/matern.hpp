#pragma once
// The stationary profiles φ as scalar formulae, written once. r = ‖x − y‖/ℓ is the scaled distance
// (unit variance: φ(0) = 1); s = √(2ν)·r is the argument of the Matérn exponential.
//
//   kernel          φ(r)                              φ′(r) = dφ/dr                    φ′(r)/r at r → 0
//   Matérn-1/2      e^{−r}                            −e^{−r}                          (kink: none)
//   Matérn-3/2      (1 + s) e^{−s},  s = √3 r          −3 r e^{−s}                       −3
//   Matérn-5/2      (1 + s + 5r²/3) e^{−s}, s = √5 r   −(5/3) r (1 + s) e^{−s}           −5/3
//   RBF (SE)        e^{−r²/2}                          −r e^{−r²/2}                      −1
//
// Every scalar evaluation in kbo calls these (StationaryKernel::profile and ::profile_derivative, the
// invariance kernels' pair evaluations through them, the KFO hyperkernel's Matérn-3/2 correlation). Code that
// evaluates φ on whole arrays spells the same formulae with the constants below instead: Eigen array
// expressions (StationaryKernel::profile_from_sq, the set kernels' tiles, KFO's baseline Gram) keep Eigen's
// vectorised exp, and the AVX2/AVX-512 loops (*_avx2.cpp, *_avx512.cpp, *.inc) must not include shared inline
// code at all (see CMakeLists.txt: an inline function compiled there could replace the portable copy at link
// time), so they keep their own copies of the two constants.
//
// The expressions are written so that results are bit-identical to the code they replaced (e.g. 5/3·r·r,
// not 5/3·r², in the Matérn-5/2 profile; −3r e^{−s}, not √3·(−s e^{−s}), in its derivative).
#include <cmath>

namespace kbo::matern {

inline constexpr double kSqrt3 = 1.7320508075688772;  // √3, the Matérn-3/2 factor (= std::sqrt(3.0))
inline constexpr double kSqrt5 = 2.2360679774997896;  // √5, the Matérn-5/2 factor (= std::sqrt(5.0))

// ---- in the exponential's argument s = √(2ν) r (callers with a lengthscale of their own pass s) ----

/// Matérn-3/2 φ as a function of s = √3 r: (1 + s) e^{−s}.
inline double matern32_of_s(double s) { return (1.0 + s) * std::exp(-s); }
/// dφ/ds for Matérn-3/2: −s e^{−s} (multiply by ds/dr = √3/ℓ for dφ/dr).
inline double matern32_ds(double s) { return -s * std::exp(-s); }

// ---- in the scaled distance r ----

inline double matern12(double r) { return std::exp(-r); }
inline double matern12_derivative(double r) { return -std::exp(-r); }

inline double matern32(double r) { return matern32_of_s(kSqrt3 * r); }
inline double matern32_derivative(double r) { return -3.0 * r * std::exp(-kSqrt3 * r); }
/// φ′(r)/r, finite at r = 0 (−3).
inline double matern32_derivative_over_r(double r) { return -3.0 * std::exp(-kSqrt3 * r); }

inline double matern52(double r) {
  const double s = kSqrt5 * r;
  return (1.0 + s + 5.0 / 3.0 * r * r) * std::exp(-s);
}
inline double matern52_derivative(double r) {
  const double s = kSqrt5 * r;
  return -5.0 / 3.0 * r * (1.0 + s) * std::exp(-s);
}
/// φ′(r)/r, finite at r = 0 (−5/3).
inline double matern52_derivative_over_r(double r) {
  const double s = kSqrt5 * r;
  return -5.0 / 3.0 * (1.0 + s) * std::exp(-s);
}

inline double rbf(double r) { return std::exp(-0.5 * r * r); }
inline double rbf_derivative(double r) { return -r * std::exp(-0.5 * r * r); }
/// φ′(r)/r, finite at r = 0 (−1).
inline double rbf_derivative_over_r(double r) { return -std::exp(-0.5 * r * r); }

}  // namespace kbo::matern
