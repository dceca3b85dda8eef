#pragma once
// Which trials a view of a large study lists. A browser cannot draw 100,000 trials usefully (the parallel
// coordinates become one blot, the table tens of megabytes), and sending them costs the dashboard memory and
// time on every poll, so a view lists at most a cap of them, chosen so that what the charts say stays true:
//   1. every complete trial that improved the best value so far (in id order), so the convergence chart's
//      best-so-far line is exactly the study's, and the best trial;
//   2. the most recent pending trials (up to a quarter of the cap): what is running now;
//   3. the most recent trials (up to a quarter of the cap): where the study is now;
//   4. evenly spaced trials over the rest of the study up to the cap: its history at uniform resolution.
// The counts and the best of the view are always of every trial (Study::to_json(trials, listed)).
#include <cstddef>
#include <vector>

#include "kbo/study/trial.hpp"

namespace kbo {

/// Trials listed by default in a view (kbo report, kbo dashboard): `--max-trials` changes it.
inline constexpr std::size_t kDefaultMaxListedTrials = 2000;

/// Indices into `trials` (in id order, as storage returns them) of the trials a view lists, ascending: all of
/// them when there are at most `max_listed` (or max_listed is 0), else exactly max_listed chosen as above.
std::vector<std::size_t> trials_to_list(const std::vector<Trial>& trials, bool minimize, std::size_t max_listed);

}  // namespace kbo
