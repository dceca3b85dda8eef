// kbo bench structure: structured problems through the product path: plain GP on the flat
// vector vs each structured kernel vs auto vs random search.
#include <cmath>
#include <iostream>

#include "bench_support.hpp"
#include "bo_bench.hpp"  // parse_seed_list
#include "command.hpp"
#include "kbo/core/error.hpp"
#include "report.hpp"
#include "structure_bench.hpp"

namespace kbo::cli {
namespace {

int run_bench_structure(int argc, char** argv) {
  CLI::App app{"Structured problems (facility location, covering, k-means on data/seeds.csv, permutation- and "
               "sign-invariant functions off the fixed points, an unstructured control) run as `kbo optimize` "
               "runs them: plain GP on the flat vector vs each structured kernel vs auto vs random search."};
  kbo::bench::StructureBenchOptions o;
  std::string out = "docs/bench/structure";
  std::string seeds = "10";
  std::string problems, methods, options;
  app.add_option("--out", out, "output directory for results.json, results.md and SVG (default docs/bench/structure)");
  app.add_option("--seeds", seeds, "seeds per problem and method: N (0..N-1, default 10), A-B or a comma list");
  app.add_option("--init", o.n_init, "initial design size (default 5)")->check(CLI::Range(1, 1000));
  app.add_option("--iters", o.iters, "BO iterations (default 40)")->check(CLI::Range(0, 100000));
  app.add_option("--problems", problems, "comma list of problems (default all)");
  std::string method_list;
  for (const auto& m : kbo::bench::structure_method_names()) method_list += (method_list.empty() ? "" : ", ") + m;
  app.add_option("--methods", methods,
                 "comma list of methods (default all): " + method_list +
                     "; `default` is the structured kernel a user gets without choosing one");
  app.add_option("--data", o.data_dir, "directory of the data sets (default data)");
  app.add_option("--timing-n", o.timing_n, "also time one suggestion at n observations per kernel (0 = no)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--timing-reps", o.timing_reps, "timed suggestions per kernel (default 3)")->check(CLI::Range(1, 1000));
  app.add_option("--options", options,
                 "module options as `kbo optimize --options` takes them, for every method but random, e.g. "
                 "'{\"bo\": {\"endgame_fraction\": 0.34}}'");
  double beta = 0.0;
  CLI::Option* beta_option =
      app.add_option("--beta", beta, "UCB's β for every model-based method, as `kbo optimize --beta` (default: its default)");
  parse(app, argc, argv);
  if (!options.empty()) {
    o.module_options = nlohmann::json::parse(options, nullptr, /*allow_exceptions=*/false);
    if (!o.module_options.is_object())
      throw InputError("--options must be a JSON object of sections, e.g. '{\"bo\": {\"endgame_fraction\": 0.34}}'");
  }
  if (beta_option->count() > 0) {
    if (!(beta >= 0.0) || !std::isfinite(beta))
      throw InputError("--beta must be a finite number >= 0 (got " + std::to_string(beta) + ")");
    o.beta = beta;
  }
  o.seeds = kbo::bench::parse_seed_list(seeds);
  o.problems = split_list(problems);
  o.methods = split_list(methods);
  const auto names = kbo::bench::structure_problem_names();
  for (const auto& p : o.problems)
    if (std::find(names.begin(), names.end(), p) == names.end())
      throw InputError("--problems: unknown problem '" + p +
                       "' (allowed: facility, covering, kmeans-seeds, perm-offcentre, signflip-offcentre, control-hartmann6)");
  const std::vector<std::string> all = kbo::bench::structure_method_names();
  for (const auto& m : o.methods)
    if (std::find(all.begin(), all.end(), m) == all.end())
      throw InputError("--methods: unknown method '" + m + "' (allowed: " + method_list + ")");
  const nlohmann::json res = kbo::bench::run_structure_bench(o, true);
  kbo::bench::write_text(out + "/results.json", res.dump(1) + "\n");
  const std::string md = kbo::bench::write_structure_bench(res, out);
  kbo::bench::write_text(out + "/results.md", md);
  std::cout << md;
  return 0;
}

}  // namespace
KBO_COMMAND("bench structure", "best value on set and symmetric problems: structured kernels vs the flat GP",
            run_bench_structure);
}  // namespace kbo::cli
