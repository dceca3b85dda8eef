#pragma once
// Exact decomposition of the region a Pareto front does NOT dominate (above the reference point, all
// objectives maximised) into disjoint axis-aligned boxes, as expected hypervolume improvement needs it
// (Yang et al. 2019; BoTorch's NondominatedPartitioning): a new point y improves the hypervolume by
//   HVI(y) = Σ_boxes Π_j max(0, min(u_j, y_j) − l_j).
// Built on the grid of the front's coordinates: each column of grid cells along the last objective is
// non-dominated from the highest last-objective value of the points that dominate the column's upper
// corner in the other objectives, upwards; adjacent columns with the same floor are merged. That gives
// front+1 boxes for 2 objectives and O(front²) for 3. Upper bounds may be +inf.
#include "kbo/core/linalg.hpp"

namespace kbo {

struct BoxDecomposition {
  Mat lower;  // boxes x objectives
  Mat upper;  // may hold +inf
  int size() const { return static_cast<int>(lower.rows()); }
};

/// The non-dominated region {y >= ref : no row of Y dominates y} as disjoint boxes. Rows of Y need not be a
/// front (dominated rows change nothing); rows not strictly above ref are ignored. Any number of objectives
/// >= 1, but the box count grows as front^(m−1): meant for 2 and 3.
BoxDecomposition non_dominated_boxes(const Mat& Y, const Vec& ref);

/// The hypervolume improvement of y over the rows the boxes were built from: Σ Π_j max(0, min(u_j, y_j) − l_j).
double hypervolume_improvement(const BoxDecomposition& boxes, const Vec& y);

}  // namespace kbo
