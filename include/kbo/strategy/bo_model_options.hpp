#pragma once
// BOModelOptions: the model-fit knobs of BOStrategy that are not flags of `kbo optimize`, read from
// StrategyConfig::module_options["bo"]. Declared once in a field list (JSON generated from it); the
// defaults are the tested default model, and `kbo bench bo --bo KEY=VALUE` sets them so each variant in
// docs/bench/bo.md is reproducible by a command.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/fields.hpp"
#include "kbo/core/registry.hpp"
#include "kbo/strategy/targets.hpp"

namespace kbo {

/// Prior mean of the GP: a constant at the worst value seen (De Ath, Fieldsend & Everson 2020, "What do
/// you mean?": best for d ≥ 5; far from the data the model expects nothing better than the worst, so UCB
/// explores less of the empty box boundary); the GLS constant (kernel + c term); the sample mean; or the
/// median of the values seen. docs/bench/bo.md has the study.
enum class PriorMean { Worst, Gls, Sample, Quantile };
/// What a failed trial's point does to the model (its value is unknown: not an observation):
/// - Worst: a fantasy at the worst value observed (no refit), so the acquisition turns away from regions
///   that fail; - Pending: the pending trials' fantasy (config.fantasy; the behaviour before failed points
///   were told apart); - Avoid: nothing, the point is only never suggested again.
/// In every case no suggestion lands within kFailedRadius of a failed point. docs/bench/bo.md measures them.
enum class FailedPoints { Worst, Pending, Avoid };
template <>
struct EnumNames<FailedPoints> {
  static constexpr std::array<std::pair<FailedPoints, const char*>, 3> table{
      {{FailedPoints::Worst, "worst"}, {FailedPoints::Pending, "pending"}, {FailedPoints::Avoid, "avoid"}}};
};

/// The GP the acquisition sees: exact on every observation, or (above BOModelOptions::subset_above
/// observations, or forced) an exact GP on a subset of data: the subset_local observations nearest the
/// incumbent plus subset_global spread over the rest (seeded uniform draw), so an ask costs the same at any n.
enum class ModelKind { Auto, Exact, Subset };
template <>
struct EnumNames<ModelKind> {
  static constexpr std::array<std::pair<ModelKind, const char*>, 3> table{
      {{ModelKind::Auto, "auto"}, {ModelKind::Exact, "exact"}, {ModelKind::Subset, "subset"}}};
};

/// The observation noise: inferred from the data (a near-exact model against one with a free noise level,
/// compared by their evidence at every full refit), assumed near-exact (variance at most 1 % of the
/// targets'), or free (any level up to the targets' variance).
enum class NoiseModel { Infer, Exact, Free };
template <>
struct EnumNames<NoiseModel> {
  static constexpr std::array<std::pair<NoiseModel, const char*>, 3> table{
      {{NoiseModel::Infer, "infer"}, {NoiseModel::Exact, "exact"}, {NoiseModel::Free, "free"}}};
};

template <>
struct EnumNames<PriorMean> {
  static constexpr std::array<std::pair<PriorMean, const char*>, 4> table{
      {{PriorMean::Worst, "worst"}, {PriorMean::Gls, "gls"}, {PriorMean::Sample, "sample"}, {PriorMean::Quantile, "quantile"}}};
};
// X(type, name, default): the keys of options.bo.
// Every other number of the default model is a fixed value of BOModelOptions below, and a key that was once
// an option is refused with what replaced it (removed_bo_option_keys(); its old default is accepted).
#define KBO_BO_MODEL_FIELDS(X)                                                                                  \
  /* The observation noise (NoiseModel; the levels are NoiseLevels in noise_inference.hpp). */              \
  X(NoiseModel, noise, NoiseModel::Infer)                                                                     \
  /* The GP's prior mean (PriorMean above): worst, gls, sample or quantile (the median). */                   \
  X(PriorMean, prior_mean, PriorMean::Worst)                                                                   \
  /* A second stationary kernel fitted beside config.kernel at every refit; the higher MAP objective */       \
  /* (LML + log prior) wins, so the smoothness is chosen by evidence. "none" disables it. Only when the */    \
  /* model kernel is a plain stationary kernel (not for invariant or set kernels). */                        \
  X(std::string, alt_kernel, "matern32")                                                                       \
  X(OutputWarp, output_warp, OutputWarp::HalfRank) /* docs/bench/bbob.md: the BBOB study behind this default */ \
  X(FailedPoints, failed_points, FailedPoints::Worst)                                                          \
  /* Incremental model: with fewer than full_refit_below observations every suggestion refits θ (warm */     \
  /* start + fit_restarts, both kernels); from there on θ is fully refitted only once ⌈√n⌉ new */             \
  /* observations arrived since the last full refit of n. In between, below 200 observations θ is */           \
  /* refitted from the warm start alone (one L-BFGS run of ≤ 20 evaluations per kernel); from there on the */  \
  /* fitted model keeps θ and is extended with the new observations in O(n²) (GP::append_observations). */   \
  /* docs/bench/scale.md has the measurements; a very large value refits fully at every step. */              \
  X(int, full_refit_below, 64)                                                                                 \
  /* θ is fitted on at most fit_subset observations (a seeded uniform random subset; 0 ⇒ all), then the */   \
  /* model conditions on all of them: a refit costs the same from n = fit_subset on (docs/bench/scale.md). */ \
  X(int, fit_subset, 500)                                                                                      \
  /* auto: exact GP up to 2,000 observations, the subset-of-data model above (ModelKind); exact / subset force */ \
  X(ModelKind, model, ModelKind::Auto)                                                                         \
  /* Exploration first: the first early_steps BO steps (0 ⇒ none) maximise UCB with early_beta instead of */   \
  /* --beta, the later ones with --beta (UCB with the constant schedule only). A set space with set_kernel */ \
  /* auto and UCB of at most 12 coordinates (m·d) takes 10 steps at β 16 unless told (at most a quarter */  \
  /* of a known budget's BO steps; the small-set-space preset): the early steps choose the configuration */    \
  /* the run polishes, and wider ones nearly halve k-means' stalls over 90 seeds (docs/bench/structure.md). */ \
  X(int, early_steps, 0)                                                                                       \
  X(double, early_beta, 16.0)                                                                                  \
  /* End-game: when the run's budget is known (`kbo optimize`, kbo.minimize, a study's stored budget), its */  \
  /* last endgame_fraction of the BO steps (0 ⇒ never) are local steps: a model of the incumbent's */           \
  /* neighbours (a full quadratic where its fit has R² ≥ 0.99, else a local GP) maximised in a trust region */ \
  /* (TuRBO, Eriksson et al. 2019: half width 0.1 of the box, halved after 2 failed local steps in a row, */ \
  /* doubled after 3 successes, one restart per run after 5 halvings without success). 0.34 is */           \
  /* docs/bench/bbob.md's fifth-round candidate `ta1f2`: Ackley-10 after 1,000 evaluations 1e-5 instead of */  \
  /* 2e-3 (scale.md). Invariant kernels without a local chart (continuous groups) default to 0 and set */      \
  /* kernels and invariant kernels with a chart to 0.34 with local_chart (the structured-kernel preset; */     \
  /* docs/bench/structure.md). */                                                                              \
  X(double, endgame_fraction, 0.34)                                                                            \
  /* The end-game's quadratic weighs each neighbour by (gap + g₀)^−local_fit_power, gap its value's distance */ \
  /* above the incumbent's, g₀ the smallest nonzero gap. Where values span orders of magnitude (an */           \
  /* ill-conditioned valley's walls next to its floor) uniform weights (0) fit the walls and leave the floor, */ \
  /* where the step is taken, a residual the size of the walls'; weights fit the floor. The planar preset */    \
  /* sets 2 (spaces of at most 2 coordinates); elsewhere 0, as 2 costs Ackley-6 and Hartmann-6, whose */        \
  /* quadratic has barely more neighbours than coefficients (docs/bench/bbob.md). */                            \
  X(double, local_fit_power, 0.0)                                                                              \
  /* Local steps of an invariant model (a kernel with Kernel::local_chart): every observation enters the */   \
  /* local fit at its orbit point nearest the incumbent, and the local GP has the invariant kernel's base */  \
  /* kernel (near a generic point the function is the plain one), so mirror images of nearby points count */ \
  /* as neighbours and the quadratic sees one chart, not several. Without it the neighbours are the raw */    \
  /* nearest rows, and the local GP the invariant kernel. On by default for invariant kernels that have a */  \
  /* chart (finite groups of isometries; the structured-kernel preset): signflip-offcentre seeds 0-9 6.7e-6, */ \
  /* the flat GP 1.2e-5, without the chart 3.6e-5 (docs/bench/structure.md). On a set space every model */     \
  /* steps in the set chart (each set's elements paired with the incumbent's; the plain kernel of the */      \
  /* sorted vector borrows it), on by default (docs/bench/structure.md). No effect on other kernels. */        \
  X(bool, local_chart, false)

struct BOModelOptions {
  KBO_BO_MODEL_FIELDS(KBO_FIELD_MEMBER)
  bool operator==(const BOModelOptions&) const = default;

