#pragma once
// What the data say about observation noise, for BOModelOptions::noise "infer" (bo_refit.cpp has the
// evidence comparison). A rugged deterministic objective and a noisy one can look alike to the evidence;
// a replicate tells them apart at once: a deterministic objective returns the same value at the same point.
#include "kbo/core/linalg.hpp"

namespace kbo {

/// The noise model's levels, as variances of the standardised targets (the model's units).
struct NoiseLevels {
  // The near-exact hypothesis: noise at most 1 % of the targets' variance, so a deterministic objective's
  // model may not explain structure as noise (BBOB d = 5: beats random search on all 24 functions).
  static constexpr double exact_cap = 0.01;
  static constexpr double free_cap = 1.0;  // the noisy hypothesis: any level up to the targets' variance
  // Lower bound 1e-6 (BoTorch's 1e-4 could not resolve differences below ~1 % of the targets' standard
  // deviation: a Branin run stalled at 1.94); from late_floor_from observations on 1e-8, since a long run's
  // data crowd the optimum and 1e-6 hid the differences the last digits need (Ackley-10 stalled at 1e-3),
  // while 1e-8 throughout made Ackley-6's 55-evaluation runs worse (2.34 vs 2.11; docs/bench/scale.md).
  static constexpr double floor = 1e-6;
  static constexpr double late_floor = 1e-8;
  static constexpr int late_floor_from = 200;
  // Random restarts draw the noise log-uniformly in [floor, min(restart_max, cap)]: with 0.1 more Ackley-6
  // runs stalled on the plateau (docs/bench/bo.md).
  static constexpr double restart_max = 0.5;
  static constexpr double fixed_start = 1e-4;  // the noise of BOModelOptions::fixed_start_lengthscale's start
  // The prior on the noise variance, Gamma(1.1, 0.05) as a density of the value: BoTorch's SingleTaskGP.
  static constexpr double prior_shape = 1.1;
  static constexpr double prior_rate = 0.05;
};

enum class ReplicateVerdict {
  None,   // no point was evaluated twice
  Exact,  // every replicated point returned the same value (to 1e-9 of the values' spread)
  Noisy,  // some replicated point returned different values
};

/// The verdict of the rows of X that occur more than once (bit-identical rows) with their values y.
ReplicateVerdict replicate_verdict(const Mat& X, const Vec& y);

/// True when `x` is bit-identical to a row of M.
bool contains_row(const Mat& M, const Vec& x);

}  // namespace kbo
