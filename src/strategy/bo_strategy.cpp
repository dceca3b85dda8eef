// Standard GP-BO step and random search (see include/kbo/bo_strategy.hpp).
#include "kbo/strategy/bo_strategy.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "constant_mean_kernel.hpp"
#include "kbo/acquisition/constraints.hpp"
#include "kbo/acquisition/registry.hpp"
#include "kbo/strategy/target_units.hpp"
#include "kbo/strategy/targets.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/strategy/presets.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Initial lengthscale on the unit cube: the mode of the default Gamma(3, 6) lengthscale prior.
constexpr double kInitialLengthscale = 1.0 / 3.0;

}  // namespace

// ---------------------------------------------------------------- BOStrategy

namespace {
std::vector<NamedKernel> one_kernel(KernelPtr kernel) {
  std::vector<NamedKernel> out;
  if (kernel) out.push_back({std::string(), std::move(kernel)});
  return out;
}
}  // namespace

BOStrategy::BOStrategy(StrategyConfig config, std::shared_ptr<const Space> space, KernelPtr kernel)
    : BOStrategy(std::move(config), std::move(space), one_kernel(std::move(kernel))) {}

BOStrategy::BOStrategy(StrategyConfig config, std::shared_ptr<const Space> space, std::vector<NamedKernel> kernels)
    : config_(std::move(config)), space_(std::move(space)) {
  if (!space_) throw InputError("BOStrategy: no search space");
  if (config_.n_init < 1) throw InputError("--init must be >= 1 (got " + std::to_string(config_.n_init) + ")");
  if (config_.fit_restarts < 0) throw InputError("fit_restarts must be >= 0");
  if (!(config_.beta >= 0.0) || !std::isfinite(config_.beta))
    throw InputError("--beta must be a finite number >= 0 (got " + std::to_string(config_.beta) + ")");
  acquisition_ = &acquisitions().get(config_.acquisition);
  fantasy_ = config_.fantasy;
  if (config_.module_options.contains("rkhs_bound") && config_.module_options["rkhs_bound"].is_number())
    rkhs_bound_ = config_.module_options["rkhs_bound"].get<double>();
  unit_ = std::make_shared<UnitCubeSpace>(space_);
  init_model(std::move(kernels));
  Rng rng = make_rng(config_.seed);
  design_ = unit_->sample(config_.n_init, config_.init_method, rng);
  const std::vector<bool> discrete = unit_->discrete_coordinates();
  continuous_ = std::find(discrete.begin(), discrete.end(), true) == discrete.end();
}

void BOStrategy::init_model(std::vector<NamedKernel> kernels) {
  if (kernels.empty()) kernels.push_back({std::string(), nullptr});
  if (!kernels.front().kernel)
    kernels.front().kernel = make_stationary(config_.kernel, space_->dim(), config_.ard, kInitialLengthscale, 1.0);
  // The options: the user's, then the presets' defaults for the keys not given (presets.hpp).
  const nlohmann::json given = without_removed_bo_keys(config_.module_options.value("bo", nlohmann::json::object()));
  const PresetContext ctx{config_, *space_, *kernels.front().kernel, kernels.size() > 1, ucb_with_constant_beta(), given};
  const nlohmann::json bo = given.is_object() ? apply_model_presets(ctx, &presets_) : given;
  model_options_ = BOModelOptions::from_json(bo);
  noise_from_preset_ = given.is_object() && !given.contains("noise") && bo.is_object() && bo.contains("noise");
  if (model_options_.early_steps > 0 && !ucb_with_constant_beta())
    throw InputError("options.bo.early_steps sets UCB's beta for the first BO steps: it needs --acq ucb with "
                     "--beta-schedule constant (this study has acq '" + config_.acquisition + "', beta schedule '" +
                     enum_name(config_.beta_schedule) + "')");
  schedule_.emplace(config_, model_options_);
  proposer_ = Proposer(config_, *space_, bo);
  step_beta_ = config_.beta;
  // The alternative kernel competes only with a plain stationary kernel of another type, with the same
  // ARD setting, and only where no structure competes: invariant and set kernels carry structure that a
  // stationary one would throw away, and each structure candidate is one model.
  const auto* stationary = dynamic_cast<const StationaryKernel*>(kernels.front().kernel.get());
  const std::string& alt = model_options_.alt_kernel;
  if (kernels.size() == 1 && stationary && alt != "none" &&
      model_kernels().canonical(alt) != to_string(stationary->type()))
    alt_kernel_ = with_constant_mean(model_kernels().get(alt).make(space_->dim(), stationary->ard(), kInitialLengthscale, 1.0),
                                     gls_mean_variance());
  if (alt_kernel_) init_categorical_lengthscales(*alt_kernel_);
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    kernels[k].kernel = with_constant_mean(std::move(kernels[k].kernel), gls_mean_variance());
    init_categorical_lengthscales(*kernels[k].kernel);
    if (k > 0) candidates_.push_back(std::move(kernels[k]));
  }
  kernel_ = std::move(kernels.front().kernel);
  model_ = std::move(kernels.front());
  gp_candidates_.resize(candidates_.size());
}

