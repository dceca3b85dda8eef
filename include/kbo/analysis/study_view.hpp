#pragma once
// The view JSON of one study: what `kbo report` inlines, `kbo dashboard` serves at /api/view and kbo.plot
// draws. It is `kbo show --json`'s object (Study::to_json: counts, best, every trial, or of a large study a
// sample: kbo/analysis/view_trials.hpp) plus
//   n_shown       how many trials "trials" lists (n_trials unless the view was capped)
//   config        the stored strategy configuration (to_json(StrategyConfig))
//   space_text    the space in one line (describe_space_json)
//   created_at    when the study was created (Unix time)
//   generated_at  when this view was made (Unix time)
//   analysis      analyze_study of its trials (kbo/analysis/study_analysis.hpp)
//   hypervolume_history  several objectives (beside to_json's pareto_front and hypervolume): [[trial id,
//                 hypervolume], ...] of all complete feasible trials (kbo/analysis/hypervolume_history.hpp)
#include <nlohmann/json.hpp>

#include "kbo/study/study.hpp"

namespace kbo {

/// The view without the analysis (cheap: what changes with every trial).
nlohmann::json study_view_base(const Study& study);
/// The same of `trials` (the study's, loaded once by the caller), listing at most `max_listed` of them
/// (trials_to_list; 0: all).
nlohmann::json study_view_base(const Study& study, const std::vector<Trial>& trials, std::size_t max_listed);

/// study_view_base + "analysis" (fits a GP: up to about a second for large studies).
nlohmann::json study_view(const Study& study);
/// study_view of a study whose view lists at most `max_listed` trials (0: all); the analysis uses all of them.
nlohmann::json study_view(const Study& study, std::size_t max_listed);

}  // namespace kbo
