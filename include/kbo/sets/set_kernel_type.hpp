#pragma once
// The sets module's choice of set kernel (StrategyConfig::set_kernel).
#include <array>
#include <utility>

#include "kbo/core/enum_names.hpp"

namespace kbo {

/// The kernel of a set space (sets module): the mean-pair set kernel of Kim et al., exact or approximate;
/// the same normalised to unit correlation k(X,Y)/√(k(X,X)k(Y,Y)) (times the signal variance), exact or
/// approximate; the max over element permutations (block-permutation max kernel of the invariance
/// module); Average: the normalised mean of k(X, πY) over the m! element orderings π (the invariance
/// module's normalised orbit-averaged kernel over block permutations: PSD, invariant, constant prior
/// variance; built as Normalized above kAverageSetKernelMaxSize elements); Sorted: the plain ARD kernel on
/// the flat vector of the sorted elements; Sliced: the plain kernel on the sorted projections of the
/// elements onto fixed directions (kbo/sets/sliced_set_kernel.hpp); Aligned: the plain kernel on the flat
/// vector of each set's elements paired with the incumbent's (kbo/sets/aligned_set_kernel.hpp); or Auto, the default
/// (docs/bench/structure.md): Average, Sliced and Sorted fitted at every refit, the highest log
/// marginal likelihood models.
enum class SetKernelType { Full, Approx, Normalized, NormalizedApprox, Max, Average, Sorted, Sliced, Aligned, Auto };

template <>
struct EnumNames<SetKernelType> {
  static constexpr std::array<std::pair<SetKernelType, const char*>, 10> table{
      {{SetKernelType::Full, "full"},
       {SetKernelType::Approx, "approx"},
       {SetKernelType::Normalized, "normalized"},
       {SetKernelType::NormalizedApprox, "normalized-approx"},
       {SetKernelType::Max, "max"},
       {SetKernelType::Average, "average"},
       {SetKernelType::Sorted, "sorted"},
       {SetKernelType::Sliced, "sliced"},
       {SetKernelType::Aligned, "aligned"},
       {SetKernelType::Auto, "auto"}}};
  static constexpr std::array<std::pair<SetKernelType, const char*>, 2> aliases{
      {{SetKernelType::Normalized, "normalised"}, {SetKernelType::NormalizedApprox, "normalised-approx"}}};
};

}  // namespace kbo
