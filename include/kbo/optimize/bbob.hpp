#pragma once
// The 24 noiseless BBOB functions (Hansen, Finck, Ros & Auger, "Real-parameter black-box optimization
// benchmarking 2009: noiseless functions definitions", INRIA RR-6829), with their per-instance draws
// (optimum xopt, value fopt, rotations R and Q, random signs, Gallagher peaks) from the definitions'
// legacy generator, on [−5, 5]^D. docs/bench/bbob.md says what was checked against the definitions.
#include <string>

#include "kbo/optimize/problems.hpp"

namespace kbo {

/// BBOB function `function` (1–24), instance `instance` (≥ 1), dimension dim (≥ 2). Problem name
/// "bbob:F:I"; optimum = fopt; argmins = {xopt}. InputError for an out-of-range function, instance or dim.
Problem make_bbob(int function, int instance, int dim);

/// "bbob:F:I" → make_bbob(F, I, dim) (dim 0 → 2). InputError naming the form otherwise.
Problem make_bbob_from_name(const std::string& name, int dim);

/// The definitions' group of function F (1–24): "separable", "low/moderate conditioning",
/// "high conditioning, unimodal", "multimodal, adequate global structure", "multimodal, weak global structure".
const char* bbob_group(int function);

}  // namespace kbo
