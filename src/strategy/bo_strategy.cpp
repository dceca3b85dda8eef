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
#include "kbo/strategy/targets.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/model/kernels/stationary.hpp"
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

BOStrategy::BOStrategy(StrategyConfig config, std::shared_ptr<const Space> space, KernelPtr kernel)
    : config_(std::move(config)), space_(std::move(space)) {
  if (!space_) throw InputError("BOStrategy: no search space");
  if (config_.n_init < 1) throw InputError("--init must be >= 1 (got " + std::to_string(config_.n_init) + ")");
  if (config_.fit_restarts < 0) throw InputError("fit_restarts must be >= 0");
  if (!(config_.beta >= 0.0) || !std::isfinite(config_.beta))
    throw InputError("--beta must be a finite number >= 0 (got " + std::to_string(config_.beta) + ")");
  acquisition_ = &acquisitions().get(config_.acquisition);
  fantasy_ = config_.fantasy;
  nlohmann::json bo = config_.module_options.value("bo", nlohmann::json::object());
  if (kernel && !dynamic_cast<const StationaryKernel*>(kernel.get()) && bo.is_object()) {
    // The noise cap and the end-game were chosen on plain kernels (BBOB, long runs: docs/bench/scale.md
    // and bbob.md); set and invariant kernels keep the defaults their benches measured unless told. The
    // end-game cost set kernels without a chart (docs/bench/structure.md). An invariant or set kernel with a
    // local chart (a group of isometries, or element orderings: Kernel::local_chart, asked here with no rows)
    // takes it with its local steps in the chart, which polish as precisely as the flat GP's; without the
    // chart the end-game was mixed (structure.md, updates 6, 7 and 9). Its share is 0.34 at every dimension (the plain model's 2-d share
    // was not measured for invariant kernels), and its local GP has the plain model's noise cap 0.01: with
    // the global cap 1 the local fit on a noisy objective took the ruggedness for noise and sampled the
    // region's far corners (kbo bench invariance, Ackley-2d-fpf: regret 382 against 216).
    Mat no_rows(0, space_->dim());
    const bool chart = kernel->local_chart(Vec::Constant(space_->dim(), 0.5), no_rows) != nullptr;
    if (!bo.contains("noise_cap")) bo["noise_cap"] = 1.0;
    if (!bo.contains("endgame_fraction")) bo["endgame_fraction"] = chart ? 0.34 : 0.0;
    if (!bo.contains("local_chart")) bo["local_chart"] = chart;
    // (A noise floor the user raised to 0.01 or above leaves the local GP the global cap.)
    const double floor = bo.value("noise_floor", BOModelOptions{}.noise_floor);
    if (chart && !bo.contains("local_noise_cap") && floor < 0.01) bo["local_noise_cap"] = 0.01;
  }
  model_options_ = BOModelOptions::from_json(bo);
  if (model_options_.early_steps > 0 && !ucb_with_constant_beta())
    throw InputError("options.bo.early_steps sets UCB's beta for the first BO steps: it needs --acq ucb with "
                     "--beta-schedule constant (this study has acq '" + config_.acquisition + "', beta schedule '" +
                     enum_name(config_.beta_schedule) + "')");
  step_beta_ = config_.beta;
  if (config_.module_options.contains("rkhs_bound") && config_.module_options["rkhs_bound"].is_number())
    rkhs_bound_ = config_.module_options["rkhs_bound"].get<double>();
  unit_ = std::make_shared<UnitCubeSpace>(space_);
  if (!kernel) kernel = make_stationary(config_.kernel, space_->dim(), config_.ard, kInitialLengthscale, 1.0);
  // The alternative kernel competes only with a plain stationary kernel of another type, with the same
  // ARD setting: invariant and set kernels carry structure that a stationary one would throw away.
  const auto* stationary = dynamic_cast<const StationaryKernel*>(kernel.get());
  const std::string& alt = model_options_.alt_kernel;
  if (stationary && alt != "none" && model_kernels().canonical(alt) != to_string(stationary->type())) {
    alt_kernel_ = with_constant_mean(model_kernels().get(alt).make(space_->dim(), stationary->ard(), kInitialLengthscale, 1.0),
                                     gls_mean_variance());
  }
  kernel_ = with_constant_mean(std::move(kernel), gls_mean_variance());
  init_categorical_lengthscales(*kernel_);
  if (alt_kernel_) init_categorical_lengthscales(*alt_kernel_);
  Rng rng = make_rng(config_.seed);
  design_ = unit_->sample(config_.n_init, config_.init_method, rng);
  const std::vector<bool> discrete = unit_->discrete_coordinates();
  continuous_ = std::find(discrete.begin(), discrete.end(), true) == discrete.end();
}

