#pragma once
// `kbo bench bo`: the BO engine's quality (best value after 5 + 50 evaluations vs random search) and
// its time per iteration as the number of observations grows (docs/bench/bo.md).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct BoQualityOptions {
  std::vector<std::string> problems{"branin", "hartmann6", "ackley-shifted"};
  std::vector<int> seeds{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<std::string> methods{"gpucb", "random"};
  int n_init = 5;
  int iters = 50;
  // Variant knobs of the gpucb runs (defaults: `kbo optimize`'s). module_options["bo"] is a JSON object
  // of BOModelOptions keys (include/kbo/bo_strategy.hpp).
  int fit_restarts = -1;   // < 0 ⇒ StrategyConfig's default
  int raw_samples = -1;    // acquisition maximiser: Sobol candidates (< 0 ⇒ default)
  int num_starts = -1;     // acquisition maximiser: L-BFGS polishes (< 0 ⇒ default)
  nlohmann::json bo_options = nlohmann::json::object();
  std::string kernel;      // gpucb variant: the model's kernel (empty ⇒ StrategyConfig's default)
  bool trace = false;      // keep each gpucb iteration's last_info() (θ, acquisition value) in the JSON
};
/// Parses a seed list: "N" (seeds 0..N-1), "A-B" (A..B inclusive) or "a,b,c" (items may be ranges).
/// InputError on anything else.
std::vector<int> parse_seed_list(const std::string& text);

/// Per problem and method (gpucb, random): best-so-far curves per seed, final best values, and the
/// wall time of each BO suggestion (refit + acquisition). Writes nothing; see write_bo_quality.
nlohmann::json run_bo_quality(const BoQualityOptions& options, bool verbose);

struct BoTimingOptions {
  std::vector<int> sizes{10, 25, 50, 100, 200, 300, 500};
  int dim = 6;
  int reps = 5;  // timed iterations per size (after one untimed cold start)
  // The same variant knobs as BoQualityOptions (< 0 / empty ⇒ defaults).
  int fit_restarts = -1, raw_samples = -1, num_starts = -1;
  nlohmann::json bo_options = nlohmann::json::object();
};
/// Time per BO iteration (hyperparameters refitted every iteration) with n observations of Ackley-6.
nlohmann::json run_bo_timing(const BoTimingOptions& options, bool verbose);

/// JSON + SVG figures under `dir`; returns the Markdown tables.
std::string write_bo_quality(const nlohmann::json& results, const std::string& dir);
std::string write_bo_timing(const nlohmann::json& results, const std::string& dir);

}  // namespace kbo::bench
