#pragma once
// kbo's BLAS thread policy. kbo, not the environment, decides how many threads the OpenBLAS behind Eigen
// uses: one. kbo parallelises with its own threads (parallel_for: fit starts, acquisition starts, large
// prediction batches), and OpenBLAS's threads on top of those only multiply: OpenBLAS's workers spin while
// they wait, so on a loaded 2-core machine a 200-point fit took 37 s with OPENBLAS_NUM_THREADS unset
// against 0.33 s single-threaded, and a lone 1000 × 1000 Cholesky 0.79 s on two threads against 0.04 s on
// one (docs/bench/scale.md). Only from n ≈ 2000 did two BLAS threads win (by 1.3×), and only by that
// little on a shared machine, so the policy has no exception.
//
// The policy is applied when a program using kbo's linear algebra is loaded (a static initialiser in
// src/core/linalg.cpp, which every GP links), whatever OPENBLAS_NUM_THREADS says. The CLI and the Python
// module apply it again at start-up.

namespace kbo {

/// Sets OpenBLAS to one thread (kbo's policy). Idempotent and cheap.
void apply_blas_thread_policy();

/// Sets the number of threads of the BLAS/LAPACK behind Eigen (OpenBLAS) and returns the previous
/// number; a no-op returning 1 without OpenBLAS. For measurements and tests that compare thread counts;
/// kbo itself never raises it.
int set_blas_threads(int threads);

/// The number of threads OpenBLAS uses now (1 without OpenBLAS).
int blas_threads();

}  // namespace kbo
