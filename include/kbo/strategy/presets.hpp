#pragma once
// Named presets of the BO model: defaults for options.bo that depend on what a study models (its kernel,
// its space), registered by the layer or module that owns the reason, and listed by `kbo options`. A
// preset sets only keys the user did not give; each applied preset is named in the trial info ("presets").
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/registry.hpp"
#include "kbo/core/space.hpp"
#include "kbo/model/kernel.hpp"
#include "kbo/strategy/config.hpp"

namespace kbo {

/// What a preset decides from.
struct PresetContext {
  const StrategyConfig& config;
  const Space& space;
  const Kernel& kernel;           // the model's (first) kernel
  bool structure_by_evidence;     // several candidate kernels compete at every refit
  bool ucb_with_constant_beta;    // the acquisition is UCB with a constant β
  const nlohmann::json& given;    // the options.bo keys the user gave
};

struct ModelPresetEntry {
  /// The options.bo defaults the preset sets for this study (an object; empty or null when it does not apply).
  std::function<nlohmann::json(const PresetContext&)> defaults;
  std::string help;  // when it applies and what it sets
};
Registry<ModelPresetEntry>& model_presets();

/// options.bo for a study: the user's keys, then every applicable preset's defaults for the keys still
/// missing (in registration order); `applied` receives the names of the presets that set something.
nlohmann::json apply_model_presets(const PresetContext& ctx, std::vector<std::string>* applied = nullptr);

/// The strategy layer's own preset (structured-kernel).
void register_builtin_presets();

}  // namespace kbo
