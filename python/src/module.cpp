// The extension module kbo._kbo; the public API is re-exported (and documented) by kbo/__init__.py.
#include <cstdlib>

#include "common.hpp"
#include "kbo/modules.hpp"

PYBIND11_MODULE(_kbo, m) {
  m.doc() = "kbo: Bayesian optimisation with structure-aware Gaussian-process kernels (C++ core)";
  // As the CLI (apps/kbo/main.cpp): kbo parallelises fits with its own threads on small matrices, where
  // OpenBLAS threads only spin against them. Same setting => same numbers as `kbo optimize`.
  if (!std::getenv("OPENBLAS_NUM_THREADS")) kbo::set_blas_threads(1);
  kbo::register_builtin_modules();
  kbo::python::init_errors(m);
  kbo::python::init_kernels(m);
  kbo::python::init_gp(m);
  kbo::python::init_problems(m);
  kbo::python::init_studies(m);
  kbo::python::init_kfo(m);
}
