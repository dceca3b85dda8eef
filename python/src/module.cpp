// The extension module kbo._kbo; the public API is re-exported (and documented) by kbo/__init__.py.
#include "kbo/core/blas_threads.hpp"
#include "common.hpp"
#include "kbo/modules.hpp"

PYBIND11_MODULE(_kbo, m) {
  m.doc() = "kbo: Bayesian optimisation with structure-aware Gaussian-process kernels (C++ core)";
  // As the CLI (apps/kbo/main.cpp): kbo's BLAS thread policy, whatever OPENBLAS_NUM_THREADS says
  // (kbo/core/blas_threads.hpp). Same setting => same numbers as `kbo optimize`.
  kbo::apply_blas_thread_policy();
  kbo::register_builtin_modules();
  kbo::python::init_errors(m);
  kbo::python::init_kernels(m);
  kbo::python::init_gp(m);
  kbo::python::init_problems(m);
  kbo::python::init_studies(m);
  kbo::python::init_kfo(m);
}
