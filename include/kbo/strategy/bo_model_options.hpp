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
/// mean_quantile quantile of the values seen. docs/bench/bo.md has the study.
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

/// The GP the acquisition sees: exact on every observation, or (above subset_above observations, or
/// forced) an exact GP on a subset of data: the subset_local observations nearest the incumbent plus
/// subset_global spread over the rest (seeded uniform draw), so an ask costs the same at any n.
enum class ModelKind { Auto, Exact, Subset };
template <>
struct EnumNames<ModelKind> {
  static constexpr std::array<std::pair<ModelKind, const char*>, 3> table{
      {{ModelKind::Auto, "auto"}, {ModelKind::Exact, "exact"}, {ModelKind::Subset, "subset"}}};
};

/// What a local step (BOModelOptions::local_every, endgame) fits to the incumbent's neighbours: a GP with
/// its own target scaling, or a full quadratic by least squares on the raw values, whose Hessian follows a
/// rotated ill-conditioned valley that an axis-aligned stationary GP resolves only with many points.
/// auto: the quadratic where it explains at least local_min_r2 of the neighbours' variance, the GP elsewhere.
enum class LocalModel { Gp, Quadratic, Auto };
template <>
struct EnumNames<LocalModel> {
  static constexpr std::array<std::pair<LocalModel, const char*>, 3> table{
      {{LocalModel::Gp, "gp"}, {LocalModel::Quadratic, "quadratic"}, {LocalModel::Auto, "auto"}}};
};
/// The neighbours of local_model auto's fallback GP: the quadratic's max(5·(D + 1), (D + 1)(D + 2)); its own
/// 5·(D + 1) nearest; or its own only where the quadratic's would be every observation (own_if_all: in 6
/// dimensions the quadratic takes 56, every point of a 55-evaluation run — no longer a local model —,
/// while a 1,000-evaluation run's GP is better on the quadratic's 132 than on 55; docs/bench/bbob.md).
// BOModelOptions::structure_averaging: off (the most probable candidate models alone), acquisition (the
// posterior-weighted mean of the candidates' acquisitions), predictive (UCB of the weighted mixture's mean and
// standard deviation, which counts the candidates' disagreement as uncertainty; other acquisitions: as acquisition).
enum class StructureAveraging { Off, Acquisition, Predictive };
template <>
struct EnumNames<StructureAveraging> {
  static constexpr std::array<std::pair<StructureAveraging, const char*>, 3> table{
      {{StructureAveraging::Off, "off"}, {StructureAveraging::Acquisition, "acquisition"}, {StructureAveraging::Predictive, "predictive"}}};
};

