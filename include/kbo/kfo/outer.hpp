#pragma once
// Outer BO over the hyperkernel hyperparameters Θ = (λh, l) (paper: "tuned by a standard BO on
// D = {(Θ, Γ(Θ))}"). Γ(Θ) is supplied by the caller and must only use training data (kbo: the CV score or
// log-likelihood of the best kernel a KFO run finds at Θ). GP with a fitted SE-ARD kernel on the unit
// square (λh linear, l log-scaled), log-EI maximised by kbo's multi-start optimiser.
#include <cstdint>
#include <functional>
#include <vector>

#include "kbo/kfo/hyperkernel.hpp"

namespace kbo::kfo {

struct OuterOptions {
  int n_init = 3;          // Sobol points (authors' code: dim + 1 = 3 uniform points)
  int iterations = 5;      // BO steps after the initial design (authors' code: 20)
  double lambda_lo = 0.1, lambda_hi = 0.9;
  double l_lo = 0.02, l_hi = 2.0;  // searched on a log scale
  std::uint64_t seed = 0;
};

struct OuterResult {
  HyperkernelParams best;
  double best_value = 0.0;
  int best_index = 0;
  std::vector<HyperkernelParams> thetas;
  std::vector<double> values;
};

using HyperObjective = std::function<double(const HyperkernelParams&)>;  // maximised
OuterResult tune_hyperkernel(const HyperObjective& gamma, const OuterOptions& options);

}  // namespace kbo::kfo
