#pragma once
// `kbo bench parallel`: the quality cost of parallelism (docs/bench/parallel.md). q simulated workers: after the initial
// design, suggestions come in batches of q, each asked with the batch's earlier points pending (what q
// workers asking one after the other get, with fantasies for the pending points); the batch is then
// evaluated and told. q = 1 is the sequential loop.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo::bench {

struct ParallelOptions {
  std::vector<std::string> problems{"branin", "hartmann6", "ackley-shifted"};
  std::vector<int> workers{1, 4, 8};
  int seeds = 10;
  int n_init = 5;
  int evaluations = 64;              // total, initial design included
  std::string fantasy = "kriging_believer";
};

/// Per problem and worker count: best-so-far curves per seed (after each evaluation) and final bests.
nlohmann::json run_parallel_quality(const ParallelOptions& options, bool verbose);

/// JSON + SVG figures under `dir`; returns the Markdown table.
std::string write_parallel_quality(const nlohmann::json& results, const std::string& dir);

}  // namespace kbo::bench
