// Named presets of the BO model (include/kbo/strategy/presets.hpp) and the strategy layer's own one.
#include "kbo/strategy/presets.hpp"

#include "kbo/model/kernels/stationary.hpp"
#include "kbo/strategy/bo_model_options.hpp"

namespace kbo {

Registry<ModelPresetEntry>& model_presets() {
  static Registry<ModelPresetEntry> registry("model preset");
  return registry;
}

nlohmann::json apply_model_presets(const PresetContext& ctx, std::vector<std::string>* applied) {
  nlohmann::json bo = ctx.given.is_object() ? ctx.given : nlohmann::json::object();
  for (const std::string& name : model_presets().names()) {
    const nlohmann::json defaults = model_presets().get(name).defaults(ctx);
    if (!defaults.is_object()) continue;
    bool any = false;
    for (const auto& [key, value] : defaults.items())
      if (!bo.contains(key)) bo[key] = value, any = true;
    if (any && applied) applied->push_back(name);
  }
  return bo;
}

namespace {

// Structured kernels (set and invariant kernels: anything but a plain stationary kernel). The noise model
// and the end-game were chosen on plain kernels (docs/bench/scale.md); a structured kernel keeps the free
// noise level its benches measured. A kernel with a local chart (a group of isometries, or element
// orderings: Kernel::local_chart) plays the end-game in that chart, which polishes as precisely as the flat
// GP, at the share 0.34 at every dimension, with a near-exact local GP (local_chart); without a chart the
// end-game was mixed and is off (docs/bench/structure.md).
nlohmann::json structured_kernel_defaults(const PresetContext& ctx) {
  if (dynamic_cast<const StationaryKernel*>(&ctx.kernel)) return nullptr;
  Mat no_rows(0, ctx.space.dim());
  const bool chart = ctx.kernel.local_chart(Vec::Constant(ctx.space.dim(), 0.5), no_rows) != nullptr;
  return {{"noise", "free"}, {"endgame_fraction", chart ? 0.34 : 0.0}, {"local_chart", chart}};
}

// Spaces of at most 2 coordinates (planar): the end-game's quadratic has 6 coefficients and its 15 nearest
// neighbours are a small part of the data, so the end-game pays from earlier on (endgame_fraction 0.6 for
// plain kernels; structured kernels keep theirs) and the fit may weigh the floor over the walls (local_fit_power
// 2). On BBOB d = 2, instances 1-15, 24 functions: mean log10(f - fopt) 0.37 +- 0.12 (end-game 0.34) and
// 0.77 +- 0.12 (unweighted fit) worse without them (docs/bench/bbob.md); at d >= 3 the quadratic has about
// as many neighbours as twice its coefficients, and weighting cost Ackley-6 and Hartmann-6.
nlohmann::json planar_defaults(const PresetContext& ctx) {
  if (ctx.space.dim() > 2) return nullptr;
  nlohmann::json out = {{"local_fit_power", 2.0}};
  if (dynamic_cast<const StationaryKernel*>(&ctx.kernel)) out["endgame_fraction"] = 0.6;
  return out;
}

}  // namespace

void register_builtin_presets() {
  model_presets().add("structured-kernel",
                      {structured_kernel_defaults,
                       "set and invariant kernels: noise free; with a local chart endgame_fraction 0.34 and "
                       "local_chart true (a near-exact local GP in the chart), without one endgame_fraction 0"});
  model_presets().add("planar",
                      {planar_defaults,
                       "spaces of at most 2 coordinates: local_fit_power 2, and with a plain kernel endgame_fraction 0.6"});
}

}  // namespace kbo
