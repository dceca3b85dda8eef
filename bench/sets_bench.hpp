#pragma once
// `kbo bench sets`: the experiments of paper 001 (Tables 1–3, Fig. 4/5) and the set-kernel performance
// study. Each runner returns JSON and appends Markdown; plots go next to the JSON.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct SetsBenchOptions {
  std::string out_dir = "docs/bench/sets";
  std::vector<std::string> parts = {"table1", "synthetic", "clustering", "perf"};
  int seeds = 10;                 // repetitions of every BO run (paper: 10)
  int budget = 50;                // evaluations per BO run, initial design included (paper: not stated)
  int n_init = 5;                 // paper: 5 initial points
  int table1_draws = 10;          // draws per L in Table 1 (paper: 10)
  int baseline_runs = 200;        // runs of each clustering baseline (paper: 1000)
  int perf_n = 100, perf_m = 1000, perf_d = 50;
  std::vector<int> perf_L = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
  std::vector<std::string> synthetic_methods = {"vector", "split", "set", "approx-1", "approx-2", "approx-5",
                                                "approx-10"};
  std::vector<std::string> clustering_methods = {"set", "approx-1", "approx-2", "approx-5"};
  /// blobs_kmeans, blobs_gmm, digits_kmeans (empty: all three).
  std::vector<std::string> clustering_tasks;
  int clustering_budget = 40;
  std::uint64_t seed = 0;
  /// Module options as `kbo optimize --options` takes them, for every BO method (the pinned methods' own
  /// settings give way to them).
  nlohmann::json module_options = nlohmann::json::object();
};

/// Table 1: k̃_set of two sets of 1000 standard-normal 50-d points vs L (Algorithm 1 and, for contrast,
/// independent subsets as assumed by Theorem 1), mean ± std over draws, time per evaluation.
nlohmann::json run_sets_table1(const SetsBenchOptions& o, std::string& md);
/// Table 2 / Fig. 4: Synthetic 1 and 2, every method, best value after the budget and run time.
nlohmann::json run_sets_synthetic(const SetsBenchOptions& o, std::string& md);
/// Table 3 / Fig. 5–6: clustering initialisation (k-means and GMM on blobs, k-means on digits).
nlohmann::json run_sets_clustering(const SetsBenchOptions& o, std::string& md);
/// Gram matrix of n sets (m, d) full vs approximate for each L, GEMM reference, BO iteration time.
nlohmann::json run_sets_perf(const SetsBenchOptions& o, std::string& md);

}  // namespace kbo::bench
