#pragma once
// Swap moves for set spaces (options.bo.element_moves, pair_moves, recombination_sets; src/sets/element_moves.cpp).

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/linalg.hpp"

namespace kbo {

/// For each of the m elements (d consecutive coordinates each) of u: u with that element moved to the row of
/// `candidates` (d columns) where `acq` is highest, the other elements fixed. An m x (m·d) matrix; InputError
/// when the sizes do not fit.
Mat element_move_starts(const Vec& u, int m, int d, const Acquisition& acq, const Mat& candidates);

/// Greedy pair moves (options.bo.pair_moves): for each ordered pair (i, j), i != j, u with element i
/// moved to its best row of `candidates` (as element_move_starts), then element j moved to its best row given
/// that, the others fixed. An m(m-1) x (m·d) matrix, row i·(m-1) + (j < i ? j : j - 1); InputError when the
/// sizes do not fit.
Mat element_pair_move_starts(const Vec& u, int m, int d, const Acquisition& acq, const Mat& candidates);

/// Recombination (options.bo.recombination_sets): u with one or two of its elements replaced by elements
/// of the `donors` (rows of m·d coordinates: other observed sets), every such combination scored by `acq`;
/// the `keep` best, highest first (fewer when there are fewer combinations). InputError when the sizes do
/// not fit.
Mat recombination_starts(const Vec& u, const Mat& donors, int m, int d, const Acquisition& acq, int keep);

}  // namespace kbo
