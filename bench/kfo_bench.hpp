#pragma once
// `kbo bench kfo`: reproduces KFO's Figure 2 / synthetic log-likelihoods, Table 1 (SVM test error), Table 2
// (GP test NLL) and Table 3 (runtime shares) with kbo's protocol (selection on the training part only).
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct KfoBenchOptions {
  std::string out_dir = "docs/bench/kfo";
  std::string data_dir;                     // default: ./data (run from the repository root)
  std::vector<std::string> parts{"synthetic", "svm", "gp", "runtime"};
  int runs = 10;                            // synthetic repetitions
  int splits = 10;                          // random 80/20 splits per data set
  std::vector<std::string> svm_datasets;    // empty ⇒ all the paper's sets present in data/
  std::vector<std::string> gp_datasets;
  int max_rows = 1000;                      // larger data sets are subsampled (seeded) to this many rows
  int subspaces = 5, iterations = 5;        // S, T (Table 3 setting)
  int outer_init = 2, outer_iterations = 2; // outer BO over Θ
  int max_search_points = 200;              // training points the search objectives use
  int cv_folds = 5;
  bool start_from_baseline = false;         // regression/synthetic: kbo extension (paper: K# = 0)
  bool fallback_to_rbf = true;              // the kfo row falls back to the RBF baseline unless KFO validates better
  std::string input_scaling = "ard";        // ard | none: KFO's functional on ARD-scaled inputs (kbo) or not (paper)
  std::string gp_psd = "alpha-clip";        // alpha-clip | flip | none (GP tasks)
  bool gp_map = true;                       // GP fits: MAP with kbo's default priors (false: plain ML-II)
  std::uint64_t seed = 0;
};

/// Runs the selected parts, writes JSON + SVG + Markdown tables under out_dir, returns the JSON summary.
nlohmann::json run_kfo_bench(const KfoBenchOptions& options, std::ostream& log);

}  // namespace kbo::bench
