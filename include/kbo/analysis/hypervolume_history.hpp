#pragma once
// The hypervolume against trials of a study with several objectives, as `kbo report` and `kbo dashboard` draw
// it: after each complete feasible trial (in id order), the hypervolume of the front of the trials so far,
// measured from one fixed reference point (the one the study's `hypervolume` reports), so the curve never
// falls and ends at the study's hypervolume.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/study/trial.hpp"

namespace kbo {

/// [[trial id, hypervolume], ...]: the first complete feasible trial, every trial that changed the
/// hypervolume, and the last complete feasible trial (a step curve through these is the whole history).
/// `reference_point` is in the objectives' own terms (as `hypervolume.reference_point`), one per direction.
nlohmann::json hypervolume_history(const std::vector<Trial>& trials, const std::vector<std::string>& directions,
                                   const std::vector<double>& reference_point);

}  // namespace kbo
