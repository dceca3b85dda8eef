// kbo bench bo: BO quality vs random search and time per iteration (docs/bench/bo.md).
#include <iostream>

#include "bo_bench.hpp"
#include "command.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"

namespace kbo::cli {
namespace {

int run_bench_bo(int argc, char** argv) {
  CLI::App app{"Benchmark the BO engine: best value after --init + --iters evaluations on Branin, Hartmann-6 and "
               "shifted Ackley-6 vs random search (--seeds seeds), and time per iteration as n grows."};
  std::string out = "docs/bench/bo";
  std::string which = "all";
  std::string seeds = "10";
  std::vector<std::string> bo_options;
  kbo::bench::BoQualityOptions q;
  kbo::bench::BoTimingOptions t;
  app.add_option("--out", out, "output directory for JSON and SVG (default docs/bench/bo)");
  app.add_option("--only", which, "all | quality | timing (default all)")->check(CLI::IsMember({"all", "quality", "timing"}));
  app.add_option("--seeds", seeds,
                 "seeds per problem and method: N (seeds 0..N-1, default 10), A-B (A..B) or a comma-separated list");
  app.add_option("--init", q.n_init, "initial design size (default 5)")->check(CLI::Range(1, 1000));
  app.add_option("--iters", q.iters, "BO iterations (default 50)")->check(CLI::Range(0, 100000));
  app.add_option("--problems", q.problems, "problems (default branin hartmann6 ackley-shifted)");
  app.add_option("--methods", q.methods, "methods of the quality figure (default gpucb random)")
      ->check(CLI::IsMember({"gpucb", "random"}));
  app.add_option("--fit-restarts", q.fit_restarts, "gpucb variant: random hyperparameter restarts per refit (default 2)")
      ->check(CLI::Range(0, 64));
  app.add_option("--raw-samples", q.raw_samples, "gpucb variant: Sobol candidates of the acquisition search (default 512)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--num-starts", q.num_starts, "gpucb variant: L-BFGS polishes of the acquisition search (default 8)")
      ->check(CLI::Range(0, 1000));
  app.add_option("--bo", bo_options,
                 "gpucb variant: BO model option KEY=VALUE (repeatable; keys of kbo::BOModelOptions, e.g. "
                 "noise=exact, prior_mean=gls)");
  app.add_option("--kernel", q.kernel, "gpucb variant: the model's kernel (default: kbo optimize's, matern52)");
  app.add_flag("--trace", q.trace, "keep every gpucb iteration's fitted hyperparameters and point in quality.json");
  app.add_option("--sizes", t.sizes, "n values of the timing figure (default 10 25 50 100 200 300 500)");
  app.add_option("--reps", t.reps, "timed iterations per n (default 5)")->check(CLI::Range(1, 1000));
  parse(app, argc, argv);
  q.seeds = kbo::bench::parse_seed_list(seeds);
  for (const auto& kv : bo_options) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--bo '" + kv + "': expected KEY=VALUE (a BO model option and a number or true/false)");
    auto value = nlohmann::json::parse(kv.substr(eq + 1), nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded()) value = kv.substr(eq + 1);  // a word: string options (e.g. output_warp=copula)
    if (!(value.is_number() || value.is_boolean() || value.is_string()))
      throw InputError("--bo '" + kv + "': the value must be a number, true/false or a word");
    q.bo_options[kv.substr(0, eq)] = value;
  }
  kbo::BOModelOptions::from_json(q.bo_options);  // unknown keys / bad values fail before any run
  t.bo_options = q.bo_options;
  t.fit_restarts = q.fit_restarts;
  t.raw_samples = q.raw_samples;
  t.num_starts = q.num_starts;
  if (which != "timing") {
    const auto res = kbo::bench::run_bo_quality(q, true);
    std::cout << "## BO quality\n\n" << kbo::bench::write_bo_quality(res, out) << "\n";
  }
  if (which != "quality") {
    const auto res = kbo::bench::run_bo_timing(t, true);
    std::cout << "## Time per iteration\n\n" << kbo::bench::write_bo_timing(res, out) << "\n";
  }
  return 0;
}

}  // namespace
KBO_COMMAND("bench bo", "best value vs random search and time per BO iteration", run_bench_bo);
}  // namespace kbo::cli
