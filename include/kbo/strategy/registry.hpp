#pragma once
// The registries the strategy layer builds a model and a strategy from: strategies, model kernels, space
// kinds, kernel structures and module option sections. The research modules fill them through their
// register_*() calls (kbo/modules.hpp); nothing here names a research module.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/registry.hpp"
#include "kbo/core/space.hpp"
#include "kbo/model/kernel.hpp"
#include "kbo/strategy/strategy.hpp"

namespace kbo {

struct StrategyEntry {
  std::function<std::unique_ptr<Strategy>(const StrategyConfig&, std::shared_ptr<const Space>)> make;
  /// StrategyConfig keys the strategy uses; any other key given explicitly is an error naming both.
  std::vector<std::string> honours;
  /// module_options sections it reads (e.g. "bo").
  std::vector<std::string> sections;
  /// Older studies may hold this section's keys at the top of module_options (A-GP-UCB's first form).
  std::string flat_section;
  std::string help;
};
Registry<StrategyEntry>& strategies();

/// Stationary kernels of the model by name (rbf, matern12, matern32, matern52).
struct KernelEntry {
  std::function<KernelPtr(int dim, bool ard, double lengthscale, double variance)> make;
  std::string help;
};
Registry<KernelEntry>& model_kernels();

/// A model kernel with the name a trial reports when the model chose it ("flat", "set-normalized", …).
struct NamedKernel {
  std::string name;
  KernelPtr kernel;
  /// Its local chart (Kernel::local_chart) holds for every candidate model of the space, so a model with no
  /// chart of its own (the flat kernel of a set space's canonical vector) takes its local steps in it.
  bool lends_chart = false;
};
using KernelCandidates = std::function<std::vector<NamedKernel>(const StrategyConfig&, const Space&)>;

/// What a space's "type" means: how a stored space is rebuilt, and how the model kernel is built on it.
struct SpaceKindEntry {
  std::function<std::shared_ptr<const Space>(const nlohmann::json&)> from_json;
  /// The GP kernel on unit-cube inputs; nullptr ⇒ the base kernel, wrapped by a structure if one is asked for.
  std::function<KernelPtr(const StrategyConfig&, const Space&)> model_kernel;
  /// StrategyConfig keys only meaningful on this kind of space (e.g. set_kernel for sets).
  std::vector<std::string> honours;
  std::string help;
  /// The kernels the model chooses between at every refit when config asks for it (set_kernel auto), or
  /// empty; nullptr ⇒ never more than model_kernel.
  KernelCandidates model_candidates = nullptr;
  /// The name trial info reports for model_kernel's kernel (e.g. "set-normalized"); nullptr ⇒ the kind's
  /// default naming (model_kernel_name).
  std::function<std::string(const StrategyConfig&, const Space&)> model_kernel_name = nullptr;
  /// The name trial info reports for the plain kernel on the flat vector when it competes with the kind's
  /// candidates.
  std::string flat_candidate_name = "flat";
};
Registry<SpaceKindEntry>& space_kinds();

/// A structure that wraps the base kernel when its config key is not "none" (the invariance module
/// registers "invariance": config.invariance names the group).
struct KernelStructureEntry {
  std::function<KernelPtr(KernelPtr base, const StrategyConfig&, const Space&)> wrap;
  /// Checks the structure's config (group spec…) for a space of dimension dim; InputError naming it.
  std::function<void(const StrategyConfig&, int dim)> validate;
  /// StrategyConfig keys used only with this structure (e.g. invariant_kernel).
  std::vector<std::string> honours;
  std::string help;
  /// The structured kernels the model chooses between (with the plain kernel) when config asks for it
  /// (invariant_kernel auto), or empty; nullptr ⇒ never.
  KernelCandidates candidates = nullptr;
};
Registry<KernelStructureEntry>& kernel_structures();

/// A section of StrategyConfig::module_options ("bo", "agpucb", "invariance", "rkhs_bound").
struct OptionSectionEntry {
  /// Parses the section's value as its owner does (unknown keys at any depth, types); InputError naming it.
  std::function<void(const nlohmann::json& value, const StrategyConfig&, int dim)> validate;
  /// Whether the configuration reads the section; nullptr ⇒ when the strategy lists it in `sections`.
  std::function<bool(const StrategyConfig&)> used;
  std::string help;
};
Registry<OptionSectionEntry>& option_sections();

/// gpucb, random, the stationary kernels, the "box" space kind and the "bo"/"rkhs_bound" sections.
void register_builtin_strategies();

/// module_options with a strategy's flat section wrapped ({"lambda": 1} → {"agpucb": {"lambda": 1}}).
nlohmann::json normalized_module_options(const StrategyConfig& c);

/// The GP kernel on UNIT-CUBE inputs for `space`: the space kind's kernel, or the base kernel
/// (config.kernel/ard) wrapped by the structure config asks for (config.invariance).
KernelPtr make_model_kernel(const StrategyConfig& config, const Space& space);

/// The kernels a GP-BO model chooses between at every refit by MAP objective: the space kind's or the
/// structure's candidates plus the plain stationary kernel (config.kernel/ard) on the flat vector, named
/// "flat", when config asks for auto; otherwise the one make_model_kernel builds (named by
/// model_kernel_name).
std::vector<NamedKernel> make_model_kernels(const StrategyConfig& config, const Space& space);
/// The name a trial reports for the model kernel of config without auto ("flat", "set-full", "max", …).
std::string model_kernel_name(const StrategyConfig& config, const Space& space);

/// The strategy config.strategy names, built for `space`.
std::unique_ptr<Strategy> make_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space);

}  // namespace kbo
