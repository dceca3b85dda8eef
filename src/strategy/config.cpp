// StrategyConfig: JSON generated from the field list, and validate() against the registries.
#include "kbo/strategy/config.hpp"

#include <cmath>

#include "kbo/acquisition/registry.hpp"
#include "kbo/core/error.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

nlohmann::json to_json(const StrategyConfig& c) { return encode_field(c); }

StrategyConfig strategy_config_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return StrategyConfig{};
  return decode_field<StrategyConfig>("config", j);
}

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

}  // namespace

void validate(const StrategyConfig& c, int dim) {
  strategies().get(c.strategy);
  model_kernels().get(c.kernel);
  acquisitions().get(c.acquisition);
  require(std::isfinite(c.beta) && c.beta >= 0.0, "beta must be a finite number >= 0");
  require(c.n_init >= 1, "init must be >= 1 (got " + std::to_string(c.n_init) + ")");
  require(c.fit_restarts >= 0 && c.fit_restarts <= 1000, "fit_restarts must be in [0, 1000]");
  require(!c.fixed_noise || (*c.fixed_noise > 0.0 && std::isfinite(*c.fixed_noise)), "fixed_noise must be > 0");
  require(c.set_L >= 0, "set_L must be >= 0 (0 = the set size)");
  require(c.acq_optimizer.raw_samples >= 1, "acq_optimizer.raw_samples must be >= 1");
  require(c.acq_optimizer.num_starts >= 0, "acq_optimizer.num_starts must be >= 0");
  require(c.acq_optimizer.max_evaluations >= 1, "acq_optimizer.max_evaluations must be >= 1");
  require(c.acq_optimizer.cmaes_sigma0 > 0.0, "acq_optimizer.cmaes_sigma0 must be > 0");
  if (c.invariance != "none") kernel_structures().get("invariance").validate(c, dim);
  const nlohmann::json sections = normalized_module_options(c);
  require(sections.is_object(), "options must be a JSON object of sections (" + option_sections().allowed() + ")");
  for (const auto& [key, value] : sections.items()) {
    const OptionSectionEntry* section = option_sections().find(key);
    if (!section)
      throw InputError("options: unknown section '" + key + "' (allowed: " + option_sections().allowed() + ")");
    try {
      section->validate(value, c, dim);
    } catch (const nlohmann::json::exception& e) {  // a section parser's own type check, as one line
      throw InputError("options." + key + ": " + e.what());
    }
  }
}

}  // namespace kbo
