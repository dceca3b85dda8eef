#pragma once
// A-GP-UCB (Berkenkamp, Schoellig & Krause, JMLR 2019): GP-UCB whose lengthscales shrink and whose
// RKHS-norm bound grows over time, θ_t = θ₀/g(t), B_t = b(t)·g(t)^d·B₀, so that the function class
// eventually contains the true function although θ and B are unknown. The overall scaling h(t) is
// chosen each iteration by matching a regret estimate R̄_t(h) to a sublinear reference p(t) = t^p.
// See docs/papers.md#adaptive; equation numbers are the paper's.
//
// Also the baselines of the paper's experiments: GP-UCB with MAP or HMC-marginalised lengthscales and
// an empirical constant β (standardised data), and the modified Wang & de Freitas (2014) line search
// (as the `wang` estimator of the A-GP-UCB strategy).
//
// Everything works on the unit cube [0,1]^d (the space's box is mapped affinely), with a stationary
// kernel of unit variance (the paper normalises k(x,x) = 1; the scale lives in B) and fixed noise.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kbo/core/enum_names.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/model/hmc.hpp"
#include "kbo/strategy/strategy.hpp"

namespace kbo {

// ---------------------------------------------------------------------------------------------------
// Schedule pieces (pure functions, tested in isolation)

/// Split of the overall scaling h ≥ 1 into lengthscale scaling g and norm scaling b with weight λ ≥ 0:
/// g^d = 1 + ε_g, b = 1 + λ ε_g, (1 + ε_g)(1 + λ ε_g) = h (docs/papers.md#adaptive-scaling-split, closed form).
struct Scaling {
  double h = 1.0, eps_g = 0.0, g = 1.0, b = 1.0;
};
/// InputError unless h ≥ 1 (finite), λ ≥ 0, dim ≥ 1.
Scaling split_scaling(double h, double lambda, int dim);
/// The scaling of an arm that shrinks only the lengthscales by g (balancing variants): h = g^dim, b = 1.
Scaling lengthscale_scaling(double g, int dim);

/// β_t^{1/2} of Lemma 1: B + 4σ sqrt(I + 1 + ln(1/δ)).
double agpucb_beta_sqrt(double norm_bound, double noise_std, double information_gain, double delta);
/// The mean regret of the first n_init rewards y (the initial design: random points) against the best of all
/// of y, in units of y's sample standard deviation (0 when y has fewer than 2 values or no spread).
double design_regret(const Vec& y, int n_init);
/// C₁ = 8 / log(1 + σ⁻²) of Theorem 3.
double regret_constant_c1(double noise_std);

/// Inputs of the bound-based regret estimate (eq. 15), all fixed during one line search.
struct BoundEstimateInputs {
  int t = 1;                 // number of observations
  int dim = 1;
  double lambda = 0.1, B0 = 2.0, noise_std = 0.01, delta = 0.1;
  double g_prev = 1.0;       // g(t−1)
  double info_prev = 0.0;    // I_{θ_{t−1}}(y_t; f): information gain of the current data at g(t−1)
};
/// R̄_t(h) = sqrt(C₁ t β_t(h) I(h)) with I(h) = (g(h)/g(t−1))^d I_{θ_{t−1}}
/// (docs/papers.md#adaptive-regret-estimators: the mutual information's dependence on g is made explicit by
/// Proposition 4, so no kernel inversion per h) and β_t^{1/2}(h) = b(h) g(h)^d B₀ + 4σ sqrt(I(h) + 1 + ln(1/δ)).
/// Increasing in h.
double bound_regret_estimate(double h, const BoundEstimateInputs& in);

/// h*(t): the smallest h ≥ h_prev with R(h) ≥ target, for R non-decreasing in h: R(h_prev) ≥ target
/// ⇒ h_prev (eq. 14's max with h(t−1)); else geometric expansion of an upper bracket (factor 4, up to
/// h_max, which is returned if even R(h_max) < target) and bisection in log h until hi/lo ≤ 1 + rel_tol
/// or max_evals evaluations of R. Returns the upper end of the bracket (R(h) ≥ target there).
struct LineSearchResult {
  double h = 1.0;
  int evaluations = 0;
  bool capped = false;  // R(h_max) < target
};
LineSearchResult match_reference(const std::function<double(double)>& R, double target, double h_prev,
                                 double h_max, double rel_tol, int max_evals);

// ---------------------------------------------------------------------------------------------------
// Options

enum class RegretEstimator {
  None,     // h ≡ 1: plain GP-UCB with θ₀ (or MAP) and B₀, Lemma-1 β
  Bound,    // eq. 15
  OneStep,  // eq. 16 (refits the GP and maximises UCB at each trial h)
  Wang,     // modified Wang & de Freitas (2014): smallest h with σ_t(x_{t+1}(h)) ≥ κ
            // (docs/papers.md#adaptive-wang-de-freitas)
  Balance,  // length-scale balancing (after Ziomek, Adachi & Osborne, NeurIPS 2024): candidate scalings
            // g = 1, 2, 4, … ≤ g(h(t)) (h from the one-step matching) side by side; each suggestion comes from the
            // candidate with the smallest putative regret bound R_i(n_i) (regret balancing); a candidate whose
            // claimed bound its own rewards contradict is eliminated. Stops the over-exploration of
            // always using the shortest lengthscale.
  Lb        // Length-scale Balancing as published (Ziomek, Adachi & Osborne, NeurIPS 2024, Alg. 1): candidates
            // θ₀/r^i, r = e^{1/(d+2ν)} (Matérn-ν; e^{1/d} for rbf), one added per step while shorter than
            // θ₀/g(t) (g(t) from the one-step h(t)); play the argmin of the theoretical bound
            // R(n_i+1, θ_i); eliminate a candidate whose mean reward + Σβ½σ/n_i + √(ξ/n_i) is below the best
            // lower reward bound (docs/papers.md#adaptive-length-scale-balancing).
};
enum class MapCombination {
  None,     // θ_t = θ₀ / g(t) (Algorithm 1)
  Min,      // eq. 17: θ_t = min(θ_MAP, θ₀/g(t)) elementwise
  Divide    // eq. 18: θ_t = θ_MAP / max(g(t), 1)
};
template <>
struct EnumNames<RegretEstimator> {
  static constexpr std::array<std::pair<RegretEstimator, const char*>, 6> table{
      {{RegretEstimator::None, "none"}, {RegretEstimator::Bound, "bound"}, {RegretEstimator::OneStep, "onestep"},
       {RegretEstimator::Wang, "wang"}, {RegretEstimator::Balance, "balance"}, {RegretEstimator::Lb, "lb"}}};
};
/// Named starting points of AgpucbOptions: "product" (the default of `--strategy agpucb`: targets
/// standardised, constants chosen on the acceptance suite's selection seeds, docs/bench/adaptive.md) and
/// "paper" (the literal constants of the paper's experiments, used by `kbo bench adaptive`).
enum class AgpucbPreset { Product, Paper };
template <>
struct EnumNames<AgpucbPreset> {
  static constexpr std::array<std::pair<AgpucbPreset, const char*>, 2> table{
      {{AgpucbPreset::Product, "product"}, {AgpucbPreset::Paper, "paper"}}};
};
template <>
struct EnumNames<MapCombination> {
  static constexpr std::array<std::pair<MapCombination, const char*>, 3> table{
      {{MapCombination::None, "none"}, {MapCombination::Min, "min"}, {MapCombination::Divide, "divide"}}};
};
/// InputError "agpucb estimator: unknown value …" / "agpucb combine: …" naming the allowed values.
RegretEstimator parse_regret_estimator(const std::string& s);  // none | bound | onestep | wang | balance | lb
MapCombination parse_map_combination(const std::string& s);    // none | min | divide
std::string to_string(RegretEstimator e);
std::string to_string(MapCombination c);

/// Every constant of the strategy. The member defaults are the "paper" preset: the paper's experiments
/// (§5: θ₀ = 1, B₀ = 2, δ with "probability at least 0.9" read as δ = 0.1, λ = 0.1, p(t) = t^0.9) except
/// where the paper is silent (noise σ, Gamma prior, kernel: Gaussian as in §5.1). product() is what a
/// study gets when it names no preset; from_json starts from the preset it names (default "product").
struct AgpucbOptions {
  AgpucbPreset preset = AgpucbPreset::Paper;
  std::vector<double> theta0 = {1.0};  // initial lengthscales on the unit cube: 1 value or one per dim
  double B0 = 2.0;
  double delta = 0.1;
  double lambda = 0.1;
  double p_exponent = 0.9;             // p(t) = p_scale · t^p_exponent
  double p_scale = 1.0;
  bool p_counts_design = true;         // t of p(t) counts the initial design (paper) or only UCB steps
  /// p(t) = min(p_scale · t^p_exponent, p_random_cap · r̄ · t): the planned regret never exceeds (a multiple of)
  /// what random points would cost, r̄ = the mean regret of the initial design's points against the best value
  /// seen, in units of the targets' standard deviation. 0: no cap (the paper).
  double p_random_cap = 0.0;
  double noise_std = 0.01;             // σ of the model (raw units unless normalize)
  std::string kernel = "rbf";          // stationary profile: rbf | matern12 | matern32 | matern52
  RegretEstimator estimator = RegretEstimator::Bound;
  MapCombination combine = MapCombination::None;
  double prior_shape = 2.0;            // Gamma(shape, rate) prior on each MAP lengthscale
  double prior_rate = 5.0;
  int map_restarts = 2;
  double kappa = 0.1;                  // Wang–de Freitas threshold on σ_t(x_{t+1})
  double h_max = 1e12;                 // cap of the line search
  double line_search_tol = 0.02;       // relative bracket width at which the line search stops
  int line_search_max_evals = 40;      // per suggestion (one-step/wang: each is a UCB maximisation)
  bool normalize = false;              // robust-scale and standardise y before modelling (as the default
                                       // BO does; paper: raw values, zero prior mean)
  int balance_max_candidates = 40;     // balance/lb: at most this many candidate scalings (a safety cap; g ≤ g(h(t)) binds first)

