// Portable build of the stationary kernels' per-pair loops (x86-64 baseline, strict IEEE semantics):
// the fallback when the CPU lacks AVX2/FMA, and the reference the AVX2 build is tested against.
#include <cmath>

#include "stationary_pass.hpp"

namespace kbo::stationary_detail {
#include "stationary_pass.inc"

void gram_pass_generic(const PassArgs& a) { gram_pass_impl(a); }
void contract_pass_generic(const PassArgs& a) { contract_pass_impl(a); }
void profile_pass_generic(int type, long count, double variance, double* v) {
  profile_pass_impl(type, count, variance, v);
}
void cross_pass_generic(int type, long rows, long cols, long d, const double* P, const double* Q, double variance,
                   double* out) {
  cross_pass_impl(type, rows, cols, d, P, Q, variance, out);
}
}  // namespace kbo::stationary_detail
