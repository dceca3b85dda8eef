#pragma once
// `kbo bench adaptive`: the experiments of Berkenkamp et al. (JMLR 2019) §5 (Figs. 4–6) in kbo.
#include <ostream>
#include <string>

namespace kbo::bench {

struct AdaptiveBenchOptions {
  std::string task = "all";         // rkhs | berkenkamp | gp-samples | classifier | all
  int seeds = 10;                   // synthetic tasks
  int classifier_seeds = 5;
  int budget_1d = 100;              // evaluations per run, the 2 initial points included
  int budget_classifier = 60;       // evaluations per run, the 16 initial points included
  double noise_std = 0.01;          // observation noise of the synthetic tasks = the models' σ
  int classifier_epochs = 20;
  int raw_samples = 256;            // acquisition optimiser: Sobol candidates
  int num_starts = 4;               // acquisition optimiser: L-BFGS polishes
  std::string out_dir = "docs/bench/adaptive";
  std::string data_path = "data/digits.csv";
};

/// Runs the selected tasks, writes <out_dir>/<task>.json, <task>_{simple,cumulative,g}.svg and
/// <out_dir>/summary_<task>.md; progress goes to `log`. Returns 0.
int run_adaptive_bench(const AdaptiveBenchOptions& options, std::ostream& log);

}  // namespace kbo::bench
