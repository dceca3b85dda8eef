#pragma once
// Per-pair loops of the stationary kernels' fused likelihood path and of their elementwise profile,
// over raw column-major arrays. Compiled three times from stationary_pass.inc: portable (x86-64
// baseline) in stationary_pass_generic.cpp, for AVX2+FMA with libmvec's vector exp in
// stationary_pass_avx2.cpp and for AVX-512 in stationary_pass_avx512.cpp (see CMakeLists.txt).
// Declarations only: no inline code is shared between the objects, so no AVX instruction can reach
// generic code through the linker. stationary.cpp picks one at run time (__builtin_cpu_supports).

namespace kbo::stationary_detail {

/// Same order as kbo::StationaryType (checked by a static_assert in stationary.cpp).
enum class Profile : int { RBF = 0, Matern12 = 1, Matern32 = 2, Matern52 = 3 };

struct PassArgs {
  int type;              // Profile
  long n;                // points
  long d;                // columns of A
  const double* A;       // n x d, column-major (lda = n): the inputs divided by their lengthscales
  double variance;       // σ²
  double shift;          // added to the diagonal of K (the noise variance)
  double* K;             // gram: n x n (ld = n), lower triangle with diagonal written
  double* E;             // gram: n x n, lower triangle: σ² e^{−s} (Matérn; s = √(2ν) r) or σ² e^{−r²/2} (RBF)
  const double* S;       // contract: symmetric, lower triangle read
  const double* alpha;   // contract: n
  bool ard;              // contract: per-column lengthscale gradients (d of them) or one (isotropic)
  double* g;             // contract out: d (ARD) or 1 lengthscale entries, then the variance entry
  double* work;          // 2n doubles
};

/// K and E (see PassArgs) for the pairs i ≥ j.
void gram_pass_generic(const PassArgs& a);
void gram_pass_avx2(const PassArgs& a);
void gram_pass_avx512(const PassArgs& a);
/// g_p = Σ_ij W_ij ∂K_ij/∂θ_p, W = ααᵀ − S, θ = (log ℓ..., log σ²), from the lower triangles of S and E.
void contract_pass_generic(const PassArgs& a);
void contract_pass_avx2(const PassArgs& a);
void contract_pass_avx512(const PassArgs& a);
/// In place: v[i] ← σ² φ(r²) for count squared scaled distances v[i] (clamped at 0 first).
void profile_pass_generic(int type, long count, double variance, double* v);
void profile_pass_avx2(int type, long count, double variance, double* v);
void profile_pass_avx512(int type, long count, double variance, double* v);

/// out (rows x cols, column-major) = σ² φ(‖P_i − Q_j‖²) for P (rows x d) and Q (cols x d), column-major,
/// already divided by the lengthscales; one column of out at a time (exact differences).
void cross_pass_generic(int type, long rows, long cols, long d, const double* P, const double* Q, double variance,
                        double* out);
void cross_pass_avx2(int type, long rows, long cols, long d, const double* P, const double* Q, double variance,
                     double* out);
void cross_pass_avx512(int type, long rows, long cols, long d, const double* P, const double* Q, double variance,
                     double* out);

}  // namespace kbo::stationary_detail
