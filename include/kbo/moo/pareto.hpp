#pragma once
// Pareto dominance over objective vectors, all objectives to MAXIMISE (rows of Y are points). Studies
// negate minimised objectives before calling these, as they do for one objective.
#include <vector>

#include "kbo/core/linalg.hpp"

namespace kbo {

/// a dominates b: a >= b in every objective and a > b in at least one.
bool dominates(const Vec& a, const Vec& b);

/// Which rows of Y no other row dominates. Rows with equal values are all kept (neither dominates the other).
/// O(n log n + n · front): rows in decreasing order of their sum, each checked against the front so far
/// (a row can only be dominated by one of larger sum, and dominance is transitive).
std::vector<bool> non_dominated_mask(const Mat& Y);

/// The non-dominated rows of Y (in row order).
Mat pareto_front(const Mat& Y);

/// Non-dominated sorting (Deb et al. 2002): rank 0 for the front, rank 1 for the front of the rest, …
std::vector<int> non_dominated_ranks(const Mat& Y);

}  // namespace kbo