  static BOModelOptions from_json(const nlohmann::json& j);  // InputError on unknown or removed keys, bad values
  nlohmann::json to_json() const;

  // Fixed values of the default model: not options (each is refused as a key, naming its value; its old
  // default is accepted so that stored studies resume). The benchmarks behind them are in docs/bench.
  // Priors are densities of θ, Gamma(shape, rate): BoTorch's SingleTaskGP priors.
  static constexpr double constant_mean_variance = 100.0;  // prior_mean gls: c of the kernel + c term, a wide prior
  static constexpr double mean_quantile = 0.5;             // prior_mean quantile: the median of the values seen
  static constexpr double lengthscale_prior_shape = 3.0;   // BoTorch's Gamma(3, 6) on unit-cube lengthscales
  static constexpr double lengthscale_prior_rate = 6.0;
  // One-hot coordinates of categorical parameters: under Gamma(3, 6) two choices (distance √2) were ~4
  // lengthscales apart, independent models the data could not join; mode √2 correlates them ≈ 0.5 and stays
  // learnable (docs/bench/spaces.md). They also start at the mode.
  static constexpr double categorical_lengthscale_prior_shape = 3.0;
  static constexpr double categorical_lengthscale_prior_rate = 1.4142135623730951;
  static constexpr double variance_prior_shape = 2.0;  // BoTorch's Gamma(2, 0.15) on the signal variance
  static constexpr double variance_prior_rate = 0.15;
  // Random restarts of the fit draw lengthscales log-uniformly in this range of the unit cube: from a
  // twentieth of the box to twice it, every scale a box's data can resolve.
  static constexpr double restart_lengthscale_min = 0.05;
  static constexpr double restart_lengthscale_max = 2.0;
  static constexpr double fixed_start_lengthscale = 0.0;  // no deterministic extra start: the random ones cover it
  static constexpr int fit_evaluations = 60;  // L-BFGS evaluations per fit run: warm starts converge in a few dozen
  static constexpr bool warm_start = true;    // each refit also starts from the previous θ: it is usually close
  // The incremental model (full_refit_below): a full refit once ⌈√n⌉ new observations arrived since the
  // last, warm-start-only refits below 200 observations, of at most 20 L-BFGS evaluations (docs/bench/scale.md).
  static constexpr int warm_refit_below = 200;
  static constexpr int warm_refit_evaluations = 20;
  // model auto: the subset-of-data model above 2,000 observations, on the 1,000 nearest the incumbent and
  // 500 spread over the rest: an ask then costs the same at any n (docs/bench/scale.md).
  static constexpr int subset_above = 2000;
  static constexpr int subset_local = 1000;
  static constexpr int subset_global = 500;
  // The end-game's local steps (endgame_fraction) fit the incumbent's max(5·(D + 1), (D + 1)(D + 2))
  // nearest neighbours (twice the quadratic's coefficients) with a full quadratic by least squares on the raw
  // values, whose Hessian follows a rotated ill-conditioned valley that an axis-aligned stationary GP resolves
  // only with many points. Where the quadratic explains less than R² 0.99 of the neighbours' variance (a kink,
  // a ridge, ruggedness) a GP with its own target scaling and no warp (logtop made Ackley-6's end-game polish
  // less) takes the step, maximising μ + σ: on the quadratic's neighbours, or on its own 5·(D + 1) nearest
  // where those would be every observation (docs/bench/bbob.md).
  static constexpr double local_min_r2 = 0.99;
  static constexpr OutputWarp local_warp = OutputWarp::None;
  static constexpr double local_beta = 1.0;
  // TuRBO's trust region in unit-cube units: half width 0.1, halved after 2 failed local steps in a row,
  // doubled after 3 successes, within [1e-6, 0.5]; after 5 halvings without success one restart per run at
  // the last successful radius (docs/bench/bbob.md's fifth round: a short end-game gets one fresh region,
  // a long one's converged region is not pulled out again and again).
  static constexpr double local_radius = 0.1;
  static constexpr int local_fail = 2;
  static constexpr int local_succ = 3;
  static constexpr double local_radius_min = 1e-6;
  static constexpr double local_radius_max = 0.5;
  static constexpr int local_restart = 5;
  static constexpr int local_restart_max = 1;
};

/// A key of options.bo that is no longer an option: its old default (accepted, so that stored studies and
/// configs carrying it keep working) and what replaced it (the one-line error for any other value).
struct RemovedBoOptionKey {
  const char* key;
  nlohmann::json old_default;
  const char* replacement;
  // Other values that still mean something, and the options they mean today.
  std::vector<std::pair<nlohmann::json, nlohmann::json>> means = {};
};
const std::vector<RemovedBoOptionKey>& removed_bo_option_keys();
/// `bo` without its removed keys (their meanings merged in where a key is not given); InputError for a
/// removed key at a value that means nothing today.
nlohmann::json without_removed_bo_keys(const nlohmann::json& bo);

/// visit_fields(object, visitor): visitor(name, field) for every field of the list, in order.
KBO_VISIT_FIELDS(BOModelOptions, KBO_BO_MODEL_FIELDS)

/// Keys of options.bo that a module owns because they act on its spaces or kernels (the sets module's
/// element moves, say): BOModelOptions::from_json leaves them to the module, which parses them into its own
/// typed options. `kbo options` lists them with their owner.
struct BoOptionKeysEntry {
  nlohmann::json defaults;  // an object: every key the module owns, at its default
  /// Checks the module's keys that were given (an object of some of `defaults`' keys); InputError naming one.
  std::function<void(const nlohmann::json& given)> validate;
  std::string help;
};
Registry<BoOptionKeysEntry>& bo_option_extensions();

/// `bo` without the keys modules own (each module's keys checked by its validate).
nlohmann::json bo_options_without_extensions(const nlohmann::json& bo);

}  // namespace kbo
