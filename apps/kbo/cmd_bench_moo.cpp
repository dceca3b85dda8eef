// kbo bench moo: multi-objective problems (BraninCurrin, ZDT1-3, DTLZ2, VehicleSafety), kbo against Optuna's
// NSGA-II, GPSampler and random search by hypervolume. The runner is bench/moo/run.py (Optuna is a Python
// library), started with this build's Python module.
#include "command.hpp"
#include "python_runner.hpp"

namespace {

int run_bench_moo(int argc, char** argv) {
  kbo::cli::exec_python_runner("kbo bench moo", "bench/moo/run.py", argc, argv);
}

KBO_FORWARDING_COMMAND("bench moo", "hypervolume on several objectives: kbo vs Optuna NSGA-II, GPSampler and random", run_bench_moo);

}  // namespace
