// JSON forms of spaces, as stored with every study (a space kind registry entry rebuilds each type).
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"

namespace kbo {

std::shared_ptr<const Space> space_from_json(const nlohmann::json& j) {
  const std::string type = j.is_object() && j.contains("type") && j["type"].is_string() ? j["type"].get<std::string>() : "";
  return space_kinds().get(type).from_json(j);
}

std::string describe_space_json(const nlohmann::json& j) {
  std::ostringstream out;
  out << (j.is_object() ? j.value("type", "?") : "?");
  if (j.is_object() && j.contains("params") && j["params"].is_array()) {
    try {
      return space_from_json(j)->describe();
    } catch (const InputError&) {
      return "params (unreadable: " + j["params"].dump() + ")";
    }
  }
  if (j.is_object() && j.contains("set_size")) out << " of " << j["set_size"] << " elements of dim " << j.value("element_dim", 0);
  if (j.is_object() && j.contains("lower") && j.contains("upper") && j["lower"].size() == j["upper"].size()) {
    out << " ";
    for (std::size_t i = 0; i < j["lower"].size(); ++i)
      out << (i ? " x " : "") << "[" << j["lower"][i].get<double>() << ", " << j["upper"][i].get<double>() << "]";
  }
  return out.str();
}

}  // namespace kbo