double BOStrategy::gls_mean_variance() const {
  return model_options_.prior_mean == PriorMean::Gls ? model_options_.constant_mean_variance : 0.0;
}

bool BOStrategy::gp_standardizes() const {
  return model_options_.prior_mean == PriorMean::Gls || model_options_.prior_mean == PriorMean::Sample;
}

Vec BOStrategy::model_targets(const Vec& y, OutputWarp warp) const {
  const BOModelOptions& mo = model_options_;
  Vec z = warp_targets(robust_scale_targets(y), warp, space_->dim());  // any magnitude, extreme outliers tamed
  if (gp_standardizes()) return z;  // the GP standardises about the sample mean (plus the GLS term)
  // A fixed prior mean (a zero-mean GP on z − level): the worst value seen (De Ath et al. 2020) or a quantile.
  return standardize_about(z, quantile_of(z, mo.prior_mean == PriorMean::Worst ? 0.0 : mo.mean_quantile));
}

GP BOStrategy::new_model(KernelPtr kernel) const {
  return GP(std::move(kernel), config_.fixed_noise.value_or(1e-3), /*normalize=*/gp_standardizes(),
            /*learn_noise=*/!config_.fixed_noise.has_value());
}

bool BOStrategy::ucb_with_constant_beta() const {
  return acquisitions().canonical(config_.acquisition) == "ucb" && config_.beta_schedule == BetaSchedule::Constant;
}

std::string BOStrategy::name() const { return "gpucb"; }
nlohmann::json BOStrategy::last_info() const { return info_; }
const GP* BOStrategy::model() const { return gp_ ? &*gp_ : nullptr; }

Vec BOStrategy::random_point(int trial_index) const {
  Rng rng = make_rng(trial_seed(config_.seed, trial_index));
  return unit_->sample(1, SamplingMethod::Uniform, rng).row(0).transpose();
}

int BOStrategy::n_constraints(Eigen::Index rows) const {
  return !constraint_gps_.empty() && constraints_.rows() == rows ? static_cast<int>(constraints_.cols()) : 0;
}

std::vector<bool> BOStrategy::fit_constraints(const Mat& U, int trial_index) {
  const Eigen::Index m = constraints_.rows() == U.rows() ? constraints_.cols() : 0;
  std::vector<bool> feasible(static_cast<std::size_t>(U.rows()), true);
  if (m == 0) return feasible;
  constraint_gps_.resize(static_cast<std::size_t>(m));
  std::vector<std::optional<GP>*> models;
  for (Eigen::Index j = 0; j < m; ++j) {
    auto& g = constraint_gps_[static_cast<std::size_t>(j)];
    if (!g) g.emplace(kernel_->clone(), 1e-3, /*normalize=*/true, /*learn_noise=*/true);
    g->set_data(U, -constraints_.col(j));  // feasible ⇔ −c_j >= 0
    models.push_back(&g);
  }
  refit(models, trial_index);
  for (Eigen::Index i = 0; i < U.rows(); ++i) feasible[static_cast<std::size_t>(i)] = (constraints_.row(i).array() <= 0.0).all();
  return feasible;
}

std::unique_ptr<Acquisition> BOStrategy::make_acquisition(const GP& gp, double incumbent, int n_observed) const {
  const AcquisitionInputs inputs{gp,          incumbent,           n_observed,           space_->dim(),
                                 step_beta_, config_.beta_schedule, rkhs_bound_};
  return acquisition_->make(inputs);
}

