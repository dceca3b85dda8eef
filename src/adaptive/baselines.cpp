// GP-UCB baselines of the paper's experiments: fixed, MAP or HMC-marginalised lengthscales, empirical
// constant β^{1/2} on standardised data (paper §4.2 "Confidence intervals", §5).
#include <cmath>
#include <deque>

#include "internal.hpp"
#include "kbo/acquisition/acquisition.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/optimize/multistart.hpp"

namespace kbo {

using namespace adaptive_detail;

HyperGpucbStrategy::HyperGpucbStrategy(StrategyConfig config, std::shared_ptr<const Space> space,
                                       BaselineOptions options)
    : config_(std::move(config)), space_(std::move(space)), opt_(std::move(options)) {
  if (!space_) throw InputError("gpucb baseline: no search space given");
  if (config_.n_init < 1) throw InputError("gpucb baseline: n_init must be >= 1");
  const int d = space_->dim();
  if (!(opt_.theta.size() == 1 || static_cast<int>(opt_.theta.size()) == d))
    throw InputError("gpucb baseline option 'theta' needs 1 or " + std::to_string(d) + " values");
  theta_ = expand_lengthscales(opt_.theta, d);
  UnitCubeSpace unit(space_);
  Rng rng = make_rng(config_.seed);
  design_ = unit.sample(config_.n_init, config_.init_method, rng);
}

std::string HyperGpucbStrategy::name() const {
  switch (opt_.mode) {
    case HyperMode::Fixed: return "gpucb-fixed";
    case HyperMode::Map: return "gpucb-map";
    case HyperMode::Hmc: return "gpucb-hmc";
  }
  return "gpucb";
}

Vec HyperGpucbStrategy::suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) {
  const int n = static_cast<int>(X.rows());
  const int d = space_->dim();
  UnitCubeSpace unit(space_);
  info_ = nlohmann::json::object();
  if (n != y.size()) throw InputError("gpucb baseline: X rows and y size differ");
  if (trial_index < config_.n_init || n < 1) {
    info_["phase"] = "initial";
    if (trial_index >= 0 && trial_index < design_.rows()) return unit.from_unit(design_.row(trial_index).transpose());
    Rng rng = make_rng(trial_seed(config_.seed, static_cast<std::uint64_t>(trial_index)));
    return unit.from_unit(unit.sample(1, SamplingMethod::Uniform, rng).row(0).transpose());
  }
  const Mat U = unit.rows_to_unit(X);
  Mat pendingU(pending.rows(), d);
  for (int i = 0; i < pending.rows(); ++i) pendingU.row(i) = unit.to_unit(pending.row(i).transpose()).transpose();

  GP base = make_fixed_gp(opt_.kernel, theta_, opt_.noise_var, /*normalize=*/true);
  base.set_data(U, y);
  const int P = static_cast<int>(base.hyperparameters().size());
  const Prior prior = Prior::gamma(opt_.prior_shape, opt_.prior_rate);
  const double log_lo = std::log(opt_.theta_lower), log_hi = std::log(opt_.theta_upper);

  std::deque<GP> models;
  Vec mean_log = Vec::Zero(d);
  if (opt_.mode == HyperMode::Fixed) {
    theta_ = expand_lengthscales(opt_.theta, d);
    models.push_back(base);
    mean_log = theta_.array().log();
  } else if (opt_.mode == HyperMode::Map) {
    FitOptions fo;
    fo.restarts = opt_.map_restarts;
    fo.map = true;
    fo.priors.assign(P, Prior::none());
    fo.fit_mask.assign(P, false);
    base.default_bounds(fo.lower, fo.upper);
    for (int i = 0; i < d; ++i) {
      fo.priors[i] = prior;
      fo.fit_mask[i] = true;
      fo.lower[i] = log_lo;
      fo.upper[i] = log_hi;
    }
    fo.seed = trial_seed(config_.seed, 2000003 + n);
    base.fit(fo);
    theta_ = gp_lengthscales(base);
    models.push_back(base);
    mean_log = theta_.array().log();
  } else {
    // HMC over q = log lengthscales; target = LML (standardised y) + Gamma log prior, zero outside the box.
    const Vec full0 = base.hyperparameters();
    auto logp = [&](const Vec& q, Vec* grad) -> double {
      if ((q.array() < log_lo).any() || (q.array() > log_hi).any()) return -std::numeric_limits<double>::infinity();
      Vec full = full0;
      full.head(d) = q;
      Vec g(P);
      double v = base.log_marginal_likelihood_at(full, grad ? &g : nullptr);
      if (grad) grad->resize(d);
      for (int i = 0; i < d; ++i) {
        double dp = 0.0;
        v += prior.log_density(q[i], &dp);
        if (grad) (*grad)[i] = g[i] + dp;
      }
      return v;
    };
    Rng rng = make_rng(trial_seed(config_.seed, 3000017 + n));
    const Vec q0 = theta_.array().log().max(log_lo).min(log_hi);
    const HmcResult r = hmc_sample_carried(logp, q0, opt_.hmc_warmup, opt_.hmc_samples, opt_.hmc_leapfrog, hmc_, rng);
    const int rows = static_cast<int>(r.samples.rows());
    const int keep = std::min(opt_.hmc_keep, rows);
    for (int k = 0; k < keep; ++k) {
      // Evenly spaced draws from the end of the chain backwards (the last draw is always used).
      const int row = rows - 1 - static_cast<int>(static_cast<long>(k) * rows / keep);
      const Vec q = r.samples.row(row).transpose();
      GP m = base;
      Vec full = full0;
      full.head(d) = q;
      m.set_hyperparameters(full);
      models.push_back(std::move(m));
      mean_log += q / keep;
    }
    theta_ = r.samples.row(rows - 1).transpose().array().exp();  // next chain starts here
    info_["hmc_accept"] = r.acceptance_rate;
    info_["hmc_step"] = r.step_size;
    info_["hmc_divergences"] = r.divergences;
  }

  // Pending points: fantasies of config.fantasy on each model (θ fixed, no refit), as BOStrategy and A-GP-UCB.
  const FantasyMode fantasy = config_.fantasy;
  std::deque<GP> fant;
  for (const GP& m : models) fant.push_back(condition_on_pending(m, pendingU, fantasy));
  // With HMC, the integrated acquisition (Snoek et al. 2012): the mean of the per-draw UCBs.
  std::vector<std::unique_ptr<Acquisition>> parts;
  for (const GP& m : fant) parts.push_back(std::make_unique<UpperConfidenceBound>(m, opt_.beta_sqrt * opt_.beta_sqrt));
  const AveragedAcquisition acq(std::move(parts));
  AcqOptimizerOptions ao = config_.acq_optimizer;
  ao.seed = trial_seed(config_.seed, static_cast<std::uint64_t>(trial_index));
  const OptResult r = maximize_acquisition(acq, unit, ao, incumbent_row(U, y));

  const Vec theta_mean = mean_log.array().exp();
  info_["phase"] = name();
  info_["theta"] = std::vector<double>(theta_mean.data(), theta_mean.data() + d);
  info_["g_eff"] = std::exp(-mean_log.mean());
  info_["beta_sqrt"] = opt_.beta_sqrt;
  if (pendingU.rows() > 0) info_["fantasy"] = to_string(config_.fantasy);
  // Never suggest a pending point again (as A-GP-UCB): a uniform random point instead.
  if (repeats_a_row(pendingU, r.x)) {
    info_["repeat_replaced_by_random"] = true;
    Rng rng = make_rng(trial_seed(config_.seed ^ 0x5EEDULL, static_cast<std::uint64_t>(trial_index)));
    return unit.from_unit(unit.sample(1, SamplingMethod::Uniform, rng).row(0).transpose());
  }
  return unit.from_unit(r.x);
}

}  // namespace kbo
