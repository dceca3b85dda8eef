// kbo bench parallel: the quality cost of q parallel workers with fantasies (docs/bench/parallel.md).
#include <iostream>

#include "parallel_bench.hpp"
#include "command.hpp"
#include "kbo/core/error.hpp"
#include "kbo/acquisition/fantasy.hpp"

namespace kbo::cli {
namespace {

int run_bench_parallel(int argc, char** argv) {
  CLI::App app{"Quality cost of parallelism: best value after --evaluations evaluations of Branin, Hartmann-6 and "
               "shifted Ackley-6 with 1 (sequential), 4 and 8 simulated workers (batches of q suggestions, each "
               "asked with the batch's earlier points pending as fantasies), --seeds seeds."};
  std::string out = "docs/bench/parallel";
  kbo::bench::ParallelOptions o;
  app.add_option("--out", out, "output directory for JSON and SVG (default docs/bench/parallel)");
  app.add_option("--seeds", o.seeds, "seeds per problem and worker count (default 10)")->check(CLI::Range(1, 1000));
  app.add_option("--init", o.n_init, "initial design size (default 5)")->check(CLI::Range(1, 1000));
  app.add_option("--evaluations", o.evaluations, "evaluations per run, design included (default 64)")
      ->check(CLI::Range(2, 100000));
  app.add_option("--workers", o.workers, "worker counts q (default 1 4 8)")->check(CLI::Range(1, 1000));
  app.add_option("--problems", o.problems, "problems (default branin hartmann6 ackley-shifted)");
  app.add_option("--fantasy", o.fantasy, std::string("fantasy for pending points: ") + fantasy_mode_names());
  parse(app, argc, argv);
  parse_fantasy_mode(o.fantasy);  // InputError naming the modes
  if (o.n_init >= o.evaluations) throw InputError("--init must be smaller than --evaluations");
  const auto res = kbo::bench::run_parallel_quality(o, true);
  std::cout << kbo::bench::write_parallel_quality(res, out) << "\n";
  return 0;
}

}  // namespace
KBO_COMMAND("bench parallel", "best value reached with q parallel workers (fantasies) against the sequential loop", run_bench_parallel);
}  // namespace kbo::cli