Vec BOStrategy::suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) {
  return suggest(X, y, pending, Mat(0, space_->dim()), trial_index);
}

Vec BOStrategy::suggest(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index) {
  const int D = space_->dim();
  if (X.rows() != y.size() || (X.rows() > 0 && X.cols() != D) || (pending.rows() > 0 && pending.cols() != D))
    throw InputError("BOStrategy::suggest: data does not match the space dimension " + std::to_string(D));
  info_ = nlohmann::json::object();
  info_["trial_index"] = trial_index;
  std::optional<Vec> u =
      opening_point(design_, config_.n_init, X.rows(), trial_index, [&] { return random_point(trial_index); }, info_);
  if (!u) {
    u = bo_step(X, y, pending, failed, trial_index);
    if (replicate_row_) {
      const Vec x = X.row(*replicate_row_).transpose();
      replicate_row_.reset();
      return x;
    }
  }
  Vec x = space_->bounds().clamp(unit_->from_unit(*u));
  space_->canonicalize(x);
  return x;
}

// One BO step, stage by stage: the data in the GP's units, the surrogate's update, the constraints and the
// incumbent, pending and failed points as fantasies, the schedule's plan, then a local step or the
// acquisition maximised from the Proposer's starts.
Vec BOStrategy::bo_step(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index) {
  const auto t0 = Clock::now();
  const int n = static_cast<int>(X.rows());
  observations_ = n;
  replicates_ = replicate_verdict(X, y);
  replicate_due_ = false;
  if (replicates_ == ReplicateVerdict::Exact) noisy_ = false;  // a repeated value proves the objective deterministic
  const StepData d = step_data(X, y, trial_index);
  const double objective = update_surrogate(d, n, trial_index);
  const std::vector<bool> feasible = fit_constraints(d.U, trial_index);
  const int m = n_constraints(X.rows());
  // With noisy observations the best one is partly a lucky draw: the incumbent is the observed point of
  // the best posterior mean (at an exact model's observations the two agree).
  const Incumbent inc = find_incumbent(noisy_ ? Vec(gp_->predict(d.U).mean) : d.yt, y, feasible);
  const double fit_seconds = seconds_since(t0);
  if (replicate_due_ && !contains_row(pending, X.row(inc.row).transpose())) {
    // The noise test: the incumbent again (suggest returns its row of X as it was, bit for bit).
    replicate_row_ = inc.row;
    info_["noise"]["replicate"] = true;
    info_["fit_seconds"] = fit_seconds;
    return d.U.row(inc.row).transpose();
  }
  // Pending points enter as fantasies on a copy of the fitted model (same θ, the factor extended).
  const Conditioning cond = conditioning(pending, failed);
  std::optional<GP> fantasy;
  if (cond.any()) fantasy.emplace(cond.apply(*gp_));
  const GP& model = fantasy ? *fantasy : *gp_;

  const auto t1 = Clock::now();
  const StepPlan plan = schedule_->plan(trial_index, budget_);
  step_beta_ = plan.beta;
  if (plan.endgame) info_["endgame"] = {{"mode", "local"}, {"remaining_share", *plan.endgame}};
  // A local step on plain continuous data only (no pending, failed points or constraints, no discrete
  // coordinates); a degenerate neighbourhood falls back to the global step.
  std::optional<Vec> local_u;
  if (plan.local && cond.pending.rows() == 0 && cond.failed.rows() == 0 && m == 0 && continuous_)
    local_u = local_step(d.U, y, inc.row, trial_index);
  std::unique_ptr<Acquisition> acq;
  if (!local_u) acq = make_acquisition(model, inc.target, n);
  if (m > 0 && !local_u) acq = constrained(std::move(acq), feasible, inc.feasible);
  AcqOptimizerOptions opt = config_.acq_optimizer;
  opt.seed = trial_seed(config_.seed ^ 0xACCULL, trial_index);
  OptResult res;
  std::string step_kernel = model_.name;  // the kernel whose model took this step
  if (local_u) {
    res.x = *local_u;
  } else {
    const Vec incumbent_u = d.U.row(inc.row).transpose();
    const ProposalContext ctx{*space_, *unit_, *acq, incumbent_u, d.U, d.yt, config_.seed, trial_index};
    res = proposer_.propose(ctx, opt, info_);
  }
  record_step(plan, acq.get(), res, local_u.has_value(), objective, step_kernel, cond, static_cast<int>(pending.rows()));
  info_["fit_seconds"] = fit_seconds;
  info_["acq_seconds"] = seconds_since(t1);
  Vec u = res.x;
  if (!u.allFinite() || min_row_distance(u, cond.pending) < kRepeatTolerance || min_row_distance(u, d.U) < kRepeatTolerance ||
      min_row_distance(u, cond.failed) < kFailedRadius) {
    info_["repeat_replaced_by_random"] = true;
    u = random_point(trial_index);
  }
  return u;
}

