// AVX-512 build of the stationary kernels' per-pair loops (see CMakeLists.txt, the *_avx512.cpp rule):
// GCC vectorises them 8-wide and calls glibc's libmvec (AVX-512 variants) for exp; 10-20% faster than
// the AVX2 build per pair on this machine (measured on the 10,000 x 50 cross-covariance). Only called
// when the CPU has AVX-512F/DQ/VL (stationary.cpp checks). -ffast-math is safe for the reasons given in
// stationary_pass_avx2.cpp (tests compare all three builds).
#include <cmath>

#include "stationary_pass.hpp"

namespace kbo::stationary_detail {
#include "stationary_pass.inc"

void gram_pass_avx512(const PassArgs& a) { gram_pass_impl(a); }
void contract_pass_avx512(const PassArgs& a) { contract_pass_impl(a); }
void profile_pass_avx512(int type, long count, double variance, double* v) {
  profile_pass_impl(type, count, variance, v);
}
void cross_pass_avx512(int type, long rows, long cols, long d, const double* P, const double* Q, double variance,
                   double* out) {
  cross_pass_impl(type, rows, cols, d, P, Q, variance, out);
}
}  // namespace kbo::stationary_detail
