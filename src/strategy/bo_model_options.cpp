// BOModelOptions (include/kbo/bo_strategy.hpp): parsing, validation and JSON of the BO model's knobs.
#include <cmath>
#include <string>

#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/core/error.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

// BOModelOptions::fit_evaluations (default 60), L-BFGS evaluations per hyperparameter run: warm-started
// runs converge in a few dozen steps; the cap keeps a refit at n = 100 within a few milliseconds (the
// per-iteration budget is 0.05 s).
// Defaults of BOModelOptions (docs/bench/bo.md has the measurements behind each):
// 1. The prior mean. The sample mean lies above Ackley's plateau (in the maximised values), so far from
//    the data the posterior reverts to a level better than anything seen and UCB samples empty corners;
//    a GLS constant (kernel + c, the "gls" option) halved the gap to BoTorch. A constant at the worst value
//    seen (De Ath et al. 2020) goes further: UCB far from the data is then worst + √β σ, and the search
//    follows the weak trend near the data instead of the box boundary (fewer runs stall on the plateau).
// 2. The kernel's smoothness by evidence: Matérn-5/2 and Matérn-3/2 are both fitted at each refit and the
//    higher MAP objective wins. Rough objectives (Ackley's cone and ripples, Rastrigin) pick 3/2 and are
//    modelled far better near the optimum; smooth ones (Branin, Griewank) keep 5/2, where 3/2 alone is worse.
// 3. Priors as densities of θ (Prior::value_density), as GPyTorch evaluates them. kbo's default
//    convention (density of log θ) turns the noise prior Gamma(1.1, 0.05) into a strong push towards
//    noise, and the fit then explained Ackley's structure as noise.
// 4. The noise: NoiseLevels (kbo/strategy/noise_inference.hpp) has its levels and why.
// 5. The half-rank target warp (output_warp, after Vizier): on BBOB (docs/bench/bbob.md) values span many
//    orders of magnitude and the bad half squeezed the good values into a sliver of the targets' range;
//    rank-warping only the lower half fixed the ill-conditioned and steep functions (d = 5: beats TPE on
//    23/24 functions on the selection instances, ECDF higher at every budget) and left `kbo bench bo` as it
//    was (the full copula warp, also rank-warping the good half, made Ackley-6, Branin and Hartmann-6 worse).
// 6. The categorical lengthscale prior Gamma(3, √2) on the one-hot coordinates of params spaces
//    (docs/bench/spaces.md): under the continuous prior two choices were ~4 lengthscales apart,
//    i.e. independent models the data could not join, and a choice seen once at a bad point was never tried
//    again (svc-sonar seed 9 at 0.2209). Box spaces have no such coordinates: their model is unchanged.

Registry<BoOptionKeysEntry>& bo_option_extensions() {
  static Registry<BoOptionKeysEntry> registry("options.bo extension");
  return registry;
}

nlohmann::json bo_options_without_extensions(const nlohmann::json& bo) {
  if (!bo.is_object()) return bo;
  nlohmann::json own = bo;
  for (const std::string& name : bo_option_extensions().names()) {
    const BoOptionKeysEntry& entry = bo_option_extensions().get(name);
    nlohmann::json given = nlohmann::json::object();
    for (const auto& [key, value] : entry.defaults.items())
      if (own.contains(key)) given[key] = own[key], own.erase(key);
    if (!given.empty() && entry.validate) entry.validate(given);
  }
  return own;
}

namespace {
const char* const kNoiseLevelsFixed =
    "removed: the noise levels are fixed (kbo/strategy/noise_inference.hpp); the noise model is options.bo.noise";
}  // namespace

