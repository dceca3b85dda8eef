#pragma once
// Hamiltonian Monte Carlo (Neal 2011) for smooth unconstrained targets, e.g. GP log-hyperparameters.
//
// Generic over a log-density functor that returns log π(q) (up to a constant) and fills its gradient.
// Each iteration: draw momentum p ~ N(0, M) with a diagonal mass matrix M, run L leapfrog steps of size
// ε, accept with probability min(1, exp(H_old − H_new)) (Metropolis correction, so the chain targets π
// exactly for any ε). During warm-up ε is tuned by dual averaging (Hoffman & Gelman 2014, §3.2) towards
// a target acceptance probability, and M⁻¹ is set to the sample variances of the middle of the warm-up
// (Stan's windowed adaptation, one window); after warm-up both are frozen so the chain is a valid MCMC.
#include <cstdint>
#include <functional>

#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"

namespace kbo {

/// log π(q) up to a constant; fills *grad with ∇ log π(q) when grad != nullptr. May return -inf (or
/// throw NumericalError) outside the support: such proposals are rejected.
using LogDensityFn = std::function<double(const Vec& q, Vec* grad)>;

struct HmcOptions {
  int num_warmup = 500;          // adaptation iterations (discarded)
  int num_samples = 1000;        // kept iterations (after thinning: num_samples / thin rows)
  int thin = 1;
  int num_leapfrog = 16;         // L (number of leapfrog steps per trajectory)
  bool jitter_steps = true;      // draw L uniformly from {⌈L/2⌉,…,⌊3L/2⌋} to avoid periodic trajectories
  double step_size = 0.1;        // initial ε (adapted during warm-up when adapt_step_size)
  bool adapt_step_size = true;
  double target_accept = 0.8;    // dual-averaging target
  bool adapt_mass = true;        // diagonal mass from the warm-up's middle window (needs num_warmup ≥ 50)
  Vec inverse_mass;              // initial diagonal M⁻¹ (empty ⇒ ones)
};

struct HmcResult {
  Mat samples;                   // rows: kept draws (num_samples / thin) x dim
  Vec log_density;               // log π at each kept draw
  double acceptance_rate = 0.0;  // mean Metropolis acceptance probability after warm-up
  double step_size = 0.0;        // ε used after warm-up
  Vec inverse_mass;              // M⁻¹ used after warm-up (can warm-start a later chain)
  int divergences = 0;           // post-warm-up trajectories whose energy error exceeded 1000
};

/// Runs one chain from q0. InputError for non-finite q0, log π(q0) = −inf, or bad options.
HmcResult hmc_sample(const LogDensityFn& log_density, const Vec& q0, const HmcOptions& options, Rng& rng);

/// The adaptation one chain hands to the next: a strategy that samples θ at every suggestion starts each
/// chain with the previous chain's step size and diagonal inverse mass (faster warm-up, same target).
struct HmcCarry {
  double step_size = 0.1;
  Vec inverse_mass;  // empty ⇒ ones
};

/// hmc_sample with num_warmup / num_samples / num_leapfrog and the adaptation carried in `carry` (mass
/// adapted when num_warmup ≥ 50; a carried mass of the wrong dimension is ignored); updates `carry`.
HmcResult hmc_sample_carried(const LogDensityFn& log_density, const Vec& q0, int num_warmup, int num_samples,
                             int num_leapfrog, HmcCarry& carry, Rng& rng);

/// Effective sample size of a scalar chain by Geyer's initial monotone positive sequence estimator.
double effective_sample_size(const Vec& chain);

}  // namespace kbo
