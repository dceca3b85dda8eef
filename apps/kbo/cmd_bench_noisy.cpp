// kbo bench noisy: Branin, Hartmann-6, shifted Ackley-6, Levy-8 and Shekel-10 with Gaussian noise, and a
// cross-validated scikit-learn model, kbo against Optuna's GPSampler, TPE and random search, scored by the
// true value at each method's recommendation. The runner is bench/noisy/run.py (Optuna is a Python
// library), started with this build's Python module.
#include "command.hpp"
#include "python_runner.hpp"

namespace {

int run_bench_noisy(int argc, char** argv) {
  kbo::cli::exec_python_runner("kbo bench noisy", "bench/noisy/run.py", argc, argv);
}

KBO_FORWARDING_COMMAND("bench noisy", "true value at the recommendation on noisy objectives: kbo vs Optuna GPSampler, TPE and random", run_bench_noisy);

}  // namespace
