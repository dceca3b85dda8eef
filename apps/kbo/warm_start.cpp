// Warm-start helpers (see warm_start.hpp).
#include "warm_start.hpp"

#include <cmath>

#include "kbo/core/error.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo::cli {

Study open_or_create_study(const StudyOptions& o, const std::string& program) {
  require_persistent_storage(o);
  auto storage = open_storage(o.storage);
  if (!o.has_space_source()) return Study::open(storage, o.study);
  StudyRecord wanted = make_study_record(o, resolve_space(o, nullptr));
  std::vector<std::string> changed;
  Study study = Study::create_or_open(storage, wanted, &changed);
  say_changed_settings(program, o.study, changed);
  return study;
}

Vec point_from_text(const Study& study, const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    throw InputError("--point: not valid JSON (expected {\"name\": value, ...} or [x0, x1, ...]; got '" + text + "')");
  return study.point_from_json(j);
}

std::vector<double> constraints_from_text(const std::string& text) {
  std::string t = text;
  if (t.find('[') == std::string::npos) t = "[" + t + "]";
  const nlohmann::json j = nlohmann::json::parse(t, nullptr, false);
  std::vector<double> out;
  if (j.is_array())
    for (const auto& c : j)
      if (c.is_number() && std::isfinite(c.get<double>())) out.push_back(c.get<double>());
  if (!j.is_array() || out.size() != j.size())
    throw InputError("--constraints must be finite numbers c1,c2,... (feasible iff every c <= 0; got '" + text + "')");
  return out;
}

nlohmann::json warm_start_line(const Study& study, const Trial& t) {
  nlohmann::json out = {{"trial", t.id},
                        {"x", std::vector<double>(t.x.data(), t.x.data() + t.x.size())},
                        {"state", t.state == TrialState::Pending ? std::string("queued") : to_string(t.state)},
                        {"study", study.name()}};
  if (const nlohmann::json named = study.space()->named(t.x); !named.is_null()) out["params"] = named;
  if (t.value) out["value"] = *t.value;
  if (t.sem) out["sem"] = *t.sem;
  if (!t.constraints.empty()) out["constraints"] = t.constraints;
  return out;
}

}  // namespace kbo::cli
