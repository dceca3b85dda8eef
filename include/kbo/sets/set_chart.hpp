#pragma once
// The incumbent's chart of a set space, for the end-game's local steps (Kernel::local_chart).
//
// Why: a set is the same point under every ordering of its elements, so a local model on the flat vector
// needs one ordering per observed set that puts its elements next to the incumbent's. The flat GP's local
// steps polish the optimum of a set objective to the data's precision; a set kernel's local fit does not
// (docs/bench/structure.md). Pairing the elements by least total squared distance (an assignment problem)
// is the nearest orbit point of the element-permutation group, as the invariance module's blocks:m chart.
#include <memory>
#include <vector>

#include "kbo/core/linalg.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo {

/// The incumbent's pairing of one set: result[i] is the element of `row` assigned to x's element i by the
/// least total squared distance (a Hungarian assignment). x.size() and row.size() must be m·d.
std::vector<int> element_assignment(const Vec& x, const Vec& row, int m, int d);

/// Reorders the m elements of each row of X (d contiguous coordinates each) so that element i is the one
/// assigned to x's element i by the least total squared distance. X.cols() and x.size() must be m·d.
void align_elements(const Vec& x, Mat& X, int m, int d);

/// The chart's flat kernel: `base` (a kernel on one element's d coordinates) on all m·d coordinates, its
/// lengthscales repeated for every element, its variance kept: the local fit's warm start.
std::unique_ptr<StationaryKernel> tiled_element_kernel(const StationaryKernel& base, int m);

}  // namespace kbo
