// Strategy/kernel factory (see include/kbo/strategy_factory.hpp).
#include "kbo/strategy_factory.hpp"

#include "kbo/bo_strategy.hpp"
#include "kbo/error.hpp"
#include "kbo/kernels/stationary.hpp"

namespace kbo {

KernelPtr make_model_kernel(const StrategyConfig& config, const Space& space) {
  if (config.invariance != "none")
    throw InputError("--invariance '" + config.invariance +
                     "' is not available in this build's study factory (allowed: none)");
  // Lengthscale 1/3 on the unit cube: the mode of the default Gamma(3, 6) lengthscale prior.
  return make_stationary(config.kernel, space.dim(), config.ard, 1.0 / 3.0, 1.0);
}

std::unique_ptr<Strategy> make_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space) {
  if (!space) throw InputError("make_strategy: no search space");
  if (config.strategy == "gpucb")
    return std::make_unique<BOStrategy>(config, space, make_model_kernel(config, *space));
  if (config.strategy == "random") return std::make_unique<RandomStrategy>(config, std::move(space));
  throw InputError("unknown strategy '" + config.strategy + "' (allowed: gpucb, random)");
}

}  // namespace kbo
