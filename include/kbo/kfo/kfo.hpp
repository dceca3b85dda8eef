#pragma once
// Kernel Functional Optimisation (Kumar et al., NeurIPS 2021): umbrella header.
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/data.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/flip_kernel.hpp"
#include "kbo/kfo/hyperkernel.hpp"
#include "kbo/kfo/input_scales.hpp"
#include "kbo/kfo/kernel_io.hpp"
#include "kbo/kfo/linear_kernel.hpp"
#include "kbo/kfo/outer.hpp"
#include "kbo/kfo/psd.hpp"
#include "kbo/kfo/search.hpp"
#include "kbo/kfo/svm.hpp"
