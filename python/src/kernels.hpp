#pragma once
// Kernel wrappers shared by kernels.cpp, gp.cpp and kfo.cpp.
#include "common.hpp"

namespace kbo::python {

/// The Python object for a C++ kernel: picks the wrapper class (Stationary, Set, Invariant, Functional,
/// or plain Kernel for compositions) from the kernel's dynamic type.
std::shared_ptr<PyKernel> wrap_kernel(std::shared_ptr<Kernel> kernel, int dim);

}  // namespace kbo::python