BOStrategy::BOStrategy(StrategyConfig config, std::shared_ptr<const Space> space, std::vector<NamedKernel> kernels)
    : BOStrategy(std::move(config), std::move(space),
                 kernels.empty() ? KernelPtr() : std::move(kernels.front().kernel)) {
  if (kernels.empty()) return;
  model_name_ = kernels.front().name;
  splits_coincident_ = kernels.front().splits_coincident;
  for (std::size_t k = 1; k < kernels.size(); ++k) {
    kernels[k].kernel = with_constant_mean(std::move(kernels[k].kernel), gls_mean_variance());
    init_categorical_lengthscales(*kernels[k].kernel);
    candidates_.push_back(std::move(kernels[k]));
  }
  gp_candidates_.resize(candidates_.size());
  // A small set space with structure chosen by evidence explores first (BOModelOptions::early_steps) unless
  // told: measured with UCB's constant β only, 10 of 40 BO steps; a shorter known budget gets a quarter of
  // its BO steps (set_budget). Up to kEarlyStepsMaxDim coordinates: it won the 8- and 9-coordinate problems
  // of kbo bench structure over 90 seeds, was level on kbo bench sets' 20- to 640-coordinate ones and lost
  // blobs k-means (50 coordinates, 0.119 against 0.071; docs/bench/structure.md).
  // The same spaces refuse sets with coincident elements unless told (BOModelOptions::avoid_coincident): the
  // wide early steps chase the orbit average's variance ridge, and refusing it won k-means and covering over
  // 90 seeds; on kbo bench sets' larger sets, whose objectives reward coincident elements, it lost
  // (docs/bench/structure.md).
  const nlohmann::json bo = config_.module_options.value("bo", nlohmann::json::object());
  if (!candidates_.empty() && space_->element_layout() && space_->dim() <= kEarlyStepsMaxDim &&
      ucb_with_constant_beta()) {
    if (!bo.contains("early_steps")) {
      model_options_.early_steps = 10;
      early_steps_scale_with_budget_ = true;
    }
    if (!bo.contains("avoid_coincident")) model_options_.avoid_coincident = true;
  }
  // With a choice of structure the smoothness alternative stays out: each candidate is one model.
  if (!candidates_.empty()) alt_kernel_.reset();
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

std::optional<double> BOStrategy::endgame_remaining(int trial_index) const {
  const double f = model_options_.endgame_fraction_at(space_->dim());
  if (!(f > 0.0) || !budget_ || trial_index < config_.n_init || trial_index >= *budget_) return std::nullopt;
  const int steps = static_cast<int>(std::ceil(f * std::max(*budget_ - config_.n_init, 0)));
  const int remaining = *budget_ - trial_index - 1;  // trials after this one
  if (steps <= 0 || remaining >= steps) return std::nullopt;
  return static_cast<double>(remaining) / steps;
}

bool BOStrategy::is_local_trial(int t) const {
  if (t < config_.n_init) return false;
  const std::optional<double> endgame = endgame_remaining(t);
  if (endgame && model_options_.endgame == Endgame::Local) return true;
  const int every = model_options_.local_every;
  return every > 0 && t >= model_options_.local_above && (t - config_.n_init + 1) % every == 0;
}

std::string BOStrategy::name() const { return "gpucb"; }
nlohmann::json BOStrategy::last_info() const { return info_; }
const GP* BOStrategy::model() const { return gp_ ? &*gp_ : nullptr; }

Vec BOStrategy::random_point(int trial_index) const {
  Rng rng = make_rng(trial_seed(config_.seed, trial_index));
  return unit_->sample(1, SamplingMethod::Uniform, rng).row(0).transpose();
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

std::unique_ptr<Acquisition> BOStrategy::make_acquisition(const GP& gp, double incumbent, int n_observed,
                                                         double beta_scale) const {
  const AcquisitionInputs inputs{gp,          incumbent,           n_observed,           space_->dim(),
                                 step_beta_ * beta_scale, config_.beta_schedule, rkhs_bound_};
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
  // Options that act only on some models are refused elsewhere, not ignored (checked here: the candidates
  // are known only once the constructors have run).
  if (model_options_.structure_averaging != StructureAveraging::Off && candidates_.empty())
    throw InputError("options.bo.structure_averaging needs a structure chosen by evidence (--set-kernel auto or "
                     "--invariant-kernel auto); this model has one kernel");
  if ((model_options_.pair_moves || model_options_.recombination_sets > 0) && !space_->element_layout())
    throw InputError("options.bo.pair_moves and recombination_sets act on set spaces only (--space set)");
  if (model_options_.avoid_coincident && !space_->element_layout())
    throw InputError("options.bo.avoid_coincident acts on set spaces only (--space set)");

  Vec u;
  if (trial_index < config_.n_init) {
    info_["phase"] = "init";
    u = design_.row(trial_index).transpose();
  } else if (X.rows() < 2) {
    info_["phase"] = "random";  // too few completed trials to fit a model (initial points failed)
    u = random_point(trial_index);
  } else {
    info_["phase"] = "bo";
    const Mat U = unit_->rows_to_unit(X);
    const auto t0 = Clock::now();
    const Vec yt = model_targets(y, model_options_.output_warp);  // the GP's targets; acquisitions see the same units
    const int n = static_cast<int>(X.rows());
    observations_ = n;
    // The rows the model conditions on: all, or above the threshold a subset of data (bo_subsets.cpp)
    // around the best (feasible) observation.
    const bool subset_model = uses_subset_model(n);
    Mat Usub;
    Vec ysub;
    if (subset_model) {
      const bool constrained = constraints_.rows() == U.rows() && constraints_.cols() > 0;
      Eigen::Index top = -1;
      for (Eigen::Index i = 0; i < yt.size(); ++i)
        if ((!constrained || (constraints_.row(i).array() <= 0.0).all()) && (top < 0 || yt[i] > yt[top])) top = i;
      if (top < 0) yt.maxCoeff(&top);
      const std::vector<Eigen::Index> rows = subset_model_rows(U, top, trial_index);
      Usub = U(rows, Eigen::all);
      ysub = yt(rows);
      info_["model"] = {{"kind", "subset"}, {"rows", Usub.rows()}};
    }
    const Mat& Um = subset_model ? Usub : U;
    const Vec& ym = subset_model ? ysub : yt;
    double objective;
    const Refit due = refit_due(n);
    const bool warm = due == Refit::Warm;  // between full refits: one short run from the current θ
    if (due == Refit::None) {
      if (subset_model)
        gp_->set_data(Um, ym);  // same θ, the rows move with the incumbent: one factorisation of the subset
      else
        extend_model(*gp_, U, yt);  // same θ: O(n²)
      if (model_options_.structure_averaging != StructureAveraging::Off)  // the averaged candidates see the rows too
        for (auto& g : gp_candidates_) {
          if (!g) continue;
          if (subset_model)
            g->set_data(Um, ym);
          else
            extend_model(*g, U, yt);
        }
      objective = refit_objective_;
      info_["refit"] = "none";
    } else {
      // θ is fitted on at most fit_subset of the model's rows, then the model conditions on all of them.
      const std::vector<Eigen::Index> fit_on = fit_rows(Um.rows(), trial_index);
      const Mat Uf = fit_on.empty() ? Mat() : Mat(Um(fit_on, Eigen::all));
      const Vec yf = fit_on.empty() ? Vec() : Vec(ym(fit_on));
      const Mat& UF = fit_on.empty() ? Um : Uf;
      const Vec& yF = fit_on.empty() ? ym : yf;
      if (!fit_on.empty()) info_["fit_rows"] = UF.rows();
      // A kernel defined around a centre (the aligned set kernel) follows the incumbent: near it the model is
      // the plain one, and the pairing's seams stay away from where the next steps are taken.
      Eigen::Index top;
      ym.maxCoeff(&top);
      recentre_models(Um.row(top).transpose());
      if (!gp_) gp_.emplace(new_model(kernel_->clone()));
      gp_->set_data(UF, yF);  // warm start: keeps the previous fit's hyperparameters
      if (!candidates_.empty()) {
        // Structure by evidence: every candidate kernel's model is refitted (warm-started from its own
        // previous fit) and the highest log marginal likelihood models; the others stay as candidates.
        std::vector<std::optional<GP>*> models{&gp_};
        for (std::size_t k = 0; k < candidates_.size(); ++k) {
          if (!gp_candidates_[k]) gp_candidates_[k].emplace(new_model(candidates_[k].kernel->clone()));
          gp_candidates_[k]->set_data(UF, yF);
          models.push_back(&gp_candidates_[k]);
        }
        const std::vector<double> obj = refit(models, trial_index, warm);
        // Each candidate is fitted by its MAP objective, but they are compared by the log marginal likelihood
        // at that θ: the hyperprior's log density is not comparable between kernels with different numbers
        // of parameters (the flat ARD kernel pays a prior term per lengthscale, a tied structured kernel one),
        // and with it a wrong declared symmetry won most steps (docs/bench/structure.md).
        std::vector<double> evidence(models.size());
        for (std::size_t k = 0; k < models.size(); ++k) evidence[k] = (*models[k])->log_marginal_likelihood();
        objective = obj[0];
        double best_evidence = evidence[0];
        nlohmann::json objectives = {{model_name_, evidence[0]}};
        std::size_t winner = 0;
        for (std::size_t k = 0; k < candidates_.size(); ++k) {
          objectives[candidates_[k].name] = evidence[k + 1];
          if (evidence[k + 1] > best_evidence) best_evidence = evidence[k + 1], objective = obj[k + 1], winner = k + 1;
        }
        if (winner > 0) {
          std::swap(gp_, gp_candidates_[winner - 1]);
          std::swap(model_name_, candidates_[winner - 1].name);
          std::swap(kernel_, candidates_[winner - 1].kernel);
          std::swap(splits_coincident_, candidates_[winner - 1].splits_coincident);
        }
        info_["kernel_objectives"] = objectives;
      } else if (alt_kernel_) {
        // Kernel smoothness by evidence: the alternative kernel's model is refitted too (warm-started from
        // its own previous fit) and the better MAP objective wins; the loser stays as the alternative.
        if (!gp_alt_) gp_alt_.emplace(new_model(alt_kernel_->clone()));
        gp_alt_->set_data(UF, yF);
        const std::vector<double> obj = refit({&gp_, &gp_alt_}, trial_index, warm);
        objective = obj[0];
        if (obj[1] > obj[0]) std::swap(gp_, gp_alt_), objective = obj[1], alt_leads_ = !alt_leads_;
      } else {
        objective = refit({&gp_}, trial_index, warm)[0];
      }
      if (!fit_on.empty()) {
        gp_->set_data(Um, ym);  // the fitted θ, conditioned on every row
        if (model_options_.structure_averaging != StructureAveraging::Off)
          for (auto& g : gp_candidates_)
            if (g) g->set_data(Um, ym);
      }
      if (!warm) refit_n_ = n;  // the schedule counts from the last full refit
      refit_objective_ = objective;
      info_["refit"] = warm ? "warm" : "full";
    }
    const std::vector<bool> feasible = fit_constraints(U, trial_index);
    const int m = static_cast<int>(constraint_gps_.size()) > 0 && constraints_.rows() == X.rows()
                      ? static_cast<int>(constraints_.cols())
                      : 0;
    // The incumbent (EI/PI) and the extra start: the best FEASIBLE observation (any, without constraints).
    Eigen::Index best = -1;
    for (Eigen::Index i = 0; i < yt.size(); ++i)
      if (feasible[static_cast<std::size_t>(i)] && (best < 0 || yt[i] > yt[best])) best = i;
    const bool any_feasible = best >= 0;
    if (!any_feasible) y.maxCoeff(&best);
    const double incumbent = yt[best];
    const double fit_seconds = seconds_since(t0);

    // Pending points enter as fantasies (config.fantasy) on a copy of the fitted model: same θ and
    // normalisation, the factor extended by one row/column per point (no refit).
    // Failed points first (BOModelOptions::failed_points), then the pending ones.
    const Mat Pu = pending.rows() > 0 ? unit_->rows_to_unit(pending) : Mat(0, D);
    const Mat Fu = failed.rows() > 0 ? unit_->rows_to_unit(failed) : Mat(0, D);
    const FantasyMode failed_mode = model_options_.failed_points == FailedPoints::Worst     ? FantasyMode::LiarWorst
                                    : model_options_.failed_points == FailedPoints::Pending ? fantasy_
                                                                                            : FantasyMode::None;
    const bool conditions = (Fu.rows() > 0 && failed_mode != FantasyMode::None) ||
                            (Pu.rows() > 0 && fantasy_ != FantasyMode::None);
    auto condition = [&](const GP& g) {
      GP out = Fu.rows() > 0 && failed_mode != FantasyMode::None ? condition_on_pending(g, Fu, failed_mode) : g;
      return Pu.rows() > 0 && fantasy_ != FantasyMode::None ? condition_on_pending(out, Pu, fantasy_) : out;
    };
    const GP* model = &*gp_;
    std::optional<GP> fantasy;
    if (conditions) {
      fantasy.emplace(condition(*gp_));
      model = &*fantasy;
    }

    const auto t1 = Clock::now();
    // Local trust-region step (bo_local.cpp): on plain continuous data only (no pending, failed points or
    // constraints, no discrete coordinates); a degenerate neighbourhood falls back to the global step.
    std::optional<Vec> local_u;
    // The end-game (BOModelOptions::endgame_fraction): the last BO steps of a known budget.
    const std::optional<double> endgame_share = endgame_remaining(trial_index);
    // Exploration first (BOModelOptions::early_steps): every acquisition of this step takes early_beta.
    int early_steps = model_options_.early_steps;
    if (early_steps_scale_with_budget_ && budget_)
      early_steps = std::min(early_steps, std::max(*budget_ - config_.n_init, 0) / 4);
    const bool early = !endgame_share && trial_index - config_.n_init < early_steps;
    step_beta_ = early ? model_options_.early_beta : config_.beta;
    if (endgame_share) info_["endgame"] = {{"mode", enum_name(model_options_.endgame)}, {"remaining_share", *endgame_share}};
    if (is_local_trial(trial_index) && Pu.rows() == 0 && Fu.rows() == 0 && m == 0 && continuous_) {
      // A stalled trust region (local_restart, local_restart_global): this step is global and the region
      // restarts after it (a region-only restart is replayed inside local_step).
      const std::optional<TrustRegion> region =
          model_options_.local_radius > 0.0 && model_options_.local_restart > 0 ? std::optional(replay_region(y, D))
                                                                                  : std::nullopt;
      if (region && region->restart_due)
        info_["local"] = {{"model", "global"}, {"restart", true}, {"trust_region", describe_region(*region)}};
      else
        local_u = local_step(U, y, best, trial_index);
    }
    std::unique_ptr<Acquisition> acq;
    std::vector<GP> draws;  // must outlive acq
    // Periodic exploitation (BOModelOptions::exploit_every): this step takes the model's best guess.
    const int every = model_options_.exploit_every;
    const bool exploit = every > 0 && (trial_index - config_.n_init + 1) % every == 0;
    if (!local_u && !exploit && model_options_.hmc_max_n > 0 && X.rows() <= model_options_.hmc_max_n && acquisition_->hmc_average) {
      draws = hmc_models(trial_index);
      if (conditions)
        for (auto& m : draws) m = condition(m);
    }
    if (local_u) {
      // the local step's acquisition was maximised in local_step
    } else if (exploit) {
      acq = std::make_unique<UpperConfidenceBound>(*model, model_options_.exploit_beta);
      info_["exploit"] = true;
    } else if (!draws.empty()) {
      std::vector<std::unique_ptr<Acquisition>> parts;
      for (const GP& d : draws) parts.push_back(make_acquisition(d, incumbent, static_cast<int>(X.rows())));
      acq = std::make_unique<AveragedAcquisition>(std::move(parts));
      info_["hmc_draws"] = draws.size();
      info_["hmc_step"] = hmc_.step_size;
    } else {
      // End-game decay: UCB's β scaled by the share of the end-game still to come.
      const double beta_scale = endgame_share && model_options_.endgame == Endgame::Decay ? *endgame_share : 1.0;
      acq = make_acquisition(*model, incumbent, static_cast<int>(X.rows()), beta_scale);
      if (model_options_.structure_averaging != StructureAveraging::Off && !candidates_.empty() && !conditions)
        if (auto averaged = structure_averaged_acquisition(incumbent, static_cast<int>(X.rows()), beta_scale))
          acq = std::move(averaged);
    }
    if (m > 0 && !local_u) {
      std::vector<std::unique_ptr<Acquisition>> pof;
      for (int j = 0; j < m; ++j) pof.push_back(log_probability_of_feasibility(*constraint_gps_[static_cast<std::size_t>(j)]));
      acq = std::make_unique<ConstrainedAcquisition>(any_feasible ? std::move(acq) : nullptr, std::move(pof));
      info_["constraints"] = {{"n", m},
                              {"feasible_points", std::count(feasible.begin(), feasible.end(), true)},
                              {"objective", any_feasible ? "acquisition + log P(feasible)" : "log P(feasible)"}};
    }
    AcqOptimizerOptions opt = config_.acq_optimizer;
    opt.seed = trial_seed(config_.seed ^ 0xACCULL, trial_index);
    Mat incumbent_start = U.row(best);
    OptResult res;
    if (local_u) {
      res.x = *local_u;
    } else {
      if (model_options_.element_moves || model_options_.pair_moves || model_options_.recombination_sets > 0) {
        const Mat moves = element_move_starts(U.row(best).transpose(), *acq, trial_index, U, yt);
        incumbent_start.conservativeResize(1 + moves.rows(), Eigen::NoChange);
        incumbent_start.bottomRows(moves.rows()) = moves;
      }
      // A set with two coincident elements is refused unless the incumbent has them too (then the objective
      // rewards them): BOModelOptions::avoid_coincident.
      Admissible admissible;
      if (model_options_.avoid_coincident &&  // a set space: suggest refuses the option elsewhere
          !space_->has_coincident_elements(unit_->from_unit(U.row(best).transpose())))
        admissible = [this](const Vec& v) { return !space_->has_coincident_elements(unit_->from_unit(v)); };
      res = maximize_acquisition(*acq, *unit_, opt, incumbent_start, admissible);
      if (res.inadmissible > 0) info_["coincident_refused"] = res.inadmissible;
    }
    u = res.x;
    std::string step_kernel = model_name_;  // the kernel whose model took this step
    if (model_options_.coincident_fallback && !local_u && !exploit && draws.empty() && !conditions && m == 0) {
      if (const auto split = split_coincident_step(u, U.row(best).transpose(), Um, ym, incumbent,
                                                     static_cast<int>(X.rows()), opt)) {
        res = split->first;
        u = res.x;
        step_kernel = split->second;
      }
    }

    const Vec theta = gp_->hyperparameters();
    info_["theta"] = std::vector<double>(theta.data(), theta.data() + theta.size());
    info_["theta_names"] = gp_->hyperparameter_names();
    info_["kernel"] = gp_->kernel().describe();
    if (!candidates_.empty()) info_["kernel_choice"] = step_kernel;  // a structure chosen by evidence
    info_["fit_objective"] = objective;
    if (!local_u) info_["acq_value"] = res.value;
    if (auto* ucb = dynamic_cast<const UpperConfidenceBound*>(acq.get())) {
      info_["beta"] = ucb->beta();
      if (early && !exploit) info_["early_step"] = true;  // an exploitation step takes exploit_beta instead
    }
    info_["fit_seconds"] = fit_seconds;
    info_["acq_seconds"] = seconds_since(t1);
    info_["n_fantasies"] = fantasy && fantasy_ != FantasyMode::None ? pending.rows() : 0;
    if (fantasy && Pu.rows() > 0 && fantasy_ != FantasyMode::None) info_["fantasy"] = to_string(fantasy_);
    if (Fu.rows() > 0) info_["failed_points"] = {{"n", Fu.rows()}, {"model", enum_name(model_options_.failed_points)}};

    if (!u.allFinite() || min_row_distance(u, Pu) < kRepeatTolerance || min_row_distance(u, U) < kRepeatTolerance ||
        min_row_distance(u, Fu) < kFailedRadius) {
      info_["repeat_replaced_by_random"] = true;
      u = random_point(trial_index);
    }
  }
  Vec x = space_->bounds().clamp(unit_->from_unit(u));
  space_->canonicalize(x);
  return x;
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

std::unique_ptr<Acquisition> BOStrategy::structure_averaged_acquisition(double incumbent, int n_observed,
                                                                        double beta_scale) {
  std::vector<const GP*> models{&*gp_};
  std::vector<std::string> names{model_name_};
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    const auto& g = gp_candidates_[k];
    // Every candidate conditions on the model's rows (suggest keeps them so when averaging); a candidate
    // never fitted (no refit since it was added) leaves the step to the chosen model alone.
    if (!g || g->X().rows() != gp_->X().rows()) return nullptr;
    models.push_back(&*g);
    names.push_back(candidates_[k].name);
  }
  std::vector<double> log_evidence;
  for (const GP* g : models) log_evidence.push_back(g->log_marginal_likelihood());
  const double top = *std::max_element(log_evidence.begin(), log_evidence.end());
  if (!std::isfinite(top)) return nullptr;
  std::vector<double> weights;
  std::vector<std::unique_ptr<Acquisition>> parts;
  nlohmann::json shown = nlohmann::json::object();
  for (std::size_t k = 0; k < models.size(); ++k) {
    const double w = std::isfinite(log_evidence[k]) ? std::exp(log_evidence[k] - top) : 0.0;
    weights.push_back(w);
    parts.push_back(make_acquisition(*models[k], incumbent, n_observed, beta_scale));
  }
  const auto* ucb = dynamic_cast<const UpperConfidenceBound*>(parts.front().get());
  std::unique_ptr<Acquisition> out;
  std::vector<double> normalised;
  if (model_options_.structure_averaging == StructureAveraging::Predictive && ucb) {
    auto mixture = std::make_unique<MixtureUpperConfidenceBound>(models, std::move(weights), ucb->beta());
    normalised = mixture->weights();
    out = std::move(mixture);
  } else {
    auto averaged = std::make_unique<AveragedAcquisition>(std::move(parts), std::move(weights));
    normalised = averaged->weights();
    out = std::move(averaged);
  }
  for (std::size_t k = 0; k < models.size(); ++k) shown[names[k]] = normalised[k];
  info_["structure_weights"] = shown;
  return out;
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
