// kbo bench kfo: KFO's synthetic log-likelihoods + posterior plots (Fig. 2), SVM test errors (Table 1),
// GP test NLLs (Table 2) and runtime shares (Table 3), next to the paper's numbers.
#include <iostream>
#include <sstream>

#include "bench_support.hpp"
#include "command.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kfo_bench.hpp"

namespace {

using kbo::cli::split_list;

int run_bench_kfo(int argc, char** argv) {
  CLI::App app{"KFO benchmarks (Kumar A V et al.): synthetic LML + Fig. 2 posteriors, SVM Table 1, GP Table 2, runtimes Table 3"};
  kbo::bench::KfoBenchOptions o;
  std::string parts = "synthetic,svm,gp,runtime", svm_sets, gp_sets;
  app.add_option("--out", o.out_dir, "output directory (JSON, SVG, Markdown)")->capture_default_str();
  app.add_option("--data-dir", o.data_dir, "directory of the CSV data sets (default ./data)");
  app.add_option("--parts", parts, "comma list of synthetic, svm, gp, runtime")->capture_default_str();
  app.add_option("--runs", o.runs, "synthetic repetitions")->capture_default_str();
  app.add_option("--splits", o.splits, "random 80/20 splits per data set")->capture_default_str();
  app.add_option("--svm-datasets", svm_sets, "comma list of files or names (default: all the paper's present in data/)");
  app.add_option("--gp-datasets", gp_sets, "comma list of files or names");
  app.add_option("--max-rows", o.max_rows, "subsample larger data sets to this many rows")->capture_default_str();
  app.add_option("--subspaces", o.subspaces, "S")->capture_default_str();
  app.add_option("--iterations", o.iterations, "T")->capture_default_str();
  app.add_option("--outer-init", o.outer_init, "outer BO initial Θ (0: no tuning, Θ = (0.5, 0.5))")->capture_default_str();
  app.add_option("--outer-iterations", o.outer_iterations, "outer BO steps")->capture_default_str();
  app.add_option("--max-search-points", o.max_search_points, "training points used by the search objectives")->capture_default_str();
  app.add_option("--cv-folds", o.cv_folds, "SVM CV folds")->capture_default_str();
  app.add_flag("--start-from-baseline", o.start_from_baseline, "GP tasks: start the search at the best baseline kernel");
  bool no_fallback = false;
  app.add_flag("--no-fallback", no_fallback, "the kfo rows are the learned kernel even where it does not validate better "
               "than the RBF baseline on the training part (the paper's protocol)");
  app.add_option("--input-scaling", o.input_scaling, "ard | none (KFO's functional on ARD-scaled inputs, or the paper's)")
      ->capture_default_str();
  app.add_option("--gp-psd", o.gp_psd, "alpha-clip | flip | none (Kreĭn → PSD for GP kernels)")->capture_default_str();
  bool ml_ii = false;
  app.add_flag("--ml-ii", ml_ii, "plain ML-II GP fits (default: MAP with kbo's default priors, see docs/bench/kfo.md)");
  app.add_option("--seed", o.seed, "seed")->capture_default_str();
  kbo::cli::parse(app, argc, argv);
  o.parts = split_list(parts);
  o.gp_map = !ml_ii;
  o.fallback_to_rbf = !no_fallback;
  (void)kbo::kfo::parse_gp_psd(o.gp_psd);  // InputError for an unknown name before any work
  (void)kbo::kfo::parse_input_scaling(o.input_scaling);
  o.svm_datasets = split_list(svm_sets);
  o.gp_datasets = split_list(gp_sets);
  if (o.runs < 1 || o.splits < 1) throw kbo::InputError("--runs and --splits must be >= 1");
  if (o.subspaces < 1 || o.iterations < 0 || o.outer_init < 0 || o.outer_iterations < 0 || o.cv_folds < 2 ||
      o.max_search_points < 10)
    throw kbo::InputError("--subspaces >= 1, --iterations/--outer-* >= 0, --cv-folds >= 2, --max-search-points >= 10");
  const auto J = kbo::bench::run_kfo_bench(o, std::cerr);
  for (const auto& part : o.parts) std::cout << "wrote " << o.out_dir << "/" << part << ".{md,json}\n";
  (void)J;
  return 0;
}

}  // namespace

KBO_COMMAND("bench kfo", "kernels learned by KFO vs standard ones: marginal likelihood, SVM error, GP test likelihood, runtime", run_bench_kfo);
