// kbo bench bbob: the BBOB noiseless suite, kbo against Optuna's TPE and random search. The runner is
// bench/bbob/run.py (Optuna is a Python library), started with this build's Python module.
#include "command.hpp"
#include "python_runner.hpp"

namespace {

int run_bench_bbob(int argc, char** argv) {
  kbo::cli::exec_python_runner("kbo bench bbob", "bench/bbob/run.py", argc, argv);
}

KBO_FORWARDING_COMMAND("bench bbob", "final gap to the optimum on the 24 BBOB functions: kbo vs Optuna TPE vs random", run_bench_bbob);

}  // namespace
