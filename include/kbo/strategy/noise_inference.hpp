#pragma once
// What the data say about observation noise, for BOModelOptions::noise "infer" (bo_refit.cpp has the
// evidence comparison). A rugged deterministic objective and a noisy one can look alike to the evidence;
// a replicate tells them apart at once: a deterministic objective returns the same value at the same point.
#include "kbo/core/linalg.hpp"

namespace kbo {

enum class ReplicateVerdict {
  None,   // no point was evaluated twice
  Exact,  // every replicated point returned the same value (to 1e-9 of the values' spread)
  Noisy,  // some replicated point returned different values
};

/// The verdict of the rows of X that occur more than once (bit-identical rows) with their values y.
ReplicateVerdict replicate_verdict(const Mat& X, const Vec& y);

/// True when `x` is bit-identical to a row of M.
bool contains_row(const Mat& M, const Vec& x);

}  // namespace kbo
