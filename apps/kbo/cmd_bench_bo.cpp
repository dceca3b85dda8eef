// kbo bench bo: BO quality vs random search and time per iteration (issue 3's figures).
#include <iostream>

#include "bo_bench.hpp"
#include "command.hpp"

namespace kbo::cli {
namespace {

int run_bench_bo(int argc, char** argv) {
  CLI::App app{"Benchmark the BO engine: best value after --init + --iters evaluations on Branin, Hartmann-6 and "
               "shifted Ackley-6 vs random search (--seeds seeds), and time per iteration as n grows."};
  std::string out = "docs/bench/bo";
  std::string which = "all";
  kbo::bench::BoQualityOptions q;
  kbo::bench::BoTimingOptions t;
  app.add_option("--out", out, "output directory for JSON and SVG (default docs/bench/bo)");
  app.add_option("--only", which, "all | quality | timing (default all)")->check(CLI::IsMember({"all", "quality", "timing"}));
  app.add_option("--seeds", q.seeds, "seeds per problem and method (default 10)")->check(CLI::Range(1, 1000));
  app.add_option("--init", q.n_init, "initial design size (default 5)")->check(CLI::Range(1, 1000));
  app.add_option("--iters", q.iters, "BO iterations (default 50)")->check(CLI::Range(0, 100000));
  app.add_option("--problems", q.problems, "problems (default branin hartmann6 ackley-shifted)");
  app.add_option("--sizes", t.sizes, "n values of the timing figure (default 10 25 50 100 200 300 500)");
  app.add_option("--reps", t.reps, "timed iterations per n (default 5)")->check(CLI::Range(1, 1000));
  parse(app, argc, argv);
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
KBO_COMMAND("bench bo", "BO quality vs random search and time per iteration", run_bench_bo);
}  // namespace kbo::cli
