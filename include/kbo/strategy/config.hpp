#pragma once
// StrategyConfig: every choice of a study's model and search, typed. The fields are declared ONCE, in
// KBO_STRATEGY_CONFIG_FIELDS; the struct, its JSON form in the stored study and the option table of the
// CLI/TOML/Python edges are generated from that list. Text becomes an enum (or a name checked against its
// registry) at the edge, in validate(); below it nothing compares strings to decide behaviour.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/core/fields.hpp"
#include "kbo/core/space.hpp"
#include "kbo/optimize/multistart.hpp"

namespace kbo {

/// How an invariant kernel combines the base kernel over a group's orbits (invariance module); Auto fits
/// the max kernel and the plain ARD kernel on the flat vector at every refit (each by MAP) and models with the
/// one of higher log marginal likelihood; the default (docs/bench/structure.md).
enum class InvariantKernelType { Max, Average, Auto };
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
struct EnumNames<InvariantKernelType> {
  static constexpr std::array<std::pair<InvariantKernelType, const char*>, 3> table{
      {{InvariantKernelType::Max, "max"}, {InvariantKernelType::Average, "average"}, {InvariantKernelType::Auto, "auto"}}};
};
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

// X(type, name, default): the stored JSON key is the name. Names of registered things (strategy, kernel,
// acquisition, invariance group) are strings checked against their registry by validate().
#define KBO_STRATEGY_CONFIG_FIELDS(X)                                                                          \
  X(std::string, strategy, "gpucb")              /* registry: gpucb | agpucb | random | …              */ \
  X(std::string, kernel, "matern52")             /* registry: rbf | matern12 | matern32 | matern52       */ \
  X(bool, ard, true)                             /* one lengthscale per coordinate                       */ \
  X(std::string, acquisition, "ucb")             /* registry: ucb | ei | pi | …                          */ \
  X(BetaSchedule, beta_schedule, BetaSchedule::Constant)                                                      \
  X(double, beta, 4.0)                           /* β of constant UCB: μ + √β σ                          */ \
  X(int, n_init, 5)                              /* initial design points                                */ \
  X(SamplingMethod, init_method, SamplingMethod::Sobol)                                                       \
  X(int, fit_restarts, 2)                        /* random restarts of the hyperparameter fit            */ \
  X(bool, map, true)                             /* MAP with the default priors (false ⇒ ML-II)          */ \
  X(std::optional<double>, fixed_noise, std::nullopt) /* fix the standardised noise variance             */ \
  X(AcqOptimizerOptions, acq_optimizer, {})                                                                   \
  X(std::string, invariance, "none")             /* group spec (invariance module), e.g. perm, blocks:4  */ \
  X(InvariantKernelType, invariant_kernel, InvariantKernelType::Auto) /* docs/bench/structure.md         */ \
  X(SetKernelType, set_kernel, SetKernelType::Auto)                                                              \
  X(int, set_L, 0)                               /* approx set kernel subset size (0 ⇒ m)                */ \
  X(FantasyMode, fantasy, FantasyMode::KrigingBeliever) /* what pending trials contribute, fantasy.hpp   */ \
  X(nlohmann::json, module_options, nlohmann::json::object()) /* sections: bo, agpucb, invariance, …     */ \
  X(std::uint64_t, seed, 0)

/// Everything a study's config/flags choose about the model and the search. Defaults are what
/// `kbo optimize` uses without flags.
struct StrategyConfig {
  KBO_STRATEGY_CONFIG_FIELDS(KBO_FIELD_MEMBER)
  bool operator==(const StrategyConfig&) const = default;
};

/// visit_fields(object, visitor): visitor(name, field) for every field of the list, in order.
KBO_VISIT_FIELDS(StrategyConfig, KBO_STRATEGY_CONFIG_FIELDS)

/// The stored JSON form (generated from the field list).
nlohmann::json to_json(const StrategyConfig& c);
/// Inverse of to_json: missing keys keep their defaults; a bad value or an unknown key is an InputError
/// naming it. Old stored forms (agpucb options at the top of module_options) are normalised.
StrategyConfig strategy_config_from_json(const nlohmann::json& j);

/// Checks every field against what the registries and modules allow: registered names (strategy, kernel,
/// acquisition, group), ranges, and every module_options section parsed by its owner (unknown keys at any
/// depth, wrong types), for a space of dimension `dim`. One-line InputError naming the key and the allowed
/// values. Needs register_builtin_modules() (or the registrations a program makes) to have run.
void validate(const StrategyConfig& c, int dim);

}  // namespace kbo