  /// The paper's literal setting (= the member defaults).
  static AgpucbOptions paper();
  /// The product default: standardised targets, estimator "onestep" (active from the first steps), no MAP,
  /// Matérn-5/2, θ₀ = 0.5, B₀ = 1, p(t) = 12 √t and σ = 0.01 in standardised units; chosen on the
  /// selection seeds of `kbo bench adaptive-suite` (constants listed by `kbo optimize --help`).
  static AgpucbOptions product();
  /// One line naming the product constants, for help texts.
  static std::string product_summary();

  /// Reads StrategyConfig::module_options (object; keys as the field names, "preset"/"estimator"/"combine"/
  /// "kernel" as strings, "theta0" number or array), starting from the named preset (default "product").
  /// InputError naming the key and what is allowed for an unknown key or a bad value; `dim` checks
  /// theta0's length.
  static AgpucbOptions from_json(const nlohmann::json& j, int dim);
  nlohmann::json to_json() const;
};

// ---------------------------------------------------------------------------------------------------
// The strategy

/// A-GP-UCB as a Strategy. Per suggestion (after the initial design of config.n_init points drawn with
/// config.init_method from config.seed): map X to the unit cube; if combining with MAP, fit the MAP
/// lengthscales; choose h(t) by the estimator; set θ_t, B_t, β_t; maximise μ_t + β_t^{1/2} σ_t with
/// maximize_acquisition (config.acq_optimizer, seeded by (seed, trial)). Pending points enter as
/// fantasies of config.fantasy (condition_on_pending; the default kriging believer observes them at the
/// posterior mean: σ shrinks there, μ is unchanged); a pending point is never suggested again.
/// last_info(): t, h, g, b, eps_g, beta_sqrt, B_t, theta (vector), theta_map, g_eff (θ₀/θ_t, geometric
/// mean over dims), info_gain, p_t, regret_estimate, line_search_evals, sigma_at_x.
class AgpucbStrategy : public Strategy {
 public:
  AgpucbStrategy(StrategyConfig config, std::shared_ptr<const Space> space, AgpucbOptions options);
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) override;
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index) override;
  std::string name() const override;
  nlohmann::json last_info() const override { return info_; }

  const AgpucbOptions& options() const { return opt_; }
  double h() const { return h_; }

 private:
  struct Candidate;  // one trial h: θ, GP, β^{1/2}, UCB maximiser, σ there
  Vec theta_for(double g) const;
  Candidate evaluate_candidate(double h, const Mat& U, const Vec& y, const Mat& pendingU, int trial_index) const;
  Candidate evaluate_scaling(const Scaling& s, const Mat& U, const Vec& y, const Mat& pendingU,
                             int trial_index) const;
  Vec fit_map(const Mat& U, const Vec& y);
  /// Balance: the candidate scaling to use now, among g = 1, 2, 4, … ≤ g_max (updates arms_ from the
  /// observed history).
  Scaling balance_choice(const Mat& U, const Vec& y, double g_max);
  /// Lb: the candidate to play now (admits at most one new candidate shorter than θ₀/g_max, eliminates,
  /// selects by the theoretical bound); src/adaptive/length_scale_balancing.cpp.
  Scaling lb_choice(const Mat& U, const Vec& y, double g_max);

  struct Arm {
    double g = 1.0;
    bool eliminated = false;
    int plays = 0;            // observed suggestions of this arm
    double reward = 0.0;      // sum of their model-unit targets
    double bound = 0.0;       // putative regret bound R_i(plays) at the last choice
    double beta_sigma = 0.0;  // lb: Σ β½σ over the arm's observed plays (its data-driven regret estimate)
  };
  struct LbPlay {
    Vec x;                    // unit-cube suggestion
    int arm = -1;
    double beta_sigma = 0.0;  // β½ σ(x) of the arm's model when it was suggested
  };

  StrategyConfig config_;
  std::shared_ptr<const Space> space_;
  AgpucbOptions opt_;
  Vec theta0_;                   // per dimension
  Mat design_;                   // unit-cube initial design
  double h_ = 1.0;               // h(t−1)
  int last_n_ = -1;
  std::vector<double> onestep_terms_;  // 2 β_j^{1/2} σ_j(x_{j+1}) of previous suggestions (eq. 16)
  Vec theta_map_;                // last MAP estimate (warm start), empty before the first fit
  std::vector<Arm> arms_;        // balance: candidate scalings, longest lengthscale first
  std::vector<std::pair<Vec, int>> arm_log_;  // balance: unit-cube suggestion → arm that made it
  int balance_arm_ = -1;         // balance: the arm of this suggestion
  std::vector<LbPlay> lb_log_;   // lb: every suggestion with its arm
  nlohmann::json info_ = nlohmann::json::object();
};

