// AVX2+FMA build of the stationary kernels' per-pair loops (see CMakeLists.txt, kbo_avx2_sources):
// GCC vectorises them 4-wide and calls glibc's libmvec for exp. Only called when the CPU has AVX2 and
// FMA (stationary.cpp checks). -ffast-math is safe here: every input is finite (the GP checks its data,
// hyperparameters are exponentials of finite log values), sqrt's arguments are ≥ 0, and the sums may be
// reassociated (tests compare with the portable build to 1e-10).
#include <cmath>

#include "stationary_pass.hpp"

namespace kbo::stationary_detail {
#include "stationary_pass.inc"

void gram_pass_avx2(const PassArgs& a) { gram_pass_impl(a); }
void contract_pass_avx2(const PassArgs& a) { contract_pass_impl(a); }
void profile_pass_avx2(int type, long count, double variance, double* v) {
  profile_pass_impl(type, count, variance, v);
}
void cross_pass_avx2(int type, long rows, long cols, long d, const double* P, const double* Q, double variance,
                   double* out) {
  cross_pass_impl(type, rows, cols, d, P, Q, variance, out);
}
}  // namespace kbo::stationary_detail
