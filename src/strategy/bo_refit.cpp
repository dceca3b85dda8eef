// BOStrategy's hyperparameter fit (include/kbo/bo_strategy.hpp): bounds, priors, starting points, the
// multi-start MAP refit of one or more models (kbo::fit_hyperparameters, all runs in one thread pool).
// Parameters are told apart by their roles (ParamSpec), never by their names.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "constant_mean_kernel.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/params.hpp"
#include "kbo/core/space.hpp"
#include "kbo/model/fit.hpp"

namespace kbo {

namespace {
// Log evidence (nats) by which a free noise level must beat the near-exact model: e³ ≈ 20, "strong" on
// Kass & Raftery's scale, since the free model nests the near-exact one and always fits at least as well.
constexpr double kNoiseEvidence = 3.0;
}  // namespace

double BOStrategy::noise_floor() const {
  return observations_ >= NoiseLevels::late_floor_from ? NoiseLevels::late_floor : NoiseLevels::floor;
}

double BOStrategy::noise_cap() const {
  if (fit_noise_cap_ > 0.0) return fit_noise_cap_;
  const BOModelOptions& mo = model_options_;
  const bool free = mo.noise == NoiseModel::Free || (mo.noise == NoiseModel::Infer && noisy_);
  return free ? NoiseLevels::free_cap : NoiseLevels::exact_cap;
}

double BOStrategy::infer_noise(int trial_index, double objective) {
  // Two hypotheses about the observations: near-exact (noise at most NoiseLevels::exact_cap of the targets' variance:
  // a deterministic objective's model may not explain structure as noise) and noisy (a free level). The
  // current one was just fitted; the other is fitted from its θ on the same rows, and the free level is
  // taken when its log marginal likelihood beats the near-exact model's by kNoiseEvidence. A rugged
  // deterministic objective can win that comparison too, so before any replicate exists the first such
  // win asks for one (replicate_due_) instead of switching; replicates_ then decides.
  std::optional<GP> other(*gp_);
  fit_noise_cap_ = noisy_ ? NoiseLevels::exact_cap : NoiseLevels::free_cap;
  const struct ResetCap {
    double& cap;
    ~ResetCap() { cap = 0.0; }
  } reset{fit_noise_cap_};
  const double other_objective = refit({&other}, trial_index)[0];
  const double current = gp_->log_marginal_likelihood(), alternative = other->log_marginal_likelihood();
  const double evidence = noisy_ ? current - alternative : alternative - current;  // free − near-exact
  const bool noisy = evidence > kNoiseEvidence;
  if (replicates_ == ReplicateVerdict::None) {
    replicate_due_ = noisy;
  } else if (noisy != noisy_) {
    gp_ = std::move(other), objective = other_objective, noisy_ = noisy;
  }
  info_["noise"] = {{"noisy", noisy_}, {"evidence", evidence}, {"variance", gp_->noise_variance()}};
  return objective;
}

void BOStrategy::fit_bounds(const GP& gp, Vec& lower, Vec& upper) const {
  gp.default_bounds(lower, upper);
  if (gp.learns_noise()) {
    const Eigen::Index noise = lower.size() - 1;
    lower[noise] = std::max(lower[noise], std::log(noise_floor()));
    upper[noise] = std::min(upper[noise], std::log(noise_cap()));
  }
}

namespace {
// Per coordinate of a params space (kbo/core/params.hpp): true on the one-hot coordinates of categorical
// parameters. Empty for other spaces.
std::vector<bool> categorical_coordinates(const Space& space) {
  const auto* unit = dynamic_cast<const UnitCubeSpace*>(&space);
  const auto* params = dynamic_cast<const ParamsSpace*>(unit ? &unit->original() : &space);
  std::vector<bool> out;
  if (!params) return out;
  for (const ParamDef& p : params->params()) {
    if (p.type == ParamType::Float || p.type == ParamType::Int) out.push_back(false);
    if (p.type == ParamType::Categorical) out.insert(out.end(), p.choices.size(), true);
  }
  return out;
}
}  // namespace

bool BOStrategy::is_categorical_lengthscale(const ParamSpec& spec) const {
  if (spec.role != ParamRole::Lengthscale || spec.dim < 0) return false;
  const std::vector<bool> categorical = categorical_coordinates(*space_);
  return static_cast<std::size_t>(spec.dim) < categorical.size() && categorical[static_cast<std::size_t>(spec.dim)];
}

void BOStrategy::init_categorical_lengthscales(Kernel& kernel) const {
  const BOModelOptions& mo = model_options_;
  const double mode = (mo.categorical_lengthscale_prior_shape - 1.0) / mo.categorical_lengthscale_prior_rate;
  if (!(mode > 0.0)) return;
  const std::vector<ParamSpec> specs = kernel.param_specs();
  Vec theta = kernel.log_params();
  bool any = false;
  for (std::size_t p = 0; p < specs.size() && static_cast<Eigen::Index>(p) < theta.size(); ++p)
    if (is_categorical_lengthscale(specs[p])) theta[static_cast<Eigen::Index>(p)] = std::log(mode), any = true;
  if (any) kernel.set_log_params(theta);
}

std::vector<Prior> BOStrategy::map_priors(const GP& gp) const {
  const BOModelOptions& mo = model_options_;
  const auto specs = gp.hyperparameter_specs();
  // MAP priors as densities of θ; by default BoTorch's SingleTaskGP priors: Gamma(3, 6) on lengthscales
  // (inputs are on the unit cube), Gamma(2, 0.15) on the signal variance, Gamma(1.1, 0.05) on the noise
  // variance, per parameter role. Other roles, and parameters that declare a prior of their own, keep
  // GP::default_priors'.
  std::vector<Prior> priors;
  if (config_.map) {
    priors = gp.default_priors();
    for (std::size_t p = 0; p < priors.size(); ++p) {
      const ParamSpec& spec = specs[p];
      if (!spec.prior) {  // a parameter's own prior wins over its role's
        if (spec.role == ParamRole::Noise) {
          priors[p] = Prior::gamma(NoiseLevels::prior_shape, NoiseLevels::prior_rate);
        } else if (spec.role == ParamRole::Lengthscale) {
          priors[p] = is_categorical_lengthscale(spec)
                          ? Prior::gamma(mo.categorical_lengthscale_prior_shape, mo.categorical_lengthscale_prior_rate)
                          : Prior::gamma(mo.lengthscale_prior_shape, mo.lengthscale_prior_rate);
        } else if (spec.role == ParamRole::Variance) {
          priors[p] = Prior::gamma(mo.variance_prior_shape, mo.variance_prior_rate);
        }
      }
      priors[p] = priors[p].value_density();
    }
  }
  return priors;
}

std::vector<Vec> BOStrategy::fit_starts(const GP& gp, const Vec& lower, const Vec& upper, int trial_index,
                                        bool warm_only) const {
  // The previous fit (warm start), the fixed start if configured, and config.fit_restarts random draws.
  const Vec theta0 = gp.hyperparameters();
  const auto specs = gp.hyperparameter_specs();
  const BOModelOptions& mo = model_options_;
  std::vector<Vec> starts;
  if (mo.warm_start || warm_only) starts.push_back(theta0.cwiseMax(lower).cwiseMin(upper));
  if (warm_only) return starts;
  if (mo.fixed_start_lengthscale > 0.0) {
    Vec t = theta0;
    for (Eigen::Index p = 0; p < t.size(); ++p) {
      if (specs[p].role == ParamRole::Noise) {
        if (gp.learns_noise()) t[p] = std::log(NoiseLevels::fixed_start);
      } else if (specs[p].role == ParamRole::Lengthscale) {
        t[p] = std::log(mo.fixed_start_lengthscale);
      } else {
        t[p] = 0.0;  // signal variance 1 of the standardised targets
      }
    }
    starts.push_back(t.cwiseMax(lower).cwiseMin(upper));
  }
  Rng rng = make_rng(trial_seed(config_.seed ^ 0xF17ULL, trial_index));
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  const int restarts = starts.empty() ? std::max(1, config_.fit_restarts) : config_.fit_restarts;
  for (int r = 0; r < restarts; ++r) {
    Vec t = theta0;
    for (Eigen::Index p = 0; p < t.size(); ++p) {
      double lo, hi;
      if (specs[p].role == ParamRole::Noise) {
        if (!gp.learns_noise()) continue;
        lo = std::log(noise_floor()), hi = std::log(std::min(NoiseLevels::restart_max, noise_cap()));  // standardised
      } else if (specs[p].role == ParamRole::Lengthscale) {
        lo = std::log(mo.restart_lengthscale_min), hi = std::log(mo.restart_lengthscale_max);  // unit cube
      } else {
        lo = theta0[p] - std::log(10.0), hi = theta0[p] + std::log(10.0);
      }
      t[p] = std::clamp(lo + (hi - lo) * unif(rng), lower[p], upper[p]);
    }
    starts.push_back(t);
  }
  return starts;
}

namespace {
// θ as a GP holds it after set_hyperparameters(θ): the kernel stores exp(θ) and reports log of that, and
// log ∘ exp need not be the identity in floating point. refit's runs start from a model set to each start,
// as they always did, so that fits are reproducible bit for bit.
Vec as_held(const GP& gp, const Vec& theta) {
  const Eigen::Index P = theta.size();
  KernelPtr k = gp.kernel().clone();
  k->set_log_params(theta.head(P - 1));
  Vec held(P);
  held << k->log_params(), std::log(std::exp(theta[P - 1]));
  return held;
}
}  // namespace

std::vector<double> BOStrategy::refit(const std::vector<std::optional<GP>*>& models, int trial_index, bool warm_only) {
  // One fitting problem per model: its bounds, priors and starts (warm start + random restarts seeded by
  // the trial). fit_hyperparameters runs every (model, start) pair as one capped L-BFGS run in one thread
  // pool; per model the best objective wins (ties by start order, so the result does not depend on thread
  // timing) and replaces the model's θ.
  const BOModelOptions& mo = model_options_;
  std::vector<std::optional<GP>> surrogates(models.size());
  std::vector<const GP*> fitted(models.size());
  std::vector<HyperparameterFit> fits(models.size());
  for (std::size_t m = 0; m < models.size(); ++m) {
    const GP& gp = **models[m];
    HyperparameterFit& fit = fits[m];
    fit_bounds(gp, fit.lower, fit.upper);
    const std::vector<Vec> starts = fit_starts(gp, fit.lower, fit.upper, trial_index, warm_only);
    fit.priors = map_priors(gp);
    fit.map = config_.map;
    fit.max_evaluations = warm_only ? mo.warm_refit_evaluations : mo.fit_evaluations;
    fit.mask.assign(static_cast<std::size_t>(fit.lower.size()), true);
    fit.mask.back() = gp.learns_noise();
    fitted[m] = &gp;
    if (const Kernel* surrogate = gp.kernel().fit_surrogate()) {
      // Fit θ on the surrogate kernel (same parameter layout), then use it in the model's kernel.
      surrogates[m].emplace(with_constant_mean(surrogate->clone(), gls_mean_variance()), gp.noise_variance(),
                            gp.normalizes(), gp.learns_noise());
      surrogates[m]->set_data(gp.X(), gp.y(), gp.known_noise());
      fitted[m] = &*surrogates[m];
    }
    for (std::size_t r = 0; r < starts.size(); ++r) {
      const bool held = !surrogates[m] && (mo.warm_start || warm_only) && r == 0;  // the model holds the warm start
      try {
        fit.starts.push_back(held ? starts[r] : as_held(*fitted[m], starts[r]));
      } catch (const NumericalError&) {
        // a start the kernel cannot take (e.g. a data-dependent kernel's rebuild fails): the others decide
      }
    }
    if (fit.starts.empty()) throw NumericalError("GP hyperparameter fit failed from every start");
  }
  const std::vector<FitResult> results = fit_hyperparameters(fitted, fits);

  std::vector<double> best_objective(models.size());
  for (std::size_t m = 0; m < models.size(); ++m) {
    // θ fitted on a surrogate reaches the model as the surrogate held it.
    const Vec theta = surrogates[m] ? as_held(*surrogates[m], results[m].theta) : results[m].theta;
    GP g(**models[m]);
    g.set_hyperparameters(theta);
    best_objective[m] = results[m].value;
    if (surrogates[m]) {
      // The objective of the model itself at θ (not the surrogate's), so models can be compared.
      double value = g.log_marginal_likelihood();
      if (fits[m].map)
        for (Eigen::Index p = 0; p < theta.size() && p < static_cast<Eigen::Index>(fits[m].priors.size()); ++p)
          value += fits[m].priors[p].log_density(theta[p], nullptr);
      best_objective[m] = value;
    }
    *models[m] = std::move(g);
  }
  return best_objective;
}

}  // namespace kbo