enum class LocalGpPoints { Quadratic, Own, OwnIfAll };
template <>
struct EnumNames<LocalGpPoints> {
  static constexpr std::array<std::pair<LocalGpPoints, const char*>, 3> table{
      {{LocalGpPoints::Quadratic, "quadratic"}, {LocalGpPoints::Own, "own"}, {LocalGpPoints::OwnIfAll, "own_if_all"}}};
};
/// The steps of the end-game (BOModelOptions::endgame_fraction): local steps, or UCB whose β decays
/// linearly to 0 at the last trial.
enum class Endgame { Local, Decay };
template <>
struct EnumNames<Endgame> {
  static constexpr std::array<std::pair<Endgame, const char*>, 2> table{{{Endgame::Local, "local"}, {Endgame::Decay, "decay"}}};
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
// X(type, name, default). Noise values are variances of the standardised targets; lengthscales are in
// unit-cube units; priors are densities of θ (Gamma(shape, rate)), BoTorch's SingleTaskGP priors.
#define KBO_BO_MODEL_FIELDS(X)                                                                                  \
  X(double, constant_mean_variance, 100.0) /* prior_mean gls: c of the kernel + c term (0 ⇒ sample mean) */   \
  /* The observation noise (NoiseModel; the levels are NoiseLevels in noise_inference.hpp). */              \
  X(NoiseModel, noise, NoiseModel::Infer)                                                                     \
  X(double, restart_lengthscale_min, 0.05) /* … and lengthscales log-uniformly in [min, max] */               \
  X(double, restart_lengthscale_max, 2.0)                                                                      \
  /* A deterministic extra start: all lengthscales = fixed_start_lengthscale, signal variance 1, noise = */   \
  /* NoiseLevels::fixed_start (0 ⇒ no such start). */                                                          \
  X(double, fixed_start_lengthscale, 0.0)                                                                      \
  X(double, lengthscale_prior_shape, 3.0)                                                                      \
  X(double, lengthscale_prior_rate, 6.0)                                                                       \
  /* Lengthscales of the one-hot coordinates of categorical parameters (params spaces): Gamma(3, 6) puts two */  \
  /* choices (distance √2) ~4 lengthscales apart, so every choice was its own, independent model whose */       \
  /* lengthscale the data could not move (vanishing gradient), and a choice seen once at a bad point stayed */ \
  /* at the worst-value prior mean: never tried again. Mode √2 (choices correlated ≈ 0.5 under Matérn-5/2), */ \
  /* learnable either way; they also start at the mode. docs/bench/spaces.md has the study. */    \
  X(double, categorical_lengthscale_prior_shape, 3.0)                                                          \
  X(double, categorical_lengthscale_prior_rate, 1.4142135623730951)                                            \
  X(double, variance_prior_shape, 2.0)                                                                         \
  X(double, variance_prior_rate, 0.15)                                                                         \
  X(int, fit_evaluations, 60)              /* L-BFGS evaluations per hyperparameter run */                    \
  X(bool, warm_start, true)                /* start from the previous fit (else only the other starts) */     \
  /* Hyperparameter-marginalised UCB while the data are few: with n ≤ hmc_max_n observations (0 ⇒ never) */  \
  /* the acquisition (if its registry entry allows averaging) is the mean over hmc_keep HMC draws of θ */     \
  /* from the MAP objective's posterior (hmc_warmup + hmc_samples iterations of hmc_leapfrog steps). */       \
  X(int, hmc_max_n, 0)                                                                                         \
  X(int, hmc_warmup, 100)                                                                                      \
  X(int, hmc_samples, 40)                                                                                      \
  X(int, hmc_keep, 8)                                                                                          \
  X(int, hmc_leapfrog, 8)                                                                                      \
  X(PriorMean, prior_mean, PriorMean::Worst)                                                                   \
  X(double, mean_quantile, 0.5)                                                                                \
  /* A second stationary kernel fitted beside config.kernel at every refit; the higher MAP objective */       \
  /* (LML + log prior) wins, so the smoothness is chosen by evidence. "none" disables it. Only when the */    \
  /* model kernel is a plain stationary kernel (not for invariant or set kernels). */                        \
  X(std::string, alt_kernel, "matern32")                                                                       \
  X(OutputWarp, output_warp, OutputWarp::HalfRank) /* docs/bench/bbob.md: the BBOB study behind this default */ \
  X(FailedPoints, failed_points, FailedPoints::Worst)                                                          \
  /* Incremental model: with fewer than full_refit_below observations every suggestion refits θ (warm */     \
  /* start + fit_restarts, both kernels); from there on θ is fully refitted only once refit_every new */     \
  /* observations arrived since the last full refit (0 ⇒ ⌈√n⌉ of that refit's n). In between, below */        \
  /* warm_refit_below observations θ is refitted from the warm start alone (one L-BFGS run per kernel, */    \
  /* ≤ warm_refit_evaluations evaluations); from there on the fitted model keeps θ and is extended with */   \
  /* the new observations in O(n²) (GP::append_observations). docs/bench/scale.md has the measurements. */   \
  X(int, full_refit_below, 64)                                                                                 \
  X(int, refit_every, 0)                                                                                       \
  X(int, warm_refit_below, 200)                                                                                \
  X(int, warm_refit_evaluations, 20)                                                                           \
  /* θ is fitted on at most fit_subset observations (a seeded uniform random subset; 0 ⇒ all), then the */   \
  /* model conditions on all of them: a refit costs the same from n = fit_subset on (docs/bench/scale.md). */ \
  X(int, fit_subset, 500)                                                                                      \
  /* auto: exact GP up to subset_above observations, the subset-of-data model above; exact / subset force */ \
  X(ModelKind, model, ModelKind::Auto)                                                                         \
  X(int, subset_above, 2000)                                                                                   \
  X(int, subset_local, 1000)                                                                                   \
  X(int, subset_global, 500)                                                                                   \
  /* Periodic exploitation (De Ath et al. 2021, "Greed is good"): every exploit_every-th BO step (0 ⇒ never) */ \
  /* maximises μ + √exploit_beta σ instead of the acquisition, i.e. the model's best guess (β = 0: the */       \
  /* posterior mean) polished from the incumbent: precise local steps that UCB's exploration never takes. */   \
  X(int, exploit_every, 0)                                                                                     \
  X(double, exploit_beta, 0.0)                                                                                 \
  /* Exploration first: the first early_steps BO steps (0 ⇒ none) maximise UCB with early_beta instead of */   \
  /* --beta, the later ones with --beta (UCB with the constant schedule only). A set space with set_kernel */ \
  /* auto and UCB of at most 12 coordinates (m·d) takes 10 steps at β 16 unless told (at most a quarter */  \
  /* of a known budget's BO steps): the early steps choose the configuration the run polishes, and wider */   \
  /* ones nearly halve k-means' stalls over 90 seeds (docs/bench/structure.md). */                \
  X(int, early_steps, 0)                                                                                       \
  X(double, early_beta, 16.0)                                                                                  \
  /* Local trust-region steps (TuRBO-like, Eriksson et al. 2019): every local_every-th BO step (0 ⇒ never) */ \
  /* a GP fitted only to the local_points observations nearest the incumbent (distances in the global */     \
  /* model's lengthscales; 0 ⇒ 5·(D + 1)), with its own target scaling, so that the differences among the */  \
  /* best values are resolved whatever the global range; its acquisition is maximised in the box the */       \
  /* neighbours span around the incumbent. docs/bench/bbob.md measures it. */                                  \
  X(int, local_every, 0)                                                                                       \
  /* … counted only from trial local_above on (0 ⇒ from the first BO step): long runs alternate */         \
  /* global and local steps where the global model alone converges slowly (docs/bench/scale.md). */    \
  X(int, local_above, 0)                                                                                       \
  X(int, local_points, 0)                                                                                      \
  /* The local GP's target warp: none (logtop, which stretches the gaps next to the */    \
  /* best value, made Ackley-6 and Hartmann-6's end-games polish less; docs/bench/bbob.md). */      \
  X(OutputWarp, local_warp, OutputWarp::None)                                                                  \
  X(double, local_beta, 1.0)               /* the local step maximises μ + √local_beta σ of the local model */ \
  X(LocalModel, local_model, LocalModel::Auto) /* gp, quadratic (least squares), or auto */ \
  X(double, local_min_r2, 0.99) /* auto: the quadratic steps where its fit's R² is at least this, else the GP */ \
  /* The quadratic's least squares weighs each neighbour by (gap + g₀)^−local_fit_power, gap its value's */   \
  /* distance above the incumbent's, g₀ the smallest nonzero gap. Where values span orders of magnitude (an */  \
  /* ill-conditioned valley's walls next to its floor) uniform weights (0) fit the walls and leave the */       \
  /* floor, where the step is taken, a residual the size of the walls'; weights fit the floor. At D <= 2 */     \
  /* local_fit_power_2d: 2 (BBOB d = 2: the 1e-2 target on 12 of 24 functions instead of */   \
  /* 10); at D >= 3 uniform, as 2 costs Ackley-6 and Hartmann-6 (an explicit local_fit_power without */        \
  /* local_fit_power_2d sets both; docs/bench/bbob.md). */                                         \
  X(double, local_fit_power, 0.0)                                                                              \
  X(double, local_fit_power_2d, 2.0)                                                                           \
  /* auto: the fallback GP's neighbours without local_points (LocalGpPoints above): quadratic, own, own_if_all */ \
  X(LocalGpPoints, local_auto_gp_points, LocalGpPoints::OwnIfAll)                                              \
  /* A real trust region for the local steps (TuRBO, Eriksson et al. 2019; kbo/strategy/trust_region.hpp): */ \
  /* local_radius > 0 replaces the neighbours' box by a cube of that initial half width (unit-cube units) */   \
  /* centred at the incumbent, halved after local_fail consecutive local steps that did not improve the */    \
  /* incumbent (0 ⇒ max(4, D), TuRBO's), doubled after local_succ consecutive ones that did, kept within */   \
  /* [local_radius_min, local_radius_max]; replayed from the trial history at each step (no stored state). */ \
  X(double, local_radius, 0.1)                                                                                 \
  X(int, local_fail, 2)                                                                                        \
  /* … and at dimension D <= 2 local_fail_2d instead: 3, with endgame_fraction_2d (an */     \
  /* explicit local_fail without it sets both; docs/bench/bbob.md). */                          \
  X(int, local_fail_2d, 3)                                                                                     \
  X(int, local_succ, 3)                                                                                        \
  X(double, local_radius_min, 1e-6)                                                                            \
  X(double, local_radius_max, 0.5)                                                                             \
  /* After local_restart halvings of the radius in a row with no successful local step (0 ⇒ never), the */  \
  /* region restarts around the incumbent (TuRBO's restart, replayed from the history like the radius); */   \
  /* with local_restart_global the restart's step is a global step (the acquisition on the global model) */  \
  /* and the region restarts at local_radius, else the region is reset to the radius of the last successful */ \
  /* local step (local_radius if none) and the next local step searches it. */                                \
  /* Default 5 (a region-only reset), at most local_restart_max = 1 per run: a short */     \
  /* end-game whose steps all fail gets one fresh region (Hartmann-6 at 55 evaluations), while a long one's */ \
  /* converged region, which fails most steps too, is not pulled back out again and again (Ackley-10 after */  \
  /* 1,000 evaluations: 1.5e-4 with unlimited restarts, 1e-5 … 1e-6 with one). docs/bench/bbob.md. */ \
  X(int, local_restart, 5)                                                                                     \
  /* At most local_restart_max restarts in a run (0 ⇒ no limit). */                                           \
  X(int, local_restart_max, 1)                                                                                 \
  X(bool, local_restart_global, false)                                                                         \
  /* End-game: when the run's budget is known (`kbo optimize`, kbo.minimize, a study's stored budget), its */  \
  /* last endgame_fraction of the BO steps (0 ⇒ never) exploit: each is a local step (endgame local) or */     \
  /* UCB with β scaled by the share of the end-game still to come (endgame decay; 0 at the last trial). */     \
  /* The default end-game (0.34, with the trust region and local_model auto above) is docs/bench/bbob.md's */  \
  /* fifth-round candidate `ta1f2`: Ackley-10 after 1,000 evaluations 1e-5 instead of 2e-3 (scale.md); */     \
  /* with the restart, the GP's neighbours and warp above (docs/bench/bbob.md). Invariant */  \
  /* kernels without a local chart (continuous groups) default to 0: no end-game unless told; set kernels */  \
  /* and invariant kernels with a chart take 0.34 at every dimension, with local_chart (docs/bench/ */      \
  /* structure.md). */                                                                                   \
  X(double, endgame_fraction, 0.34)                                                                            \
  /* At dimension D <= 2 the end-game's share is endgame_fraction_2d: 0.6 (BBOB d = 2: the */ \
  /* 1e-2 target on 10 of 24 functions instead of 6; d >= 3 untouched). An explicit endgame_fraction without */ \
  /* endgame_fraction_2d sets both (docs/bench/bbob.md). */                                      \
  X(double, endgame_fraction_2d, 0.6)                                                                          \
  X(Endgame, endgame, Endgame::Local)                                                                          \
  /* Structure by evidence (auto kernels): with acquisition or predictive (StructureAveraging above) the */   \
  /* step uses every candidate model, each weighted by its posterior probability (the softmax of the log */   \
  /* marginal likelihoods, a uniform prior over the candidates: Bayesian model averaging), not the most */    \
  /* probable model alone (off). Off: acquisition wins k-means seeds 0-9 and facility 0-29 but loses */     \
  /* covering (stalls on 6 of 30 seeds against 2); predictive loses both (docs/bench/structure.md). */         \
  X(StructureAveraging, structure_averaging, StructureAveraging::Off)                                        \
  /* Local steps of an invariant model (a kernel with Kernel::local_chart): every observation enters the */   \
  /* local fit at its orbit point nearest the incumbent, and the local GP has the invariant kernel's base */  \
  /* kernel (near a generic point the function is the plain one), so mirror images of nearby points count */ \
  /* as neighbours and the quadratic sees one chart, not several. Without it the neighbours are the raw */    \
  /* nearest rows, and the local GP the invariant kernel. On by default for invariant kernels that have a */  \
  /* chart (finite groups of isometries; BOStrategy's constructor): signflip-offcentre seeds 0-9 6.7e-6, */   \
  /* the flat GP 1.2e-5, without the chart 3.6e-5 (docs/bench/structure.md). On a set space every model */     \
  /* steps in the set chart (each set's elements paired with the incumbent's; the plain kernel of the */      \
  /* sorted vector borrows it), on by default (docs/bench/structure.md). No effect on other kernels. */        \
  X(bool, local_chart, false)

struct BOModelOptions {
  KBO_BO_MODEL_FIELDS(KBO_FIELD_MEMBER)
  bool operator==(const BOModelOptions&) const = default;

  static BOModelOptions from_json(const nlohmann::json& j);  // InputError on unknown keys / bad values
  /// The end-game share and the trust region's failure count at dimension D (the _2d fields at D <= 2).
  double endgame_fraction_at(long D) const { return D <= 2 ? endgame_fraction_2d : endgame_fraction; }
  int local_fail_at(long D) const { return D <= 2 ? local_fail_2d : local_fail; }
  double local_fit_power_at(long D) const { return D <= 2 ? local_fit_power_2d : local_fit_power; }
  nlohmann::json to_json() const;
};

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