BOStrategy::StepData BOStrategy::step_data(const Mat& X, const Vec& y, int trial_index) {
  StepData d;
  d.U = unit_->rows_to_unit(X);
  d.yt = model_targets(y, model_options_.output_warp);  // the GP's targets; acquisitions see the same units
  if (sem_.size() == y.size() && sem_.size() > 0) d.noise = sem_in_target_units(y, d.yt, sem_).array().square();
  d.subset = uses_subset_model(static_cast<int>(X.rows()));
  if (!d.subset) {
    d.Um = d.U;
    d.ym = d.yt;
    d.noise_m = d.noise;
    return d;
  }
  // The subset of data around the best (feasible) observation (bo_subsets.cpp).
  const bool constrained = constraints_.rows() == d.U.rows() && constraints_.cols() > 0;
  Eigen::Index top = -1;
  for (Eigen::Index i = 0; i < d.yt.size(); ++i)
    if ((!constrained || (constraints_.row(i).array() <= 0.0).all()) && (top < 0 || d.yt[i] > d.yt[top])) top = i;
  if (top < 0) d.yt.maxCoeff(&top);
  const std::vector<Eigen::Index> rows = subset_model_rows(d.U, top, trial_index);
  d.Um = d.U(rows, Eigen::all);
  d.ym = d.yt(rows);
  if (d.noise.size() > 0) d.noise_m = d.noise(rows);
  info_["model"] = {{"kind", "subset"}, {"rows", d.Um.rows()}};
  return d;
}

double BOStrategy::update_surrogate(const StepData& d, int n, int trial_index) {
  const Refit due = refit_due(n);
  if (due == Refit::None) {
    // Same θ: the new rows join the factor in O(n²) (a subset moves with the incumbent: one factorisation).
    auto update = [&](GP& g) {
      if (d.subset)
        g.set_data(d.Um, d.ym, d.noise_m);
      else
        extend_model(g, d.U, d.yt, d.noise);
    };
    update(*gp_);
    info_["refit"] = "none";
    return refit_objective_;
  }
  const bool warm = due == Refit::Warm;  // between full refits: one short run from the current θ
  const double objective = fit_surrogate(d, warm, trial_index);
  if (!warm) refit_n_ = n;  // the schedule counts from the last full refit
  refit_objective_ = objective;
  info_["refit"] = warm ? "warm" : "full";
  return objective;
}

