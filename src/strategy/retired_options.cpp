// Retired options.bo keys (include/kbo/strategy/retired_options.hpp).
#include "kbo/strategy/retired_options.hpp"

#include <cmath>

#include "kbo/core/error.hpp"

namespace kbo {

namespace {
const char* const kNoiseLevels =
    "the noise levels are fixed (kbo/strategy/noise_inference.hpp) and the noise model is options.bo.noise "
    "(\"infer\", the default, \"exact\" or \"free\")";
}  // namespace

const std::vector<RetiredOption>& retired_bo_options() {
  static const std::vector<RetiredOption> table = {
      {"noise_cap", {{0.01, {{"noise", "exact"}}}, {1.0, {{"noise", "free"}}}},
       "options.bo.noise: \"exact\" (the old cap 0.01), \"free\" (the old cap 1) or \"infer\" (the default)"},
      {"noise_floor", {{1e-6, {}}}, kNoiseLevels},
      {"late_noise_floor", {{1e-8, {}}}, kNoiseLevels},
      {"late_noise_floor_from", {{200.0, {}}}, kNoiseLevels},
      {"restart_noise_max", {{0.5, {}}}, kNoiseLevels},
      {"fixed_start_noise", {{1e-4, {}}}, kNoiseLevels},
      {"noise_prior_shape", {{1.1, {}}}, kNoiseLevels},
      {"noise_prior_rate", {{0.05, {}}}, kNoiseLevels},
      {"local_noise_cap",
       {{0.0, {}}, {0.01, {}}},
       "nothing: the end-game's local GP is near-exact unless the objective is known to be noisy (options.bo.noise)"},
  };
  return table;
}

nlohmann::json without_retired_bo_options(const nlohmann::json& bo) {
  if (!bo.is_object()) return bo;
  nlohmann::json out = bo, implied = nlohmann::json::object();
  for (const RetiredOption& r : retired_bo_options()) {
    if (!out.contains(r.key)) continue;
    const nlohmann::json& value = out[r.key];
    const nlohmann::json* meaning = nullptr;
    if (value.is_number())
      for (const auto& [v, m] : r.accepted)
        if (std::abs(value.get<double>() - v) <= 1e-12 * std::max(1.0, std::abs(v))) meaning = &m;
    if (!meaning) throw InputError("options.bo." + r.key + " was removed; use " + r.replacement);
    for (const auto& [key, v] : meaning->items()) implied[key] = v;
    out.erase(r.key);
  }
  for (const auto& [key, v] : implied.items())
    if (!out.contains(key)) out[key] = v;
  return out;
}

}  // namespace kbo
