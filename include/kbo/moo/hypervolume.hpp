#pragma once
// Hypervolume indicator (all objectives to MAXIMISE): the Lebesgue measure of the region that some row of
// Y dominates and that dominates the reference point r, i.e. of ∪_i [r, y_i]. Rows not strictly better than
// r in every objective add nothing.
#include "kbo/core/linalg.hpp"

namespace kbo {

/// Exact: a sweep for 2 objectives (O(n log n)); slicing along the last objective for more (each slice a
/// hypervolume one objective lower), O(n^(m-1) log n). 1 objective: max(y) − r.
double hypervolume(const Mat& Y, const Vec& ref);

/// The reference point BoTorch infers (botorch.utils.multi_objective.hypervolume.infer_reference_point,
/// scale 0.1) from a set of points (rows, maximised: a Pareto front, or all observations): nadir − 0.1·(ideal − nadir) per objective; where the
/// range is 0 (a single point), 0.1·|nadir| instead (1e-1 when that is 0 too), so r is strictly worse.
Vec infer_reference_point(const Mat& front);

}  // namespace kbo