const std::vector<RemovedBoOptionKey>& removed_bo_option_keys() {
  static const std::vector<RemovedBoOptionKey> table = {
      {"constant_mean_variance", 100.0, "removed: fixed at 100 (prior_mean gls)"},
      {"mean_quantile", 0.5, "removed: prior_mean quantile is the median"},
      {"lengthscale_prior_shape", 3.0, "removed: the lengthscale prior is fixed at Gamma(3, 6)"},
      {"lengthscale_prior_rate", 6.0, "removed: the lengthscale prior is fixed at Gamma(3, 6)"},
      {"categorical_lengthscale_prior_shape", 3.0, "removed: the categorical lengthscale prior is fixed at Gamma(3, sqrt 2)"},
      {"categorical_lengthscale_prior_rate", 1.4142135623730951,
       "removed: the categorical lengthscale prior is fixed at Gamma(3, sqrt 2)"},
      {"variance_prior_shape", 2.0, "removed: the signal variance prior is fixed at Gamma(2, 0.15)"},
      {"variance_prior_rate", 0.15, "removed: the signal variance prior is fixed at Gamma(2, 0.15)"},
      {"restart_lengthscale_min", 0.05, "removed: restarts draw lengthscales in [0.05, 2]"},
      {"restart_lengthscale_max", 2.0, "removed: restarts draw lengthscales in [0.05, 2]"},
      {"fixed_start_lengthscale", 0.0, "removed: no deterministic extra start (the random restarts cover it)"},
      {"fit_evaluations", 60, "removed: fixed at 60 L-BFGS evaluations per fit run"},
      {"warm_start", true, "removed: every refit starts from the previous fit too"},
      {"hmc_max_n", 0, "removed: no HMC-marginalised acquisition (no measured benefit)"},
      {"hmc_warmup", 100, "removed with hmc_max_n: no HMC-marginalised acquisition"},
      {"hmc_samples", 40, "removed with hmc_max_n: no HMC-marginalised acquisition"},
      {"hmc_keep", 8, "removed with hmc_max_n: no HMC-marginalised acquisition"},
      {"hmc_leapfrog", 8, "removed with hmc_max_n: no HMC-marginalised acquisition"},
      {"refit_every", 0, "removed: a full refit once ceil(sqrt(n)) new observations arrived; set full_refit_below"},
      {"warm_refit_below", 200, "removed: warm-start refits below 200 observations; set full_refit_below"},
      {"warm_refit_evaluations", 20, "removed: fixed at 20; set full_refit_below"},
      {"subset_above", 2000, "removed: model auto switches at 2000 observations; set model exact or subset"},
      {"subset_local", 1000, "removed: the subset model takes 1000 nearest and 500 spread observations"},
      {"subset_global", 500, "removed: the subset model takes 1000 nearest and 500 spread observations"},
      {"exploit_every", 0, "removed: no periodic exploitation (no measured benefit; docs/bench/bbob.md)"},
      {"exploit_beta", 0.0, "removed: no periodic exploitation (no measured benefit; docs/bench/bbob.md)"},
      {"local_every", 0, "removed: local steps are the end-game's; set endgame_fraction"},
      {"local_above", 0, "removed: local steps are the end-game's; set endgame_fraction"},
      {"local_points", 0, "removed: the local model takes the 5(D + 1) nearest (the quadratic's where needed)"},
      {"local_warp", "none", "removed: the local model's targets are not warped"},
      {"local_beta", 1.0, "removed: local steps maximise mu + sigma of the local model"},
      {"local_model", "auto", "removed: the local model is a quadratic where its R2 >= 0.99, else a GP"},
      {"local_min_r2", 0.99, "removed: the local model is a quadratic where its R2 >= 0.99, else a GP"},
      {"local_fit_power_2d", 2.0, "removed: the planar preset sets local_fit_power 2 where the space has at most 2 coordinates"},
      {"local_auto_gp_points", "own_if_all", "removed: the local GP takes its own 5(D + 1) nearest unless those are all"},
      {"local_radius", 0.1, "removed: the trust region starts at half width 0.1"},
      {"local_fail", 2, "removed: the trust region halves after 2 failed local steps"},
      {"local_fail_2d", 3, "removed: the trust region halves after 2 failed local steps at every dimension (3 at d = 2 was a tie)"},
      {"local_succ", 3, "removed: the trust region doubles after 3 successful local steps"},
      {"local_radius_min", 1e-6, "removed: the trust region's half width stays in [1e-6, 0.5]"},
      {"local_radius_max", 0.5, "removed: the trust region's half width stays in [1e-6, 0.5]"},
      {"local_restart", 5, "removed: one trust-region restart per run after 5 halvings without success"},
      {"local_restart_max", 1, "removed: one trust-region restart per run after 5 halvings without success"},
      {"local_restart_global", false, "removed: a trust-region restart resets the region"},
      {"endgame", "local", "removed: the end-game takes local steps; set endgame_fraction"},
      {"endgame_fraction_2d", 0.6, "removed: the planar preset sets endgame_fraction 0.6 where the space has at most 2 coordinates"},
      {"structure_averaging", "off",
       "removed: the most probable structure models alone (averaging had no measured benefit; docs/bench/structure.md)"},
      {"pair_moves", false, "removed: no pair moves on set spaces (no measured benefit; docs/bench/structure.md); element_moves remains"},
      {"recombination_sets", 0, "removed: no recombination starts on set spaces (no measured benefit; docs/bench/structure.md)"},
      {"coincident_fallback", false,
       "removed: no sliced-kernel fallback (no measured benefit; docs/bench/structure.md); avoid_coincident remains"},
      // The noise model (kbo/strategy/noise_inference.hpp). noise_cap 1 is what the README advised noisy users.
      {"noise_cap", 0.01, "removed: use options.bo.noise (\"infer\", the default, \"exact\" or \"free\")",
       {{1.0, {{"noise", "free"}}}}},
      {"noise_floor", 1e-6, kNoiseLevelsFixed},
      {"late_noise_floor", 1e-8, kNoiseLevelsFixed},
      {"late_noise_floor_from", 200, kNoiseLevelsFixed},
      {"restart_noise_max", 0.5, kNoiseLevelsFixed},
      {"fixed_start_noise", 1e-4, kNoiseLevelsFixed},
      {"noise_prior_shape", 1.1, kNoiseLevelsFixed},
      {"noise_prior_rate", 0.05, kNoiseLevelsFixed},
      {"local_noise_cap", 0.0,
       "removed: the end-game's local GP is near-exact unless the objective is known to be noisy (options.bo.noise)"},
  };
  return table;
}

