#pragma once
// Acquisition search over mixed spaces (integers, categories and continuous coordinates; a Space whose
// discrete_coordinates() marks some coordinates, e.g. kbo/core/params.hpp).
//
// maximize_acquisition (multistart.hpp) sends such spaces here. The acquisition is read through the
// space's rounding T (canonicalize): a(x) := a(T(x)), with zero gradient along discrete coordinates — the
// transformed-kernel view of Garrido-Merchán & Hernández-Lobato 2020, so the search never credits a value
// that cannot occur. Phase 1 is the usual multi-start over the relaxed box (candidates canonical, L-BFGS
// moves only the continuous coordinates of each start); phase 2 is a local search over discrete
// neighbours (each integer ±1, each other category) from the best point, re-polishing the continuous
// coordinates after every accepted move, until no neighbour improves.
#include "kbo/optimize/optimizer.hpp"

namespace kbo {

/// f: the (already rounded) objective; score: batch scores of canonical rows. Starts from `start`
/// (canonical, value start_value); returns a canonical point at least as good.
OptResult discrete_local_search(const Objective& f, const std::function<Vec(const Mat&)>& score, const Space& space,
                                OptResult start, int max_evaluations);

}  // namespace kbo
