#pragma once
// The standard GP-BO step and the random-search baseline, both as Strategies.
#include <memory>
#include <optional>
#include <string>

#include "kbo/acquisition/fantasy.hpp"
#include "kbo/acquisition/registry.hpp"
#include "kbo/core/random.hpp"  // trial_seed
#include "kbo/core/space.hpp"   // UnitCubeSpace
#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/strategy/noise_inference.hpp"
#include "kbo/strategy/proposer.hpp"
#include "kbo/strategy/schedule.hpp"
#include "kbo/strategy/trust_region.hpp"
#include "kbo/strategy/registry.hpp"  // NamedKernel
#include "kbo/strategy/strategy.hpp"

namespace kbo {

/// Standard GP-BO step: maps the space's box to the unit cube [0,1]^D (the GP always works there),
/// initial design (config.n_init points, Sobol/uniform, canonicalised), then per suggestion: set data,
/// refit (MAP/ML-II, config.fit_restarts), build the acquisition (UCB with constant/srinivas/chowdhury β,
/// log-EI, log-PI), maximise it with maximize_acquisition over the unit-cube image of the space
/// (the space's canonicalize applies), never repeating a pending point. Returns the point in the
/// ORIGINAL coordinates of the space.
///
/// Details that matter for reproducibility and speed:
/// - The initial design is drawn once from config.seed; trial k < n_init gets design row k, so
///   concurrent askers get different design points and a resumed study continues the same design.
/// - If fewer than 2 trials have completed after the design (failures), points are uniform random,
///   seeded by (seed, trial_index).
/// - The model: Matérn-5/2 ARD (config.kernel) or Matérn-3/2, whichever has the higher MAP objective
///   at this refit (BOModelOptions::alt_kernel); a constant prior mean at the worst value seen
///   (BOModelOptions::prior_mean), targets scaled by their standard deviation; MAP with BoTorch's
///   SingleTaskGP priors as densities of θ (Prior::value_density), noise ≥ 1e-6 of the target variance
///   (docs/bench/bo.md explains each choice and the variants measured against it).
/// - Hyperparameters are refitted at every suggestion while n < BOModelOptions::full_refit_below (64),
///   warm-started from the previous fit (held by this object) plus config.fit_restarts random restarts,
///   run in parallel; L-BFGS runs are capped. From there on this full refit (both kernels) comes only
///   every ⌈√n⌉ new observations; in between, below warm_refit_below (200) observations
///   θ is refitted from the warm start alone (one short L-BFGS run per kernel), and from there on the
///   model keeps θ and its Cholesky factor is extended with the new observations in O(n²)
///   (last_info()["refit"] says full, warm or none). A full refit fits θ on at most
///   BOModelOptions::fit_subset rows (a seeded uniform subset), then conditions on all.
/// - Above BOModelOptions::subset_above observations (or with model "subset") the GP conditions on a
///   subset of data: the subset_local rows nearest the incumbent plus subset_global spread over the
///   others (bo_subsets.cpp), refactorised at each ask; docs/bench/scale.md has the measurements.
/// - Pending points enter as fantasies (config.fantasy, default kriging believer: observed at the
///   posterior mean) after the fit, without refitting θ, so the acquisition collapses around them and
///   parallel workers explore different points; a suggestion closer than 1e-9 (unit cube) to a pending
///   or already evaluated point is replaced by a uniform random point (reported in last_info()).
class BOStrategy : public Strategy {
 public:
  /// kernel: the model's kernel on unit-cube inputs (nullptr ⇒ built from config.kernel/ard).
  BOStrategy(StrategyConfig config, std::shared_ptr<const Space> space, KernelPtr kernel = nullptr);
  /// kernels: the model's candidate kernels (make_model_kernels): with more than one, each is refitted
  /// at every suggestion and the one of highest MAP objective (LML + log prior of its own θ) models;
  /// last_info()["kernel_choice"] names it.
  BOStrategy(StrategyConfig config, std::shared_ptr<const Space> space, std::vector<NamedKernel> kernels);
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) override;
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index) override;
  std::string name() const override;
  nlohmann::json last_info() const override;
  /// The last refit's θ of each kernel, its n and objective (bo_incremental.cpp); restore adopts a stored
  /// one fitted at more observations than ours, for the same kernels, noise setting and prior mean.
  nlohmann::json model_state() const override;
  void restore_model_state(const nlohmann::json& state) override;
  /// The posterior of the last fitted or restored θ (no refit) conditioned on (X, y) and the standard errors
  /// of set_observation_sem, at X's rows, mapped back to y's units (target_units.hpp); above subset_above
  /// observations only the subset model's rows get one (the others NaN). nullopt before any fit.
  std::optional<Posterior> posterior_at_observations(const Mat& X, const Vec& y) override;
  // GP of the last suggestion (nullptr during the initial design), fitted to model_targets(y): with the
  // default prior mean its units are (y − worst)/std(y), not the objective's.
  const GP* model() const;

  /// The rows (of n) θ is fitted on at the refit of suggestion `trial_index` (empty ⇒ all): a seeded
  /// uniform subset of BOModelOptions::fit_subset rows (bo_subsets.cpp).
  std::vector<Eigen::Index> rows_fitted(Eigen::Index n, int trial_index) const { return fit_rows(n, trial_index); }
  const StrategyConfig& config() const { return config_; }
  const BOModelOptions& model_options() const { return model_options_; }
  const UnitCubeSpace& unit_space() const { return *unit_; }
  /// The run's total number of trials when known (set by the study before each suggestion from its stored
  /// budget: `kbo optimize`, kbo.minimize); nullopt for open-ended ask/tell, where no end-game is played.
  void set_budget(std::optional<int> budget) override { budget_ = budget; }

 private:
  // One BO step's observations in the GP's units: every row (U, yt) and the rows the model conditions on
  // (Um, ym: all of them, or above the threshold a subset of data around the incumbent, bo_subsets.cpp).
  // noise / noise_m: each row's known noise variance in target units, from the trials' standard errors
  // (set_observation_sem, mapped by target_units.hpp; empty when no trial reported one).
  struct StepData {
    Mat U;
    Vec yt;
    Vec noise;
    bool subset = false;
    Mat Um;
    Vec ym;
    Vec noise_m;
  };
  // The incumbent (EI/PI's reference and the optimiser's first start): the best feasible observation.
  struct Incumbent {
    Eigen::Index row = 0;
    double target = 0.0;   // its model target
    bool feasible = true;  // false: no observation is feasible (the best of all is used)
  };
  // What pending and failed points contribute to the acquisition's model (fantasies, bo_strategy.cpp).
  struct Conditioning {
    Mat pending, failed;      // unit cube
    FantasyMode failed_mode;  // BOModelOptions::failed_points as a fantasy
    FantasyMode pending_mode; // config.fantasy
    bool any() const;
    GP apply(const GP& gp) const;
  };

  // The constructors' shared work: presets, options, the stages, the kernels.
  void init_model(std::vector<NamedKernel> kernels);
  Vec random_point(int trial_index) const;
  // The BO step of suggest, in stages (bo_strategy.cpp): the data, the surrogate's update, the plan, the
  // acquisition, the proposal, the diagnostics.
  Vec bo_step(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index);
  StepData step_data(const Mat& X, const Vec& y, int trial_index);
  double update_surrogate(const StepData& d, int n, int trial_index);
  double fit_surrogate(const StepData& d, bool warm, int trial_index);
  double choose_by_evidence(const std::vector<std::optional<GP>*>& models, const std::vector<double>& objective);
  // BOModelOptions::noise infer: the fitted model against the other noise hypothesis (near-exact or free),
  // refitted on the same rows; the one the evidence favours becomes gp_. Returns its objective.
  double infer_noise(int trial_index, double objective);
  Incumbent find_incumbent(const Vec& yt, const Vec& y, const std::vector<bool>& feasible) const;
  Conditioning conditioning(const Mat& pending, const Mat& failed) const;
  std::unique_ptr<Acquisition> constrained(std::unique_ptr<Acquisition> acq, const std::vector<bool>& feasible,
                                           bool any_feasible);
  void record_step(const StepPlan& plan, const Acquisition* acq, const OptResult& res, bool local, double objective,
                   const std::string& step_kernel, const Conditioning& cond, int n_pending);

  enum class Refit { Full, Warm, None };  // at this suggestion (bo_incremental.cpp)
  Refit refit_due(int n) const;
  // Large n (bo_subsets.cpp): the subset-of-data model's use, its rows, and the rows θ is fitted on
  // (empty ⇒ all of the model's rows).
  bool uses_subset_model(int n) const;
  std::vector<Eigen::Index> subset_model_rows(const Mat& U, Eigen::Index incumbent, int trial_index) const;
  std::vector<Eigen::Index> fit_rows(Eigen::Index n, int trial_index) const;
  nlohmann::json model_identity() const;  // what a stored model state must match
  // gp's data become (U, yt) with known noise variances `noise` (empty: none) at gp's θ: the new rows
  // appended to its factor, every target replaced (a changed known noise refactorises).
  void extend_model(GP& gp, const Mat& U, const Vec& yt, const Vec& noise);
  // MAP/ML-II refit of each model (data already set; each replaced by its best fit), all starts in one
  // thread pool; returns each model's objective.
  // warm_only: one capped run from each model's current θ (BOModelOptions::warm_refit_evaluations).
  std::vector<double> refit(const std::vector<std::optional<GP>*>& models, int trial_index, bool warm_only = false);
  std::vector<Vec> fit_starts(const GP& gp, const Vec& lower, const Vec& upper, int trial_index,
                              bool warm_only = false) const;
  void fit_bounds(const GP& gp, Vec& lower, Vec& upper) const;  // log-θ bounds (noise floor/cap applied)
  double noise_floor() const;  // NoiseLevels::floor, or late_floor once the data are many
  double noise_cap() const;    // the noise hypothesis' cap, or the cap of the fit in progress (fit_noise_cap_)
  std::vector<Prior> map_priors(const GP& gp) const;  // priors of the MAP fit (empty for ML-II)
  /// A lengthscale of a categorical (one-hot) coordinate of a params space.
  bool is_categorical_lengthscale(const ParamSpec& spec) const;
  /// Sets the lengthscales of categorical coordinates to their prior's mode (BOModelOptions).
  void init_categorical_lengthscales(Kernel& kernel) const;
  double gls_mean_variance() const;  // c of the kernel + c term (0 unless prior_mean is "gls")
  bool gp_standardizes() const;      // the GP standardises about the sample mean ("gls", "sample")
  Vec model_targets(const Vec& y, OutputWarp warp) const;  // y as the GP sees it (warp, fixed-mean standardisation)
  GP new_model(KernelPtr kernel) const;
  std::unique_ptr<Acquisition> make_acquisition(const GP& gp, double incumbent, int n_observed) const;
  bool ucb_with_constant_beta() const;  // the acquisition whose β early_steps sets
  // Local trust-region step (bo_local.cpp, BOModelOptions::endgame_fraction): the unit-cube point, or nothing
  // when the neighbourhood is degenerate (the global step is taken then).
  std::optional<Vec> local_step(const Mat& U, const Vec& y, Eigen::Index best, int trial_index);
  // The local step's pieces (bo_local.cpp): the rows in a chart (an invariant model's orbit points nearest
  // the incumbent) and the chart's kernel, or nothing without one; the nearest neighbours; the local GP's step.
  KernelPtr local_chart(const Vec& incumbent, Mat& U) const;
  std::vector<Eigen::Index> local_neighbours(const Mat& U, Eigen::Index best, const Vec& scale, Eigen::Index m) const;
  std::optional<Vec> local_quadratic_step(const Mat& U, const Vec& y, const std::vector<Eigen::Index>& rows,
                                          Eigen::Index best, const Vec& spread, const Vec& lo, const Vec& hi,
                                          const TrustRegion& tr, nlohmann::json& local_info) const;
  Vec local_gp_step(KernelPtr kernel, const Mat& U, const Vec& y, const std::vector<Eigen::Index>& rows,
                    const Vec& centre, const Vec& lo, const Vec& hi, int trial_index);
  /// Kernel::recentre on every model and prototype: kernels defined around a centre (the aligned set kernel)
  /// move it to `centre` (the incumbent, before a refit; each GP is given its data again by the refit).
  void recentre_models(const Vec& centre);
  // The trust region replayed from the values of the trials so far (row i = trial i; trust_region.hpp).
  TrustRegion replay_region(const Vec& y) const;
  static nlohmann::json describe_region(const TrustRegion& tr);  // trial info
  // Its quadratic form: the maximiser of a least-squares quadratic of y(rows) in the
  // box [lo, hi] around centre (coordinates scaled by `scale` for the fit); nothing when the fit is
  // underdetermined or predicts no improvement.
  std::optional<Vec> quadratic_step(const Mat& U, const Vec& y, const std::vector<Eigen::Index>& rows, const Vec& centre,
                                    const Vec& scale, const Vec& lo, const Vec& hi, double* r2 = nullptr) const;
  // One GP per outcome constraint (on −c_j, standardised), refitted like gp_; returns the feasible rows.
  std::vector<bool> fit_constraints(const Mat& U, int trial_index);
  int n_constraints(Eigen::Index rows) const;  // outcome constraints modelled at this step

  StrategyConfig config_;
  BOModelOptions model_options_;
  std::vector<std::string> presets_;  // the model presets applied to this study (presets.hpp)
  std::optional<Schedule> schedule_;
  Proposer proposer_;
  std::shared_ptr<const Space> space_;
  std::shared_ptr<const UnitCubeSpace> unit_;
  KernelPtr kernel_;            // prototype (initial hyperparameters)
  Mat design_;                  // initial design, unit cube, n_init x D
  std::optional<GP> gp_;        // fitted on real observations only (no fantasies)
  std::optional<GP> gp_alt_;    // the other kernel's model (BOModelOptions::alt_kernel); swapped with gp_ when it wins
  std::vector<std::optional<GP>> constraint_gps_;  // outcome constraints (kbo/acquisition/constraints.hpp)
  KernelPtr alt_kernel_;        // prototype of the alternative kernel (nullptr ⇒ none competes)
  NamedKernel model_;           // gp_'s kernel's name and flags (its kernel is kernel_)
  std::vector<NamedKernel> candidates_;          // the other candidate kernels (prototypes; auto structure)
  std::vector<std::optional<GP>> gp_candidates_;  // their models, refitted beside gp_; swapped with it when one wins
  FantasyMode fantasy_ = FantasyMode::KrigingBeliever;
  const AcquisitionEntry* acquisition_ = nullptr;  // config.acquisition's registry entry
  double rkhs_bound_ = 1.0;     // module_options.rkhs_bound (Chowdhury β)
  bool continuous_ = true;      // no discrete coordinate in the space (the local step needs none)
  int refit_n_ = 0;             // observations at the last θ refit
  int observations_ = 0;        // observations of the suggestion being made (noise_floor() depends on it)
  double fit_noise_cap_ = 0.0;  // > 0: the noise cap of the fit in progress (the other hypothesis, a chart's local GP)
  bool noisy_ = false;          // BOModelOptions::noise infer: the evidence favoured a free noise level
  bool noise_from_preset_ = false;  // a model preset (not the user) chose BOModelOptions::noise
  ReplicateVerdict replicates_ = ReplicateVerdict::None;  // of the data of the suggestion being made
  bool replicate_due_ = false;  // the evidence favoured noise before any replicate could confirm it
  std::optional<Eigen::Index> replicate_row_;  // the suggestion is a replicate of this row of X
  bool alt_leads_ = false;      // gp_ holds the alternative kernel (it won the last refit)
  double refit_objective_ = 0.0;  // its objective (reported while θ is kept)
  double step_beta_ = 0.0;        // UCB's β for the step being made (the schedule's plan)
  nlohmann::json info_ = nlohmann::json::object();
  std::optional<int> budget_;   // set_budget
};

/// Uniform random search: trial k is a uniform draw seeded by (seed, k), so it does not depend on
/// the observed values and is reproducible point by point (also across resumed studies).
class RandomStrategy : public Strategy {
 public:
  RandomStrategy(StrategyConfig config, std::shared_ptr<const Space> space);
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) override;
  std::string name() const override { return "random"; }

 private:
  StrategyConfig config_;
  std::shared_ptr<const Space> space_;
};

}  // namespace kbo
