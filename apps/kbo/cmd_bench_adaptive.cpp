// kbo bench adaptive: the A-GP-UCB experiments (Berkenkamp et al. 2019, Figs. 4–6).
#include <iostream>

#include "adaptive_bench.hpp"
#include "command.hpp"

namespace {

int run_bench_adaptive(int argc, char** argv) {
  CLI::App app{"A-GP-UCB experiments: RKHS function (Fig. 4), berkenkamp function, GP samples with a "
               "misspecified norm (Fig. 5), softmax-regression tuning on digits (Fig. 6)"};
  kbo::bench::AdaptiveBenchOptions o;
  app.add_option("--task", o.task, "rkhs | berkenkamp | gp-samples | classifier | all")->capture_default_str();
  app.add_option("--seeds", o.seeds, "seeds of the synthetic tasks")->capture_default_str();
  app.add_option("--classifier-seeds", o.classifier_seeds, "seeds of the classifier task")->capture_default_str();
  app.add_option("--budget-1d", o.budget_1d, "evaluations per 1-d run (2 initial points included)")
      ->capture_default_str();
  app.add_option("--budget-classifier", o.budget_classifier,
                 "evaluations per classifier run (16 initial points included)")
      ->capture_default_str();
  app.add_option("--noise", o.noise_std, "observation noise std of the synthetic tasks (= model σ)")
      ->capture_default_str();
  app.add_option("--epochs", o.classifier_epochs, "SGD epochs per classifier training")->capture_default_str();
  app.add_option("--raw-samples", o.raw_samples, "acquisition optimiser: Sobol candidates")->capture_default_str();
  app.add_option("--out", o.out_dir, "output directory (JSON, SVG, Markdown)")->capture_default_str();
  app.add_option("--data", o.data_path, "digits CSV")->capture_default_str();
  kbo::cli::parse(app, argc, argv);
  return kbo::bench::run_adaptive_bench(o, std::cout);
}

}  // namespace

KBO_COMMAND("bench adaptive", "regret of A-GP-UCB vs GP-UCB with fixed hyperparameters on Berkenkamp et al.'s tasks", run_bench_adaptive);
