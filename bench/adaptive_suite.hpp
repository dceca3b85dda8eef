#pragma once
// `kbo bench adaptive-suite`: A-GP-UCB as a user meets it (`kbo optimize --strategy agpucb`, defaults
// only) against default GP-UCB and random search. Two parts (docs/bench/adaptive.md):
// - narrow: our own 1-d/2-d functions with a narrow global and a broad local minimum; per method and
//   function, how many seeds find the global basin within the budget and the cumulative regret;
// - standard: Branin, Hartmann-6 and Ackley-6 shifted, best value after n_init + iters evaluations.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/space.hpp"

namespace kbo::bench {

/// A minimised test function on [0,1]^d with a narrow global minimum and a broad local one.
struct NarrowProblem {
  std::string name, formula;
  int dim = 1;
  std::function<double(const Vec&)> f;
  Vec narrow_centre;       // centre of the narrow (global) basin
  double width = 0.0;      // its width (the Gaussian well's σ)
  Vec x_star;              // global minimiser (dense grid + refinement)
  double f_star = 0.0;     // global minimum
  double f_local = 0.0;    // best value farther than 4 widths from narrow_centre
  /// Found: an evaluation better than every point outside the narrow basin (f < f_local); such a point
  /// lies within about one width of x_star.
  bool found(double value) const { return value < f_local; }
};
/// well-1d, slope-1d (in units of thousands, offset 2500), wells-2d, bowl-2d.
std::vector<NarrowProblem> narrow_problems();

struct AdaptiveSuiteOptions {
  std::vector<std::string> parts{"narrow", "standard"};
  std::vector<std::string> problems;        // empty ⇒ all of the selected parts
  std::vector<int> seeds{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<std::string> methods{"agpucb", "gpucb", "random"};
  int budget = 50;                          // narrow part: evaluations, the 5 initial ones included
  int iters = 50;                           // standard part: iterations after the 5 initial points
  nlohmann::json agpucb_options;            // variant of agpucb: its "agpucb" section (null ⇒ defaults)
  std::string out_dir = "docs/bench/adaptive";
  bool trace = false;                       // narrow part: keep each suggestion's last_info() in the JSON
};

/// Runs everything; progress on `log` (stderr). Returns the results as JSON.
nlohmann::json run_adaptive_suite(const AdaptiveSuiteOptions& options, bool verbose);
/// Writes <dir>/suite.json and returns the Markdown tables.
std::string write_adaptive_suite(const nlohmann::json& results, const std::string& dir);

}  // namespace kbo::bench
