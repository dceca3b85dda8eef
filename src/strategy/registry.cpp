// The strategy layer's registries, its built-in entries, and the model/strategy factories over them.
#include "kbo/strategy/registry.hpp"

#include <algorithm>

#include "kbo/acquisition/registry.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/params.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/presets.hpp"

namespace kbo {

Registry<StrategyEntry>& strategies() {
  static Registry<StrategyEntry> registry("strategy");
  return registry;
}
Registry<KernelEntry>& model_kernels() {
  static Registry<KernelEntry> registry("kernel");
  return registry;
}
Registry<SpaceKindEntry>& space_kinds() {
  static Registry<SpaceKindEntry> registry("space type");
  return registry;
}
Registry<KernelStructureEntry>& kernel_structures() {
  static Registry<KernelStructureEntry> registry("kernel structure");
  return registry;
}
Registry<OptionSectionEntry>& option_sections() {
  static Registry<OptionSectionEntry> registry("options section");
  return registry;
}

nlohmann::json normalized_module_options(const StrategyConfig& c) {
  const nlohmann::json& mo = c.module_options;
  const StrategyEntry* strategy = strategies().find(c.strategy);
  if (!mo.is_object() || !strategy || strategy->flat_section.empty()) return mo;
  const bool flat = std::any_of(mo.items().begin(), mo.items().end(),
                                [](const auto& item) { return !option_sections().contains(item.key()); });
  return flat ? nlohmann::json{{strategy->flat_section, mo}} : mo;
}

KernelPtr make_model_kernel(const StrategyConfig& config, const Space& space) {
  const SpaceKindEntry& kind = space_kinds().get(space.kind());
  if (kind.model_kernel) {
    if (config.invariance != "none")
      throw InputError("invariance applies to box spaces; a " + space.kind() + " space has its own kernel");
    return kind.model_kernel(config, space);
  }
  if (config.set_kernel != StrategyConfig{}.set_kernel || config.set_L != 0)
    throw InputError("set_kernel/set_L need a set space (--space set)");
  // Lengthscale 1/3 on the unit cube: the mode of the default Gamma(3, 6) lengthscale prior.
  // Structured (invariant) kernels build their own base (isotropic, or ARD tied across the coordinates the
  // group mixes: the invariance module's registration).
  KernelPtr base = model_kernels().get(config.kernel).make(space.dim(), config.ard, 1.0 / 3.0, 1.0);
  if (config.invariance == "none") return base;
  return kernel_structures().get("invariance").wrap(std::move(base), config, space);
}

std::string model_kernel_name(const StrategyConfig& config, const Space& space) {
  const SpaceKindEntry& kind = space_kinds().get(space.kind());
  if (kind.model_kernel_name) return kind.model_kernel_name(config, space);
  if (config.invariance != "none") return enum_name(config.invariant_kernel);
  return "flat";
}

std::vector<NamedKernel> make_model_kernels(const StrategyConfig& config, const Space& space) {
  const SpaceKindEntry& kind = space_kinds().get(space.kind());
  std::vector<NamedKernel> out;
  if (kind.model_candidates) {
    out = kind.model_candidates(config, space);
  } else if (!kind.model_kernel && config.invariance != "none") {
    const KernelStructureEntry& structure = kernel_structures().get("invariance");
    if (structure.candidates) out = structure.candidates(config, space);
  }
  if (out.empty()) {
    out.push_back({model_kernel_name(config, space), make_model_kernel(config, space)});
    return out;
  }
  // Structure chosen by evidence: the plain kernel on the flat vector competes with the structured ones
  // (for a set space the vector of the canonical ordering, named by the space kind).
  out.push_back({kind.flat_candidate_name,
                 model_kernels().get(config.kernel).make(space.dim(), config.ard, 1.0 / 3.0, 1.0)});
  return out;
}

std::unique_ptr<Strategy> make_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space) {
  if (!space) throw InputError("make_strategy: no search space");
  return strategies().get(config.strategy).make(config, std::move(space));
}

void register_builtin_strategies() {
  register_builtin_presets();
  for (StationaryType type : {StationaryType::RBF, StationaryType::Matern12, StationaryType::Matern32,
                              StationaryType::Matern52}) {
    model_kernels().add(to_string(type), {[type](int dim, bool ard, double lengthscale, double variance) -> KernelPtr {
                                           return std::make_unique<StationaryKernel>(type, dim, ard, lengthscale, variance);
                                         },
                                         "stationary kernel"});
  }
  for (const auto& [type, alias] : EnumNames<StationaryType>::aliases) model_kernels().add_alias(alias, to_string(type));

  space_kinds().add("box", {[](const nlohmann::json& j) -> std::shared_ptr<const Space> {
                              return std::make_shared<BoxSpace>(box_from_json(j));
                            },
                            nullptr, {}, "a box [lo, hi] per coordinate"});
  // Named, typed parameters (kbo/core/params.hpp): the base kernel on the encoded unit cube (log warp and
  // one-hot built into the encoding; every point the GP sees is canonical).
  space_kinds().add("params", {params_space_from_json, nullptr, {}, "named float/int/categorical/fixed parameters"});

  strategies().add("gpucb",
                   {[](const StrategyConfig& c, std::shared_ptr<const Space> space) -> std::unique_ptr<Strategy> {
                      std::vector<NamedKernel> kernels = make_model_kernels(c, *space);
                      return std::make_unique<BOStrategy>(c, std::move(space), std::move(kernels));
                    },
                    {"kernel", "ard", "acquisition", "beta_schedule", "beta", "n_init", "init_method", "fit_restarts",
                     "map", "fixed_noise", "acq_optimizer", "invariance", "invariant_kernel", "set_kernel", "set_L",
                     "fantasy", "module_options", "seed"},
                    {"bo"},
                    "",
                    "GP-BO: fitted GP, acquisition maximised over the space (the default)"});
  strategies().add("random",
                   {[](const StrategyConfig& c, std::shared_ptr<const Space> space) -> std::unique_ptr<Strategy> {
                      return std::make_unique<RandomStrategy>(c, std::move(space));
                    },
                    {"n_init", "seed"}, {}, "", "uniform random search"});

  option_sections().add("bo", {[](const nlohmann::json& v, const StrategyConfig&, int) { BOModelOptions::from_json(v); },
                               nullptr, "BO model options (kbo::BOModelOptions)"});
  option_sections().add(
      "rkhs_bound",
      {[](const nlohmann::json& v, const StrategyConfig&, int) {
         if (!v.is_number() || !(v.get<double>() >= 0.0) || !std::isfinite(v.get<double>()))
           throw InputError("options.rkhs_bound must be a finite number >= 0 (got " + v.dump() + ")");
       },
       [](const StrategyConfig& c) {
         const StrategyEntry* s = strategies().find(c.strategy);
         const AcquisitionEntry* a = acquisitions().find(c.acquisition);
         auto lists = [](const std::vector<std::string>& keys, const char* key) {
           return std::find(keys.begin(), keys.end(), key) != keys.end();
         };
         return s && a && lists(s->honours, "beta_schedule") && lists(a->honours, "beta_schedule") &&
                c.beta_schedule == BetaSchedule::Chowdhury;
       },
       "B of the Chowdhury beta schedule (default 1)"});
}

}  // namespace kbo
