#pragma once
// `kbo bench bo`: the BO engine's quality (best value after 5 + 50 evaluations vs random search) and
// its time per iteration as the number of observations grows (issue 3's two figures).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct BoQualityOptions {
  std::vector<std::string> problems{"branin", "hartmann6", "ackley-shifted"};
  int seeds = 10;
  int n_init = 5;
  int iters = 50;
};
/// Per problem and method (gpucb, random): best-so-far curves per seed, final best values, and the
/// wall time of each BO suggestion (refit + acquisition). Writes nothing; see write_bo_quality.
nlohmann::json run_bo_quality(const BoQualityOptions& options, bool verbose);

struct BoTimingOptions {
  std::vector<int> sizes{10, 25, 50, 100, 200, 300, 500};
  int dim = 6;
  int reps = 5;  // timed iterations per size (after one untimed cold start)
};
/// Time per BO iteration (hyperparameters refitted every iteration) with n observations of Ackley-6.
nlohmann::json run_bo_timing(const BoTimingOptions& options, bool verbose);

/// JSON + SVG figures under `dir`; returns the Markdown tables.
std::string write_bo_quality(const nlohmann::json& results, const std::string& dir);
std::string write_bo_timing(const nlohmann::json& results, const std::string& dir);

}  // namespace kbo::bench
