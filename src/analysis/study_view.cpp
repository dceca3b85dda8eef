// The view JSON of a study (kbo/analysis/study_view.hpp).
#include "kbo/analysis/study_view.hpp"

#include "kbo/analysis/study_analysis.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo {

nlohmann::json study_view_base(const Study& study) {
  nlohmann::json view = study.to_json();
  view["config"] = study.record().config;
  view["space_text"] = describe_space_json(study.record().space);
  view["created_at"] = study.record().created_at;
  view["generated_at"] = unix_now();
  return view;
}

nlohmann::json study_view(const Study& study) {
  nlohmann::json view = study_view_base(study);
  view["analysis"] = analyze_study(study.record(), study.trials());
  return view;
}

}  // namespace kbo
