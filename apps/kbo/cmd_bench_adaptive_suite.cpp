// kbo bench adaptive-suite: A-GP-UCB with the defaults of `kbo optimize --strategy agpucb` against
// default GP-UCB and random search (docs/bench/adaptive.md).
#include <iostream>

#include "adaptive_suite.hpp"
#include "bo_bench.hpp"
#include "bench_support.hpp"
#include "command.hpp"
#include "kbo/core/error.hpp"

namespace {

using kbo::cli::split_list;

int run_bench_adaptive_suite(int argc, char** argv) {
  CLI::App app{"A-GP-UCB as `kbo optimize --strategy agpucb` runs it (defaults only) vs default GP-UCB and random "
               "search: narrow-global functions (found within the budget, cumulative regret) and Branin, "
               "Hartmann-6, Ackley-6 shifted (best after 5 + iters)"};
  kbo::bench::AdaptiveSuiteOptions o;
  std::string parts = "narrow,standard", problems, seeds = "10", methods = "agpucb,gpucb,random", agpucb_options;
  app.add_option("--parts", parts, "narrow, standard, short (the standard problems at 6·d evaluations), heldout "
                 "(Levy-4, Rosenbrock-4, Styblinski-Tang-5, Michalewicz-5, Ackley-5 shifted at 6·d evaluations); "
                 "comma-separated")->capture_default_str();
  app.add_option("--problems", problems,
                 "only these problems: well-1d, bowl-1d, wells-2d, bowl-2d, branin, hartmann6, ackley-shifted, "
                 "levy-4, rosenbrock-4, styblinski-tang-5, michalewicz-5, ackley-shifted-5");
  app.add_option("--seeds", seeds, "N (0..N-1), A-B or a comma-separated list")->capture_default_str();
  app.add_option("--methods", methods, "strategies to compare")->capture_default_str();
  app.add_option("--budget", o.budget, "narrow part: evaluations per run (5 initial included)")->capture_default_str();
  app.add_option("--iters", o.iters, "standard part: iterations after the 5 initial points")->capture_default_str();
  app.add_option("--agpucb-options", agpucb_options,
                 "a variant of agpucb: JSON of its \"agpucb\" options section (default: none, the product defaults)");
  app.add_flag("--trace", o.trace, "narrow part: keep each suggestion's diagnostics (h, θ, arms…) in suite.json");
  app.add_option("--out", o.out_dir, "output directory (suite.json)")->capture_default_str();
  kbo::cli::parse(app, argc, argv);
  o.parts = split_list(parts);
  o.problems = split_list(problems);
  o.methods = split_list(methods);
  o.seeds = kbo::bench::parse_seed_list(seeds);
  if (!agpucb_options.empty()) {
    o.agpucb_options = nlohmann::json::parse(agpucb_options, nullptr, false);
    if (!o.agpucb_options.is_object())
      throw kbo::InputError("--agpucb-options must be a JSON object, e.g. '{\"estimator\": \"onestep\"}'");
  }
  const nlohmann::json res = kbo::bench::run_adaptive_suite(o, true);
  std::cout << kbo::bench::write_adaptive_suite(res, o.out_dir);
  return 0;
}

}  // namespace

KBO_COMMAND("bench adaptive-suite", "regret of A-GP-UCB with kbo optimize's defaults vs GP-UCB and random search",
            run_bench_adaptive_suite);