nlohmann::json without_removed_bo_keys(const nlohmann::json& bo) {
  if (!bo.is_object()) return bo;
  nlohmann::json out = bo, implied = nlohmann::json::object();
  for (const RemovedBoOptionKey& r : removed_bo_option_keys()) {
    auto it = out.find(r.key);
    if (it == out.end()) continue;
    // Its old default is what the model does now: a stored study or config that carries it keeps working.
    const nlohmann::json* meaning = *it == r.old_default ? &r.old_default : nullptr;
    for (const auto& [value, means] : r.means)
      if (*it == value) meaning = &means;
    if (!meaning) throw InputError(std::string("options.bo.") + r.key + " was " + r.replacement);
    if (meaning != &r.old_default)
      for (const auto& [key, v] : meaning->items()) implied[key] = v;
    out.erase(it);
  }
  for (const auto& [key, v] : implied.items())
    if (!out.contains(key)) out[key] = v;  // a key given explicitly wins over a removed key's meaning
  return out;
}

BOModelOptions BOModelOptions::from_json(const nlohmann::json& given) {
  if (!given.is_null() && !given.is_object()) throw InputError("options.bo must be an object of BO model options");
  const nlohmann::json j = bo_options_without_extensions(without_removed_bo_keys(given));
  BOModelOptions o = decode_field<BOModelOptions>("options.bo", j);
  if (o.alt_kernel != "none") model_kernels().get(o.alt_kernel);  // InputError naming the allowed kernels
  auto require = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("options.bo." + what);
  };
  require(o.full_refit_below >= 0, "full_refit_below must be >= 0");
  require(o.fit_subset == 0 || o.fit_subset >= 10, "fit_subset must be 0 (all observations) or >= 10");
  require(o.early_steps >= 0, "early_steps must be >= 0 (0 = none)");
  require(o.early_beta >= 0.0 && std::isfinite(o.early_beta), "early_beta must be a finite number >= 0");
  require(o.endgame_fraction >= 0.0 && o.endgame_fraction <= 1.0, "endgame_fraction must be in [0, 1] (0 = no end-game)");
  require(o.local_fit_power >= 0.0 && o.local_fit_power <= 4.0, "local_fit_power must be in [0, 4]");
  return o;
}

nlohmann::json BOModelOptions::to_json() const { return encode_field(*this); }

}  // namespace kbo
