#pragma once
// `kbo bench structure`: structured problems that are not the papers' own, run through the
// product path — make_strategy(StrategyConfig defaults, space) exactly as `kbo optimize` builds it, with only
// the space kind, the group and the structured kernel chosen — against the plain GP on the flat vector and
// random search. Best value after n_init + iters evaluations over seeds, time per BO iteration, and the
// kernel auto chose per iteration.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct StructureBenchOptions {
  std::vector<std::string> problems;  // empty ⇒ all (structure_problem_names())
  std::vector<std::string> methods;   // empty ⇒ every method of each problem
  std::vector<int> seeds{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  int n_init = 5;
  int iters = 40;
  std::string data_dir = "data";  // for the k-means problem (seeds.csv)
  int timing_n = 0;               // > 0: also time one suggestion at n observations per kernel (timing part)
  int timing_reps = 3;
  nlohmann::json module_options = nlohmann::json::object();  // --options: as `kbo optimize --options`
  std::optional<double> beta;  // --beta: UCB's β for every model-based method (unset: the default)
};

/// facility, covering, kmeans-seeds, perm-offcentre, signflip-offcentre, control-hartmann6.
std::vector<std::string> structure_problem_names();
/// Every method a problem of the suite may run (set problems take the set-* ones, group problems the others).
std::vector<std::string> structure_method_names();

/// Per problem and method: best-so-far per seed, final best values, seconds per BO iteration, and the
/// kernel_choice counts of auto. Writes nothing; see write_structure_bench.
nlohmann::json run_structure_bench(const StructureBenchOptions& options, bool verbose);

/// results.json, results.md and one SVG per problem under dir; returns the Markdown.
std::string write_structure_bench(const nlohmann::json& results, const std::string& dir);

}  // namespace kbo::bench
