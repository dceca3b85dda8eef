// kbo's BLAS thread policy (include/kbo/core/blas_threads.hpp).
#include "kbo/core/blas_threads.hpp"

#include <algorithm>

#ifdef KBO_HAVE_LAPACK
extern "C" {
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
}
#endif

namespace kbo {

int set_blas_threads(int threads) {
#ifdef KBO_HAVE_LAPACK
  const int previous = openblas_get_num_threads();
  openblas_set_num_threads(std::max(1, threads));
  return previous;
#else
  (void)threads;
  return 1;
#endif
}

int blas_threads() {
#ifdef KBO_HAVE_LAPACK
  return openblas_get_num_threads();
#else
  return 1;
#endif
}

void apply_blas_thread_policy() { set_blas_threads(1); }

}  // namespace kbo
