#pragma once
// The one multi-start hyperparameter fitter. As in BoTorch (`fit_gpytorch_mll`), fitting is a free
// function over a model rather than something each caller re-implements: it maximises the log marginal
// likelihood of a GP's data — plus Σ_p log prior_p(θ_p) for MAP — over the log-hyperparameters
// θ = [kernel.log_params()..., log noise variance] with bounded L-BFGS (NLopt), from several starts:
//
//   starts ─clamp into [lower, upper]─▶ screen: when 0 < polish < #starts, evaluate every start once (value
//   only, one Cholesky each) and keep the best `polish` (ties: start order) ─▶ one L-BFGS run per kept start
//   (≤ max_evaluations objective evaluations; the best point seen is the run's result) ─▶ best of the runs
//   (ties: the first in start order, so the result never depends on thread timing).
//
// Who supplies what:
//   GP::fit (gp.hpp)         starts = the current θ + FitOptions::restarts random draws in data-aware
//                            ranges per parameter role; bounds GP::default_bounds; priors GP::default_priors.
//   BOStrategy::refit        starts = warm start + random restarts seeded per trial; its configured bounds
//                            and priors; several models in one call (one thread pool for all runs).
//
// Threads: runs go to a pool of min(#runs, hardware threads), at every n; BLAS stays single-threaded
// (kbo/core/blas_threads.hpp). The result does not depend on the thread count.
#include <vector>

#include "kbo/core/priors.hpp"
#include "kbo/model/gp.hpp"

namespace kbo {

/// One GP's fitting problem. Every vector is indexed like GP::hyperparameters().
struct HyperparameterFit {
  std::vector<Vec> starts;     // full θ vectors (log space); at least one
  Vec lower, upper;            // log-space bounds per θ entry (starts are clamped into them)
  std::vector<bool> mask;      // which entries move; the others keep their start value. Empty ⇒ all
  bool map = false;            // maximise LML + Σ_p priors[p].log_density(θ_p) instead of the LML
  std::vector<Prior> priors;   // with map: per θ entry (a shorter vector leaves the rest without prior)
  int polish = 0;              // 0 < polish < #starts: screen the starts by value, polish the best `polish`;
                               // otherwise every start is polished
  int max_evaluations = 100;   // per L-BFGS run
};

struct FitResult {
  Vec theta;                       // the best θ found (log space)
  double value = 0.0;              // the objective there: LML, or LML + log prior with map
  std::vector<double> run_values;  // best objective of each L-BFGS run, in start order (−inf: no finite value)
};

/// Fits one GP. Does not change `gp`: set its θ with gp.set_hyperparameters(result.theta).
/// InputError on inconsistent sizes; NumericalError when no run reaches a finite objective.
FitResult fit_hyperparameters(const GP& gp, const HyperparameterFit& fit);

/// Fits several GPs (fits[i] for *gps[i]) with all their runs in one thread pool.
std::vector<FitResult> fit_hyperparameters(const std::vector<const GP*>& gps, const std::vector<HyperparameterFit>& fits);

}  // namespace kbo
