#pragma once
// KFO Algorithm 1: Bayesian functional optimisation over kernel functionals, as a sequence of random
// low-dimensional subspaces (LINEBO-style). A functional is its PCA coordinate vector z ∈ R^N.
//   K# ← z_start (paper: 0)
//   for s = 1..S: draw d directions β ~ N(0, I_N) (B = [β_1 … β_d]); z(λ) = z# + B λ, λ ∈ [lambda_lo, 1]^d;
//                 n_init random λ, then T GP-UCB steps: outer GP with an SE kernel on z (kbo::GP, inputs z),
//                 β_t = 2 log(t^{d/2+2} π² / (3δ)) (docs/papers.md#kfo-subspace-search, t = step within the
//                 subspace), UCB maximised over λ;
//                 after the subspace K# ← the best z seen so far.
// Paper: GP on all data so far; authors' code: reset_gp_per_subspace = true, lambda_lo = 0.1, d = 1.
#include <cstdint>
#include <functional>
#include <vector>

#include "kbo/core/linalg.hpp"

namespace kbo::kfo {

struct SearchOptions {
  int subspaces = 5;              // S
  int iterations = 20;            // T (paper; the authors' code runs 5)
  int basis_per_subspace = 1;     // d
  int n_init_per_subspace = 4;
  double lambda_lo = 0.0;         // λ ∈ [lambda_lo, 1]^d (paper 0, code 0.1)
  bool reset_gp_per_subspace = false;
  bool evaluate_start = false;    // also evaluate z_start first (used when starting from a baseline kernel)
  double delta = 0.1;             // δ in β_t
  int fit_restarts = 2;           // outer-GP hyperparameter restarts per step
  std::uint64_t seed = 0;
  /// Called after every evaluation with (k, n, best so far): evaluation k of the n this search makes.
  std::function<void(int k, int n, double best)> on_evaluation;
};

/// Evaluations search_functional makes with these options: (start) + S·(n_init + T).
int search_evaluations(const SearchOptions& options);

using FunctionalObjective = std::function<double(const Vec& z)>;  // maximised

struct SearchResult {
  Vec z_best;
  double y_best = 0.0;
  std::vector<Vec> z;              // every evaluated functional, in order
  std::vector<double> y;
  std::vector<int> subspace;       // subspace index of each evaluation (−1 for the start)
  double seconds_evaluating = 0.0; // inside the objective
  double seconds_optimising = 0.0; // outer GP fits + acquisition maximisation + bookkeeping
};

/// Runs Algorithm 1 on f over N = dimension coordinates. InputError on invalid options.
SearchResult search_functional(const FunctionalObjective& f, int dimension, const SearchOptions& options,
                               const Vec& z_start = Vec());

}  // namespace kbo::kfo