/// Factory for the study (`--strategy agpucb`): options from AgpucbOptions::from_json(
/// config.module_options["agpucb"] if that key exists, else config.module_options, space->dim()). Any Space works through its bounds (affine unit-cube map) and
/// its canonicalize.
std::unique_ptr<Strategy> make_agpucb_strategy(const StrategyConfig& config, std::shared_ptr<const Space> space);

// ---------------------------------------------------------------------------------------------------
// Baselines with an empirical β (paper §5: data standardised, β^{1/2} constant)

enum class HyperMode { Fixed, Map, Hmc };
template <>
struct EnumNames<HyperMode> {
  static constexpr std::array<std::pair<HyperMode, const char*>, 3> table{
      {{HyperMode::Fixed, "fixed"}, {HyperMode::Map, "map"}, {HyperMode::Hmc, "hmc"}}};
};

struct BaselineOptions {
  HyperMode mode = HyperMode::Map;
  std::vector<double> theta = {1.0};   // Fixed: the lengthscales; Map/Hmc: initial value
  double beta_sqrt = 2.0;              // UCB = μ + β^{1/2} σ on standardised data
  double noise_var = 1e-4;             // fixed noise variance (standardised units)
  std::string kernel = "rbf";
  double prior_shape = 2.0, prior_rate = 5.0;  // Gamma prior on lengthscales (Map, Hmc)
  int map_restarts = 2;
  // HMC: per suggestion a chain warm-started at the previous chain's end (step size and mass too).
  int hmc_warmup = 100, hmc_samples = 100, hmc_keep = 10, hmc_leapfrog = 10;
  double theta_lower = 1e-3, theta_upper = 1e2;  // support of the lengthscales (MAP bounds, HMC clamp)
  static BaselineOptions from_json(const nlohmann::json& j, int dim);
};

/// GP-UCB with fixed / MAP / HMC-marginalised lengthscales and constant β^{1/2}. With HMC the
/// acquisition is the sample average of the per-sample UCBs (integrated acquisition, Snoek et al. 2012).
/// Pending points enter each model as fantasies of config.fantasy, as in AgpucbStrategy; a pending point
/// is never suggested again (a uniform random point seeded by (seed, trial) replaces it).
/// last_info(): theta (mean over samples for HMC, per dim), g_eff (θ_ref/θ, geometric mean, θ_ref = 1),
/// hmc_accept, hmc_step.
class HyperGpucbStrategy : public Strategy {
 public:
  HyperGpucbStrategy(StrategyConfig config, std::shared_ptr<const Space> space, BaselineOptions options);
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) override;
  std::string name() const override;
  nlohmann::json last_info() const override { return info_; }

 private:
  StrategyConfig config_;
  std::shared_ptr<const Space> space_;
  BaselineOptions opt_;
  Mat design_;
  Vec theta_;               // current point estimate / chain state (log lengthscales)
  HmcCarry hmc_;  // step size and mass carried from one suggestion's chain to the next
  nlohmann::json info_ = nlohmann::json::object();
};

}  // namespace kbo
