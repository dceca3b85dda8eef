// The view JSON of a study (kbo/analysis/study_view.hpp).
#include "kbo/analysis/study_view.hpp"

#include "kbo/analysis/study_analysis.hpp"
#include "kbo/analysis/view_trials.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

nlohmann::json study_view_base(const Study& study) { return study_view_base(study, study.trials(), 0); }

nlohmann::json study_view_base(const Study& study, const std::vector<Trial>& trials, std::size_t max_listed) {
  const std::vector<std::size_t> listed = trials_to_list(trials, study.record().minimize, max_listed);
  nlohmann::json view = study.to_json(trials, listed);
  view["n_shown"] = listed.size();
  view["config"] = study.record().config;
  view["space_text"] = describe_space_json(study.record().space);
  view["created_at"] = study.record().created_at;
  view["generated_at"] = unix_now();
  return view;
}

nlohmann::json study_view(const Study& study) { return study_view(study, 0); }

nlohmann::json study_view(const Study& study, std::size_t max_listed) {
  const std::vector<Trial> trials = study.trials();
  nlohmann::json view = study_view_base(study, trials, max_listed);
  view["analysis"] = analyze_study(study.record(), trials);
  // The recommendation under the study's stored model state (a strategy of its own: no refit).
  std::unique_ptr<Strategy> model;
  try {
    if (study.n_objectives() == 1) model = make_strategy(study.strategy_config(), study.space());
  } catch (const std::exception&) {
    model.reset();  // a configuration this build cannot model: the best observed trial, said so
  }
  study.add_recommendation(view, trials, model.get());
  return view;
}

}  // namespace kbo
