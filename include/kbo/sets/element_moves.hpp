#pragma once
// Swap moves for set spaces (options.bo.element_moves; src/sets/element_moves.cpp).

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/linalg.hpp"

namespace kbo {

/// For each of the m elements (d consecutive coordinates each) of u: u with that element moved to the row of
/// `candidates` (d columns) where `acq` is highest, the other elements fixed. An m x (m·d) matrix; InputError
/// when the sizes do not fit.
Mat element_move_starts(const Vec& u, int m, int d, const Acquisition& acq, const Mat& candidates);

}  // namespace kbo
