#pragma once
// The invariance module's choice of invariant kernel (StrategyConfig::invariant_kernel).
#include <array>
#include <utility>

#include "kbo/core/enum_names.hpp"

namespace kbo {

/// How an invariant kernel combines the base kernel over a group's orbits (invariance module); Auto fits
/// the max kernel and the plain ARD kernel on the flat vector at every refit (each by MAP) and models with the
/// one of higher log marginal likelihood; the default (docs/bench/structure.md).
enum class InvariantKernelType { Max, Average, Auto };
template <>
struct EnumNames<InvariantKernelType> {
  static constexpr std::array<std::pair<InvariantKernelType, const char*>, 3> table{
      {{InvariantKernelType::Max, "max"}, {InvariantKernelType::Average, "average"}, {InvariantKernelType::Auto, "auto"}}};
};
}  // namespace kbo
