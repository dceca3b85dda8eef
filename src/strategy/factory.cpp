// Strategy/kernel factory (see include/kbo/strategy_factory.hpp).
#include "kbo/strategy/factory.hpp"

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/adaptive/agpucb.hpp"
#include "kbo/invariance/kernels.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/sets/set_space.hpp"

namespace kbo {

KernelPtr make_model_kernel(const StrategyConfig& config, const Space& space) {
  if (const auto* sets = dynamic_cast<const SetSpace*>(&space)) {
    if (config.invariance != "none")
      throw InputError("--invariance applies to box spaces; a set space is already permutation invariant");
    return make_set_kernel(config.kernel, sets->set_size(), sets->element_dim(), config.ard, config.set_kernel,
                           config.set_L, config.seed);
  }
  if (config.set_kernel != "full" || config.set_L != 0)
    throw InputError("--set-kernel/--set-L need --space set");
  // Lengthscale 1/3 on the unit cube: the mode of the default Gamma(3, 6) lengthscale prior.
  // Invariant kernels use an isotropic base: the exact orbit fast paths need it (an ARD base falls back
  // to |G|² enumeration per entry), and a group that mixes coordinates treats them alike anyway.
  const bool ard = config.invariance == "none" ? config.ard : false;
  KernelPtr base = make_stationary(config.kernel, space.dim(), ard, 1.0 / 3.0, 1.0);
  if (config.invariance == "none") return base;
  // The group acts on the unit-cube image of the box around its centre; this is the box's own symmetry
  // only when the box is symmetric about its centre (true for every box) with equal widths wherever the
  // group mixes coordinates — checked here for the groups that permute or rotate coordinates.
  const Box& box = space.bounds();
  Vec width = box.upper - box.lower;
  const bool mixes = config.invariance != "signflip" && config.invariance != "scaling";
  if (mixes && (width.array() - width[0]).abs().maxCoeff() > 1e-12 * std::abs(width[0]))
    throw InputError("--invariance " + config.invariance +
                     " permutes coordinates: every dimension needs the same width in --bounds");
  nlohmann::json options = config.module_options.value("invariance", nlohmann::json::object());
  return make_invariant_kernel(std::move(base), config.invariance, config.invariant_kernel,
                               Vec::Constant(space.dim(), 0.5), options);
}

std::unique_ptr<Strategy> make_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space) {
  if (!space) throw InputError("make_strategy: no search space");
  if (config.strategy == "gpucb")
    return std::make_unique<BOStrategy>(config, space, make_model_kernel(config, *space));
  if (config.strategy == "random") return std::make_unique<RandomStrategy>(config, std::move(space));
  if (config.strategy == "agpucb") return make_agpucb_strategy(config, std::move(space));
  throw InputError("unknown strategy '" + config.strategy + "' (allowed: gpucb, agpucb, random)");
}

}  // namespace kbo