double BOStrategy::fit_surrogate(const StepData& d, bool warm, int trial_index) {
  // θ is fitted on at most fit_subset of the model's rows, then the model conditions on all of them.
  const std::vector<Eigen::Index> fit_on = fit_rows(d.Um.rows(), trial_index);
  const Mat Uf = fit_on.empty() ? Mat() : Mat(d.Um(fit_on, Eigen::all));
  const Vec yf = fit_on.empty() ? Vec() : Vec(d.ym(fit_on));
  const Vec nf = fit_on.empty() || d.noise_m.size() == 0 ? Vec() : Vec(d.noise_m(fit_on));
  const Mat& UF = fit_on.empty() ? d.Um : Uf;
  const Vec& yF = fit_on.empty() ? d.ym : yf;
  const Vec& nF = fit_on.empty() ? d.noise_m : nf;
  if (!fit_on.empty()) info_["fit_rows"] = UF.rows();
  // A kernel defined around a centre (the aligned set kernel) follows the incumbent: near it the model is
  // the plain one, and the pairing's seams stay away from where the next steps are taken.
  Eigen::Index top;
  d.ym.maxCoeff(&top);
  recentre_models(d.Um.row(top).transpose());
  if (!gp_) gp_.emplace(new_model(kernel_->clone()));
  gp_->set_data(UF, yF, nF);  // warm start: keeps the previous fit's hyperparameters
  double objective;
  if (!candidates_.empty()) {
    // Structure by evidence: every candidate kernel's model is refitted (warm-started from its own fit).
    std::vector<std::optional<GP>*> models{&gp_};
    for (std::size_t k = 0; k < candidates_.size(); ++k) {
      if (!gp_candidates_[k]) gp_candidates_[k].emplace(new_model(candidates_[k].kernel->clone()));
      gp_candidates_[k]->set_data(UF, yF, nF);
      models.push_back(&gp_candidates_[k]);
    }
    objective = choose_by_evidence(models, refit(models, trial_index, warm));
  } else if (alt_kernel_) {
    // Kernel smoothness by evidence: the better MAP objective wins; the loser stays as the alternative.
    if (!gp_alt_) gp_alt_.emplace(new_model(alt_kernel_->clone()));
    gp_alt_->set_data(UF, yF, nF);
    const std::vector<double> obj = refit({&gp_, &gp_alt_}, trial_index, warm);
    objective = obj[0];
    if (obj[1] > obj[0]) std::swap(gp_, gp_alt_), objective = obj[1], alt_leads_ = !alt_leads_;
  } else {
    objective = refit({&gp_}, trial_index, warm)[0];
  }
  if (model_options_.noise == NoiseModel::Infer && !warm && gp_->learns_noise() && replicates_ != ReplicateVerdict::Exact)
    objective = infer_noise(trial_index, objective);
  if (!fit_on.empty()) {
    gp_->set_data(d.Um, d.ym, d.noise_m);  // the fitted θ, conditioned on every row
  }
  return objective;
}

double BOStrategy::choose_by_evidence(const std::vector<std::optional<GP>*>& models, const std::vector<double>& obj) {
  // Each candidate is fitted by its MAP objective, but they are compared by the log marginal likelihood at
  // that θ: the hyperprior's log density is not comparable between kernels with different numbers of
  // parameters (the flat ARD kernel pays a prior term per lengthscale, a tied structured kernel one), and
  // with it a wrong declared symmetry won most steps (docs/bench/structure.md).
  std::vector<double> evidence(models.size());
  for (std::size_t k = 0; k < models.size(); ++k) evidence[k] = (*models[k])->log_marginal_likelihood();
  double objective = obj[0], best_evidence = evidence[0];
  nlohmann::json objectives = {{model_.name, evidence[0]}};
  std::size_t winner = 0;
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    objectives[candidates_[k].name] = evidence[k + 1];
    if (evidence[k + 1] > best_evidence) best_evidence = evidence[k + 1], objective = obj[k + 1], winner = k + 1;
  }
  if (winner > 0) {  // the winner models; the others stay candidates
    NamedKernel& c = candidates_[winner - 1];
    std::swap(gp_, gp_candidates_[winner - 1]);
    std::swap(kernel_, c.kernel);
    std::swap(model_.name, c.name);
    std::swap(model_.lends_chart, c.lends_chart);
  }
  info_["kernel_objectives"] = objectives;
  return objective;
}

BOStrategy::Incumbent BOStrategy::find_incumbent(const Vec& yt, const Vec& y, const std::vector<bool>& feasible) const {
  Incumbent inc;
  Eigen::Index best = -1;
  for (Eigen::Index i = 0; i < yt.size(); ++i)
    if (feasible[static_cast<std::size_t>(i)] && (best < 0 || yt[i] > yt[best])) best = i;
  inc.feasible = best >= 0;
  if (!inc.feasible) y.maxCoeff(&best);
  inc.row = best;
  inc.target = yt[best];
  return inc;
}

bool BOStrategy::Conditioning::any() const {
  return (failed.rows() > 0 && failed_mode != FantasyMode::None) || (pending.rows() > 0 && pending_mode != FantasyMode::None);
}

