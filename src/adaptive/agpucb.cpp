// A-GP-UCB strategy (Algorithm 1 with the adaptive h(t) of §4.1 and the MAP combinations of §4.2).
//
// Choices the paper leaves open (documented in docs/bench/adaptive.md):
// - t in p(t) and in eq. 15 is the number of observations n (initial design included), i.e. the length
//   of y_t in I(y_t; f).
// - eq. 15 uses I_{θ_{t−1}} = the information gain of the CURRENT data under the lengthscales that
//   h(t−1) gives with this iteration's base (θ₀ or θ_MAP), times (g(h)/g(t−1))^d.
// - eq. 16 stores 2 β_j^{1/2} σ_j(x_{j+1}) for each earlier suggestion of this object; σ is in the
//   model's units (standardised ones when normalize is on).
#include <cmath>
#include <limits>
#include <map>

#include "internal.hpp"
#include "kbo/acquisition/acquisition.hpp"
#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/strategy/targets.hpp"

namespace kbo {

using namespace adaptive_detail;

struct AgpucbStrategy::Candidate {
  Scaling s;
  Vec theta;
  double info = 0.0, B = 0.0, beta_sqrt = 0.0;
  Vec x_unit;
  double sigma = 0.0;  // posterior std at x_unit (model units, no fantasies)
  double acq = 0.0;
};

double design_regret(const Vec& y, int n_init) {
  const Eigen::Index n = y.size(), m = std::min<Eigen::Index>(n, n_init);
  if (n < 2 || m < 1) return 0.0;
  const double mean = y.mean();
  const double sd = std::sqrt((y.array() - mean).square().sum() / static_cast<double>(n - 1));
  if (!(sd > 0.0)) return 0.0;
  return (y.maxCoeff() - y.head(m).mean()) / sd;
}

AgpucbStrategy::AgpucbStrategy(StrategyConfig config, std::shared_ptr<const Space> space, AgpucbOptions options)
    : config_(std::move(config)), space_(std::move(space)), opt_(std::move(options)) {
  if (!space_) throw InputError("agpucb: no search space given");
  const int d = space_->dim();
  if (!(opt_.theta0.size() == 1 || static_cast<int>(opt_.theta0.size()) == d))
    throw InputError("agpucb option 'theta0' needs 1 or " + std::to_string(d) + " values");
  if (config_.n_init < 1) throw InputError("agpucb: n_init must be >= 1");
  theta0_ = expand_lengthscales(opt_.theta0, d);
  UnitCubeSpace unit(space_);
  Rng rng = make_rng(config_.seed);
  design_ = unit.sample(config_.n_init, config_.init_method, rng);
}

// The estimator is a constant of the run (stored in the study's options and in last_info()).
std::string AgpucbStrategy::name() const { return "agpucb"; }

Vec AgpucbStrategy::theta_for(double g) const {
  switch (opt_.combine) {
    case MapCombination::None: return theta0_ / g;
    case MapCombination::Min: return theta_map_.cwiseMin(theta0_ / g);
    case MapCombination::Divide: return theta_map_ / std::max(g, 1.0);
  }
  return theta0_ / g;
}

Vec AgpucbStrategy::fit_map(const Mat& U, const Vec& y) {
  const int d = static_cast<int>(U.cols());
  GP gp = make_fixed_gp(opt_.kernel, theta_map_.size() == d ? theta_map_ : theta0_, opt_.noise_std * opt_.noise_std,
                        opt_.normalize);
  gp.set_data(U, y);
  FitOptions fo;
  fo.restarts = opt_.map_restarts;
  fo.map = true;
  const int P = static_cast<int>(gp.hyperparameters().size());  // d lengthscales, variance, noise
  fo.priors.assign(P, Prior::none());
  for (int i = 0; i < d; ++i) fo.priors[i] = Prior::gamma(opt_.prior_shape, opt_.prior_rate);
  fo.fit_mask.assign(P, false);
  for (int i = 0; i < d; ++i) fo.fit_mask[i] = true;
  gp.default_bounds(fo.lower, fo.upper);
  for (int i = 0; i < d; ++i) {
    fo.lower[i] = std::log(1e-3);
    fo.upper[i] = std::log(1e2);
  }
  fo.seed = trial_seed(config_.seed, 1000003 + U.rows());
  gp.fit(fo);
  return gp_lengthscales(gp);
}

AgpucbStrategy::Candidate AgpucbStrategy::evaluate_candidate(double h, const Mat& U, const Vec& y,
                                                             const Mat& pendingU, int trial_index) const {
  return evaluate_scaling(split_scaling(h, opt_.lambda, static_cast<int>(U.cols())), U, y, pendingU, trial_index);
}

AgpucbStrategy::Candidate AgpucbStrategy::evaluate_scaling(const Scaling& s, const Mat& U, const Vec& y,
                                                           const Mat& pendingU, int trial_index) const {
  const int d = static_cast<int>(U.cols());
  Candidate c;
  c.s = s;
  c.theta = theta_for(c.s.g);
  GP gp = make_fixed_gp(opt_.kernel, c.theta, opt_.noise_std * opt_.noise_std, opt_.normalize);
  gp.set_data(U, y);
  c.info = gp.information_gain();
  c.B = c.s.b * std::pow(c.s.g, d) * opt_.B0;
  c.beta_sqrt = agpucb_beta_sqrt(c.B, opt_.noise_std, c.info, opt_.delta);
  // Pending points: fantasies of config.fantasy on this candidate's GP (θ fixed, no refit), as BOStrategy.
  const GP model = condition_on_pending(gp, pendingU, config_.fantasy);
  UpperConfidenceBound ucb(model, c.beta_sqrt * c.beta_sqrt);
  UnitCubeSpace unit(space_);
  AcqOptimizerOptions ao = config_.acq_optimizer;
  ao.seed = trial_seed(config_.seed, static_cast<std::uint64_t>(trial_index));
  const OptResult r = maximize_acquisition(ucb, unit, ao, incumbent_row(U, y));
  c.x_unit = r.x;
  c.acq = r.value;
  const double var = gp.predict(r.x.transpose()).variance[0];
  c.sigma = std::sqrt(std::max(var, 0.0)) / gp.y_scale();
  return c;
}

// Length-scale balancing (our reading of Ziomek, Adachi & Osborne, NeurIPS 2024; docs/papers.md#adaptive):
// base learners are GP-UCB with θ_i = θ(g_i), g_i = 2^i, B_i = g_i^d B₀ (Lemma 6), Lemma-1 β_i. Learner i
// is admitted once g_i ≤ g(h(t)), h(t) from A-GP-UCB's one-step regret matching (eq. 16); a longer
// lengthscale is never dropped for being long. Regret balancing plays the learner with the smallest putative bound
// R_i(n_i) = sqrt(C₁ n_i β_i γ_i) (γ_i: information gain of the arm's own n_i points under θ_i), so short
// lengthscales are tried in proportion to how little their bound grows; all arms share all data, so what a
// short arm finds a long arm exploits. Elimination (the
// regret-balancing test of Pacchiano et al. 2020): learner i is dropped when its mean reward plus its
// claimed per-step regret R_i/n_i falls below a shorter-lengthscale learner's mean reward by more than the
// noise allows: its model has been contradicted (a long lengthscale stuck on a broad local optimum).
Scaling AgpucbStrategy::balance_choice(const Mat& U, const Vec& y, double g_max) {
  const int d = static_cast<int>(U.cols());
  while (static_cast<int>(arms_.size()) < opt_.balance_max_candidates &&
         std::ldexp(1.0, static_cast<int>(arms_.size())) <= g_max * (1.0 + 1e-12)) {
    Arm a;
    a.g = std::ldexp(1.0, static_cast<int>(arms_.size()));
    arms_.push_back(a);
  }
  // Rewards of each arm's observed suggestions (model units of this step).
  std::vector<std::vector<Eigen::Index>> rows(arms_.size());  // each arm's observed suggestions
  for (Arm& a : arms_) a.plays = 0, a.reward = 0.0;
  for (const auto& [x, arm] : arm_log_) {
    for (Eigen::Index r = 0; r < U.rows(); ++r)
      if ((U.row(r).transpose() - x).norm() < kRepeatTolerance) {
        ++arms_[arm].plays;
        arms_[arm].reward += y[r];
        rows[arm].push_back(r);
        break;
      }
  }
  const double c1 = regret_constant_c1(opt_.noise_std);
  const double K = static_cast<double>(arms_.size());
  const double n = static_cast<double>(U.rows());
  auto width = [&](const Arm& a) {  // noise concentration of a mean of `plays` rewards
    return opt_.noise_std * std::sqrt(2.0 * std::log(std::max(2.0, K * n * n / opt_.delta)) / a.plays);
  };
  for (size_t i = 0; i < arms_.size(); ++i) {
    Arm& a = arms_[i];
    if (a.eliminated) continue;
    Scaling s;
    s.g = a.g;
    s.h = std::pow(a.g, d);
    s.eps_g = s.h - 1.0;
    // γ of the arm's own n_i points under its θ_i (the information its plays gathered).
    double info = 0.0;
    if (!rows[i].empty()) {
      Mat Ui(static_cast<Eigen::Index>(rows[i].size()), d);
      Vec yi(static_cast<Eigen::Index>(rows[i].size()));
      for (size_t k = 0; k < rows[i].size(); ++k) Ui.row(k) = U.row(rows[i][k]), yi[k] = y[rows[i][k]];
      GP gp = make_fixed_gp(opt_.kernel, theta_for(a.g), opt_.noise_std * opt_.noise_std, false);
      gp.set_data(Ui, yi);
      info = gp.information_gain();
    }
    const double bs = agpucb_beta_sqrt(s.h * opt_.B0, opt_.noise_std, info, opt_.delta);
    a.bound = std::sqrt(c1 * a.plays * bs * bs * info);
  }
  // Only a longer lengthscale can be misspecified (the classes are nested: a shorter one contains every
  // function of a longer one), so arm i is tested against the shorter arms j > i only.
  double best_lower_shorter = -std::numeric_limits<double>::infinity();
  for (int i = static_cast<int>(arms_.size()) - 1; i >= 0; --i) {
    Arm& a = arms_[i];
    if (a.eliminated || a.plays == 0) continue;
    if (a.reward / a.plays + a.bound / a.plays + width(a) < best_lower_shorter) {
      a.eliminated = true;
      continue;
    }
    best_lower_shorter = std::max(best_lower_shorter, a.reward / a.plays - width(a));
  }
  int pick = -1;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i)
    if (!arms_[i].eliminated && (pick < 0 || arms_[i].bound < arms_[pick].bound)) pick = i;
  balance_arm_ = pick;
  return lengthscale_scaling(arms_[pick].g, d);
}

