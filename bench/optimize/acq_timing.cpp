// Timing and quality of one maximize_acquisition call on a GP with n = 100 points in d = 6
// (Matérn-5/2 ARD fitted by ML-II on Ackley-shifted-6 targets at uniform points), for UCB (β = 4) and
// log-EI, with each optimiser: multistart (512 Sobol raw samples, 8 L-BFGS starts, ≤ 200 evaluations
// each), cmaes (same starts, ≤ 200 evaluations each) and direct (2000 evaluations). The quality
// reference is the best value any optimiser reaches with a 16x larger budget (8192 raw samples, 64 starts).
// Times: wall clock and process CPU time per call, median and minimum over `reps` calls with seeds
// 0..reps-1 (the CPU time is robust to other processes sharing the machine). Prints JSON.
//
// Build and run: see docs/bench/optimize.md (not part of the CMake build: it links the static libraries).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/optimize/problems.hpp"

using namespace kbo;

static double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 30;
  const int n = 100, d = 6;
  const Problem p = make_problem("ackley-shifted", d);
  Rng rng = make_rng(1);
  std::uniform_real_distribution<double> unif(0, 1);
  Mat X(n, d);
  Vec y(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) X(i, j) = unif(rng);
    y[i] = -p.f(X.row(i).transpose());  // the GP models a quantity to maximise
  }
  GP gp(make_stationary("matern52", d, true, 0.3, 1.0), 1e-4, true, true);
  gp.set_data(X, y);
  FitOptions fo;
  fo.restarts = 2;
  gp.fit(fo);
  BoxSpace space(Box::unit(d));
  UpperConfidenceBound ucb(gp, 4.0);
  LogExpectedImprovement lei(gp, y.maxCoeff());

  std::printf("{\"n\": %d, \"d\": %d, \"threads\": %d, \"reps\": %d, \"results\": [\n", n, d, threads, reps);
  bool first = true;
  for (const char* acq_name : {"ucb", "logei"}) {
    const Acquisition& acq = std::string(acq_name) == "ucb" ? static_cast<const Acquisition&>(ucb) : lei;
    // Reference optimum: the best of all optimisers with a 16x budget.
    double reference = -1e300;
    for (auto type : {AcqOptimizerType::MultiStart, AcqOptimizerType::Cmaes, AcqOptimizerType::Direct}) {
      AcqOptimizerOptions big;
      big.type = type;
      big.raw_samples = 8192;
      big.num_starts = 64;
      big.threads = threads;
      big.max_evaluations = type == AcqOptimizerType::Direct ? 32000 : 400;
      reference = std::max(reference, maximize_acquisition(acq, space, big).value);
    }
    for (auto type : {AcqOptimizerType::MultiStart, AcqOptimizerType::Cmaes, AcqOptimizerType::Direct}) {
      AcqOptimizerOptions o;
      o.type = type;
      o.raw_samples = 512;
      o.num_starts = 8;
      o.threads = threads;
      if (type == AcqOptimizerType::Direct) o.max_evaluations = 2000;
      std::vector<double> wall, cpu, gap;
      int evals = 0;
      for (int k = 0; k < reps; ++k) {
        o.seed = static_cast<std::uint64_t>(k);
        const double c0 = cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        const OptResult r = maximize_acquisition(acq, space, o);
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        cpu.push_back(cpu_seconds() - c0);
        gap.push_back(std::max(0.0, reference - r.value));
        evals = r.evaluations;
      }
      std::sort(wall.begin(), wall.end());
      std::sort(cpu.begin(), cpu.end());
      std::sort(gap.begin(), gap.end());
      const char* name = type == AcqOptimizerType::MultiStart ? "multistart" : type == AcqOptimizerType::Cmaes ? "cmaes" : "direct";
      std::printf("%s  {\"acquisition\": \"%s\", \"optimizer\": \"%s\", \"evaluations\": %d, "
                  "\"wall_ms_median\": %.3f, \"wall_ms_min\": %.3f, \"cpu_ms_median\": %.3f, \"cpu_ms_min\": %.3f, "
                  "\"reference\": %.6f, \"gap_median\": %.3g, \"gap_max\": %.3g}",
                  first ? "" : ",\n", acq_name, name, evals, 1e3 * wall[reps / 2], 1e3 * wall[0], 1e3 * cpu[reps / 2],
                  1e3 * cpu[0], reference, gap[reps / 2], gap.back());
      first = false;
    }
  }
  std::printf("\n]}\n");
}