GP BOStrategy::Conditioning::apply(const GP& g) const {
  // Failed points first (BOModelOptions::failed_points), then the pending ones (config.fantasy).
  GP out = failed.rows() > 0 && failed_mode != FantasyMode::None ? condition_on_pending(g, failed, failed_mode) : g;
  return pending.rows() > 0 && pending_mode != FantasyMode::None ? condition_on_pending(out, pending, pending_mode) : out;
}

BOStrategy::Conditioning BOStrategy::conditioning(const Mat& pending, const Mat& failed) const {
  const int D = space_->dim();
  Conditioning c;
  c.pending = pending.rows() > 0 ? unit_->rows_to_unit(pending) : Mat(0, D);
  c.failed = failed.rows() > 0 ? unit_->rows_to_unit(failed) : Mat(0, D);
  c.failed_mode = model_options_.failed_points == FailedPoints::Worst     ? FantasyMode::LiarWorst
                  : model_options_.failed_points == FailedPoints::Pending ? fantasy_
                                                                          : FantasyMode::None;
  c.pending_mode = fantasy_;
  return c;
}

std::unique_ptr<Acquisition> BOStrategy::constrained(std::unique_ptr<Acquisition> acq, const std::vector<bool>& feasible,
                                                     bool any_feasible) {
  const int m = static_cast<int>(constraints_.cols());
  std::vector<std::unique_ptr<Acquisition>> pof;
  for (int j = 0; j < m; ++j) pof.push_back(log_probability_of_feasibility(*constraint_gps_[static_cast<std::size_t>(j)]));
  info_["constraints"] = {{"n", m},
                          {"feasible_points", std::count(feasible.begin(), feasible.end(), true)},
                          {"objective", any_feasible ? "acquisition + log P(feasible)" : "log P(feasible)"}};
  return std::make_unique<ConstrainedAcquisition>(any_feasible ? std::move(acq) : nullptr, std::move(pof));
}

void BOStrategy::record_step(const StepPlan& plan, const Acquisition* acq, const OptResult& res, bool local,
                             double objective, const std::string& step_kernel, const Conditioning& cond, int n_pending) {
  const Vec theta = gp_->hyperparameters();
  info_["theta"] = std::vector<double>(theta.data(), theta.data() + theta.size());
  info_["theta_names"] = gp_->hyperparameter_names();
  info_["kernel"] = gp_->kernel().describe();
  if (!candidates_.empty()) info_["kernel_choice"] = step_kernel;  // a structure chosen by evidence
  info_["fit_objective"] = objective;
  if (!local) info_["acq_value"] = res.value;
  if (auto* ucb = dynamic_cast<const UpperConfidenceBound*>(acq)) {
    info_["beta"] = ucb->beta();
    if (plan.early) info_["early_step"] = true;
  }
  const bool fantasies = cond.any() && fantasy_ != FantasyMode::None;
  info_["n_fantasies"] = fantasies ? n_pending : 0;
  if (fantasies && cond.pending.rows() > 0) info_["fantasy"] = to_string(fantasy_);
  if (cond.failed.rows() > 0)
    info_["failed_points"] = {{"n", cond.failed.rows()}, {"model", enum_name(model_options_.failed_points)}};
}

void BOStrategy::recentre_models(const Vec& centre) {
  for (KernelPtr* k : {&kernel_, &alt_kernel_})
    if (*k) (*k)->recentre(centre);
  for (std::optional<GP>* g : {&gp_, &gp_alt_})
    if (*g) (*g)->kernel().recentre(centre);
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    candidates_[k].kernel->recentre(centre);
    if (gp_candidates_[k]) gp_candidates_[k]->kernel().recentre(centre);
  }
}

// ---------------------------------------------------------------- RandomStrategy

RandomStrategy::RandomStrategy(StrategyConfig config, std::shared_ptr<const Space> space)
    : config_(std::move(config)), space_(std::move(space)) {
  if (!space_) throw InputError("RandomStrategy: no search space");
}

Vec RandomStrategy::suggest(const Mat& /*X*/, const Vec& /*y*/, const Mat& /*pending*/, int trial_index) {
  Rng rng = make_rng(trial_seed(config_.seed, trial_index));
  return space_->sample(1, SamplingMethod::Uniform, rng).row(0).transpose();
}

}  // namespace kbo
