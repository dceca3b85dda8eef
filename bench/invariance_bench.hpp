#pragma once
// `kbo bench invariance` (paper 003, Table 2 / Figure 4; docs/papers.md#invariance-bo-protocol,
// #invariance-benchmarks, #invariance-fixed-point-artifact): GP-UCB with the base kernel, the orbit-averaged kernel
// (unnormalised / normalised) and the max kernel (kbo default / the paper's always-projected form) on invariant
// test functions, plus timing figures.
//
// Protocol (reference code of the paper, docs/papers.md#invariance-bo-protocol): 5 uniform initial points in
// the unit cube, then per iteration: hyperparameters fitted (MAP, kbo's default priors) on the BASE kernel for
// every variant, UCB with β_t = 0.5·d·log(2t) (t = observations so far), acquisition maximised by kbo's
// multistart optimiser; noisy observations with variance 1% of the function's variance over the box (estimated
// from 4096 uniform samples — the paper's fraction was lost, docs/papers.md#invariance-bo-protocol flags it).
// Regret is on the noiseless function. Initial designs and noise draws are common to all variants of a seed.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/optimize/multistart.hpp"
#include "kbo/core/space.hpp"

namespace kbo::bench {

struct InvarianceTask {
  std::string name;
  int dim = 0;
  Box box;
  std::function<double(const Vec&)> f;  // MINIMISED (WLAN: negative throughput)
  double fmin = 0.0;                     // known minimum (has_fmin)
  bool has_fmin = true;                  // false: report the best value instead of regret (WLAN)
  std::string group;                     // invariance name for make_invariant_kernel
  nlohmann::json group_options = nlohmann::json::object();
  std::string kernel;                    // base kernel type
  double noise_variance = 0.0;
  std::string description;
};

/// ackley2d, griewank6d, rastrigin5d, radial2d, scaling2d, wlan8d; the fixed-point-free variants ackley2d-fpf,
/// griewank6d-fpf, rastrigin5d-fpf (docs/papers.md#invariance-fixed-point-artifact); and ackley<d>d /
/// rastrigin<d>d for the group-size sweep. InputError naming them otherwise.
InvarianceTask make_invariance_task(const std::string& name);
std::string invariance_task_names();

struct KernelVariant {
  std::string label;  // "base", "avg", "avg-norm", "max", "max-proj", "default"
  std::string mode;   // "none" (base kernel) | "average" | "max" | "product" (the default strategy)
  nlohmann::json options = nlohmann::json::object();
};
/// Variant by label; InputError listing the labels otherwise.
KernelVariant kernel_variant(const std::string& label);

struct BoProtocol {
  int n_init = 5;
  int iterations = 50;
  int fit_restarts = 2;
  AcqOptimizerOptions acq;
};

struct BoTrace {
  std::vector<double> values;          // noiseless f at each BO iteration's point
  std::vector<double> regret;          // f − fmin per iteration (has_fmin)
  std::vector<double> cumulative;      // cumulative regret (has_fmin) or best f so far (WLAN)
  std::vector<double> iteration_seconds;
  double seconds = 0.0;
};

BoTrace run_invariant_bo(const InvarianceTask& task, const KernelVariant& variant, std::uint64_t seed,
                         const BoProtocol& protocol);

/// One BO iteration's model + acquisition work on given data (unit cube), for timing: fit on the base
/// kernel, build the variant's GP, maximise UCB. Returns the suggested point.
Vec invariant_bo_step(const InvarianceTask& task, const KernelVariant& variant, const Mat& U, const Vec& y,
                      std::uint64_t seed, const BoProtocol& protocol);

/// Timing figures (JSON): max-kernel Gram fast vs brute force (Rastrigin-5d group, n = 200),
/// hyperoctahedral d = 10 fast path per entry vs a plain Matérn entry, and time per BO iteration with
/// the max kernel vs the base kernel at n = 50, 100, 200.
nlohmann::json invariance_performance(const BoProtocol& protocol);

}  // namespace kbo::bench
