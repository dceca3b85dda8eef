#pragma once
// Strategies turn the completed trials of a study into the next point to evaluate. The study is the
// only part that knows about storage and directions: a strategy always sees values to MAXIMISE.
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "kbo/model/gp.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/core/space.hpp"

namespace kbo {

/// Everything a study's config/flags choose about the model and the search. Defaults are what
/// `kbo optimize` uses without flags. Names match the CLI flags and TOML keys.
struct StrategyConfig {
  std::string strategy = "gpucb";      // gpucb (standard BO step) | agpucb | random
  std::string kernel = "matern52";     // rbf | matern12 | matern32 | matern52
  bool ard = true;
  std::string acquisition = "ucb";     // ucb | ei | pi
  std::string beta_schedule = "constant";  // constant | srinivas | chowdhury
  double beta = 4.0;                   // β of constant UCB (UCB = μ + sqrt(β) σ)
  int n_init = 5;
  SamplingMethod init_method = SamplingMethod::Sobol;
  int fit_restarts = 2;
  bool map = true;                     // MAP with default priors (false ⇒ ML-II)
  std::optional<double> fixed_noise;   // fix the (standardised) noise variance instead of learning it
  AcqOptimizerOptions acq_optimizer;
  std::string invariance = "none";     // see kernels/invariant.hpp
  std::string invariant_kernel = "max";  // max | average
  std::string set_kernel = "full";     // full | approx (set spaces only)
  int set_L = 0;                       // approx set kernel subset size (0 ⇒ m)
  // What pending (running) trials contribute to the model before the acquisition is maximised (see
  // kbo/fantasy.hpp): kriging_believer | constant_liar_worst | constant_liar_mean | constant_liar_best |
  // none (pending points are only never suggested again).
  std::string fantasy = "kriging_believer";
  nlohmann::json module_options = nlohmann::json::object();  // e.g. agpucb constants, user groups
  std::uint64_t seed = 0;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Next point given completed trials (X rows, y to maximise) and pending points (being evaluated; never
  /// suggested again, and conditioned on as fantasies per StrategyConfig::fantasy).
  /// `trial_index` is the number of trials already created (completed, failed or pending).
  virtual Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) = 0;
  virtual std::string name() const = 0;
  /// Diagnostics of the last suggestion (fitted hyperparameters, β, schedule values…), for logs/JSON.
  virtual nlohmann::json last_info() const { return nlohmann::json::object(); }
};

}  // namespace kbo
