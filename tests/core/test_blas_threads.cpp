// kbo's BLAS thread policy (kbo/core/blas_threads.hpp): OpenBLAS runs on one thread whatever
// OPENBLAS_NUM_THREADS says. CMakeLists.txt also runs these tests with OPENBLAS_NUM_THREADS=2 set, which
// OpenBLAS reads when it is loaded: on a build without the policy they then see 2.
#include <gtest/gtest.h>

#include "kbo/core/blas_threads.hpp"
#include "kbo/core/linalg.hpp"

using namespace kbo;

TEST(BlasThreads, OneThreadFromTheStartWhateverTheEnvironment) {
#ifdef KBO_HAVE_LAPACK
  EXPECT_EQ(blas_threads(), 1);
  // A factorisation large enough for LAPACK leaves it so.
  const int n = 300;
  Mat A = Mat::Random(n, n);
  Mat K = A * A.transpose() + n * Mat::Identity(n, n);
  Cholesky chol(K);
  EXPECT_NEAR((chol.L() * chol.L().transpose() - K).norm() / K.norm(), 0.0, 1e-12);
  EXPECT_EQ(blas_threads(), 1);
#else
  GTEST_SKIP() << "built without OpenBLAS";
#endif
}

TEST(BlasThreads, SetReturnsThePreviousCount) {
#ifdef KBO_HAVE_LAPACK
  const int before = set_blas_threads(2);
  EXPECT_EQ(before, 1);
  EXPECT_EQ(blas_threads(), 2);
  EXPECT_EQ(set_blas_threads(before), 2);
  apply_blas_thread_policy();
  EXPECT_EQ(blas_threads(), 1);
#else
  GTEST_SKIP() << "built without OpenBLAS";
#endif
}
