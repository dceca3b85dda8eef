#pragma once
// Builds the strategy and the model kernel a StrategyConfig asks for. This is the one place where the
// modules (invariant kernels, set kernels, A-GP-UCB) are plugged into studies and the CLI.
#include <memory>

#include "kbo/strategy/strategy.hpp"

namespace kbo {

/// The GP kernel on UNIT-CUBE inputs for `space` (dimension space.dim()): config.kernel/ard as a
/// stationary kernel. Structured kernels (invariance, sets) are added here; until then a config asking
/// for them is an InputError naming what is supported.
KernelPtr make_model_kernel(const StrategyConfig& config, const Space& space);

/// config.strategy: "gpucb" (BOStrategy with make_model_kernel) | "random" (RandomStrategy).
/// InputError naming the allowed strategies otherwise.
std::unique_ptr<Strategy> make_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space);

}  // namespace kbo