Vec AgpucbStrategy::suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) {
  return suggest(X, y, pending, Mat(0, space_->dim()), trial_index);
}

Vec AgpucbStrategy::suggest(const Mat& X, const Vec& y_raw, const Mat& pending, const Mat& failed, int trial_index) {
  const int n = static_cast<int>(X.rows());
  // normalize: the default BO's robust scaling (any magnitude, extreme outliers tamed) before the GP
  // standardises; the paper models raw values.
  const Vec y = opt_.normalize && y_raw.size() > 0 ? robust_scale_targets(y_raw) : y_raw;
  const int d = space_->dim();
  UnitCubeSpace unit(space_);
  info_ = nlohmann::json::object();
  if (n != y.size()) throw InputError("agpucb: X has " + std::to_string(n) + " rows but y has " +
                                      std::to_string(y.size()) + " values");
  if (n > 0 && X.cols() != d) throw InputError("agpucb: X has the wrong number of columns");
  if (trial_index < config_.n_init || n < 1) {
    // Initial design; past it with no completed trial (all failed): uniform random points.
    info_["phase"] = "initial";
    if (trial_index >= 0 && trial_index < design_.rows()) return unit.from_unit(design_.row(trial_index).transpose());
    Rng rng = make_rng(trial_seed(config_.seed, static_cast<std::uint64_t>(trial_index)));
    return unit.from_unit(unit.sample(1, SamplingMethod::Uniform, rng).row(0).transpose());
  }
  if (n < last_n_) {  // a different (shorter) history: start the schedule afresh
    h_ = 1.0;
    onestep_terms_.clear();
    theta_map_.resize(0);
    arms_.clear();
    arm_log_.clear();
    lb_log_.clear();
  }
  last_n_ = n;

  const Mat U = unit.rows_to_unit(X);
  Mat pendingU(pending.rows(), d);
  for (int i = 0; i < pending.rows(); ++i) pendingU.row(i) = unit.to_unit(pending.row(i).transpose()).transpose();

  if (opt_.combine != MapCombination::None) theta_map_ = fit_map(U, y);

  // p(t): t counts all observations (paper preset) or only the UCB steps, this one included, so that
  // p matches the one-step sum, which has a term per UCB step (with the design counted, the first step
  // alone must "explain" p(n_init) and jumps h).
  const double t = opt_.p_counts_design ? static_cast<double>(n) : static_cast<double>(onestep_terms_.size() + 1);
  const Scaling prev = split_scaling(h_, opt_.lambda, d);
  std::map<double, Candidate> cache;  // trial h → candidate (one-step/wang reuse the final one)
  auto candidate = [&](double h) -> const Candidate& {
    auto it = cache.find(h);
    if (it == cache.end()) it = cache.emplace(h, evaluate_candidate(h, U, y, pendingU, trial_index)).first;
    return it->second;
  };
  double p_t = opt_.p_scale * std::pow(t, opt_.p_exponent);
  double random_regret = std::nan("");
  if (opt_.p_random_cap > 0.0) {
    random_regret = design_regret(y, config_.n_init);
    p_t = std::min(p_t, opt_.p_random_cap * random_regret * t);
  }

  double onestep_sum = 0.0;
  for (double v : onestep_terms_) onestep_sum += v;
  LineSearchResult ls;
  ls.h = h_;
  double estimate = std::nan("");
  switch (opt_.estimator) {
    case RegretEstimator::None:
      break;
    case RegretEstimator::Bound: {
      BoundEstimateInputs in;
      in.t = n;
      in.dim = d;
      in.lambda = opt_.lambda;
      in.B0 = opt_.B0;
      in.noise_std = opt_.noise_std;
      in.delta = opt_.delta;
      in.g_prev = prev.g;
      GP gp = make_fixed_gp(opt_.kernel, theta_for(prev.g), opt_.noise_std * opt_.noise_std, opt_.normalize);
      gp.set_data(U, y);
      in.info_prev = gp.information_gain();
      ls = match_reference([&](double h) { return bound_regret_estimate(h, in); }, p_t, h_, opt_.h_max,
                           opt_.line_search_tol, opt_.line_search_max_evals);
      estimate = bound_regret_estimate(ls.h, in);
      break;
    }
    case RegretEstimator::OneStep:
    case RegretEstimator::Balance:  // the one-step schedule admits the candidates; one is chosen below
    case RegretEstimator::Lb:
      ls = match_reference(
          [&](double h) {
            const Candidate& c = candidate(h);
            return onestep_sum + 2.0 * c.beta_sqrt * c.sigma;
          },
          p_t, h_, opt_.h_max, opt_.line_search_tol, opt_.line_search_max_evals);
      break;
    case RegretEstimator::Wang:
      ls = match_reference([&](double h) { return candidate(h).sigma; }, opt_.kappa, h_, opt_.h_max,
                           opt_.line_search_tol, opt_.line_search_max_evals);
      break;
  }
  h_ = std::max(h_, ls.h);
  std::optional<Candidate> balanced;
  if (opt_.estimator == RegretEstimator::Balance)
    balanced = evaluate_scaling(balance_choice(U, y, split_scaling(h_, opt_.lambda, d).g), U, y, pendingU, trial_index);
  if (opt_.estimator == RegretEstimator::Lb) {
    balanced = evaluate_scaling(lb_choice(U, y, split_scaling(h_, opt_.lambda, d).g), U, y, pendingU, trial_index);
    lb_log_.push_back({balanced->x_unit, balance_arm_, balanced->beta_sqrt * balanced->sigma});
  }
  const Candidate& c = balanced ? *balanced : candidate(h_);
  // lb: g(t) is LB's growth function, so the schedule's sum follows the schedule's own candidate, not the
  // played one (a played long lengthscale with small σ would otherwise drive h, and with it g(t), up).
  const Candidate& term = opt_.estimator == RegretEstimator::Lb ? candidate(h_) : c;
  onestep_terms_.push_back(2.0 * term.beta_sqrt * term.sigma);
  if (opt_.estimator == RegretEstimator::OneStep || opt_.estimator == RegretEstimator::Balance ||
      opt_.estimator == RegretEstimator::Lb)
    estimate = onestep_sum + onestep_terms_.back();

  double log_ratio = 0.0;
  for (int i = 0; i < d; ++i) log_ratio += std::log(theta0_[i] / c.theta[i]);
  info_["phase"] = "agpucb";
  info_["estimator"] = to_string(opt_.estimator);
  info_["t"] = n;
  info_["h"] = c.s.h;
  info_["g"] = c.s.g;
  info_["b"] = c.s.b;
  info_["eps_g"] = c.s.eps_g;
  info_["B_t"] = c.B;
  info_["beta_sqrt"] = c.beta_sqrt;
  info_["beta"] = c.beta_sqrt * c.beta_sqrt;
  info_["theta"] = std::vector<double>(c.theta.data(), c.theta.data() + d);
  if (theta_map_.size() == d) info_["theta_map"] = std::vector<double>(theta_map_.data(), theta_map_.data() + d);
  info_["g_eff"] = std::exp(log_ratio / d);
  info_["info_gain"] = c.info;
  info_["p_t"] = p_t;
  if (opt_.p_random_cap > 0.0) info_["random_regret"] = random_regret;
  if (std::isfinite(estimate)) info_["regret_estimate"] = estimate;
  info_["line_search_evals"] = ls.evaluations;
  info_["h_capped"] = ls.capped;
  info_["sigma_at_x"] = c.sigma;
  if (balanced) {
    nlohmann::json arms = nlohmann::json::array();
    for (const Arm& a : arms_)
      arms.push_back({{"g", a.g}, {"plays", a.plays}, {"bound", a.bound}, {"eliminated", a.eliminated}});
    info_["arms"] = arms;
    info_["arm"] = balance_arm_;
    info_["h_schedule"] = h_;  // the one-step h(t) that admits the candidates
    if (opt_.estimator == RegretEstimator::Balance) arm_log_.emplace_back(c.x_unit, balance_arm_);
  }
  if (pendingU.rows() > 0) info_["fantasy"] = to_string(config_.fantasy);
  // Never suggest a pending point again (with fantasy "none", or when the acquisition's maximiser lands
  // exactly on one): take a uniform random point instead. Evaluated points may be repeated: Algorithm 1
  // re-evaluates a noisy point when UCB says so, and the paper's sequential runs must stay unchanged.
  if (repeats_a_row(pendingU, c.x_unit) || min_row_distance(c.x_unit, unit.rows_to_unit(failed)) < kFailedRadius) {
    info_["repeat_replaced_by_random"] = true;
    Rng rng = make_rng(trial_seed(config_.seed ^ 0x5EEDULL, static_cast<std::uint64_t>(trial_index)));
    return unit.from_unit(unit.sample(1, SamplingMethod::Uniform, rng).row(0).transpose());
  }
  return unit.from_unit(c.x_unit);
}

std::unique_ptr<Strategy> make_agpucb_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space) {
  if (!space) throw InputError("agpucb: no search space given");
  // Either the options themselves or, when module_options also carries other modules' keys, an
  // "agpucb" sub-object.
  const nlohmann::json& mo = config.module_options;
  const nlohmann::json& j = mo.is_object() && mo.contains("agpucb") ? mo["agpucb"] : mo;
  AgpucbOptions o = AgpucbOptions::from_json(j, space->dim());
  return std::make_unique<AgpucbStrategy>(config, std::move(space), std::move(o));
}

}  // namespace kbo
