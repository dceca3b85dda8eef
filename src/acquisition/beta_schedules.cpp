// Exploration schedules β_t for GP-UCB; the UCB uses μ + sqrt(β_t) σ.
#include <cmath>
#include <numbers>
#include <string>

#include "kbo/acquisition/acquisition.hpp"

namespace kbo {

// Srinivas, Krause, Kakade & Seeger, "Information-theoretic regret bounds for Gaussian process
// optimization in the bandit setting", IEEE Trans. Inf. Theory 58(5), 2012. Theorem 1 (finite D) uses
// β_t = 2 log(|D| t² π² / (6δ)); Theorem 2 (compact D ⊂ R^d) adds a discretisation term growing like
// d log t. With the problem constants dropped this is the practical form popularised by Brochu, Cora &
// de Freitas, "A tutorial on Bayesian optimization of expensive cost functions" (2010), §2.3:
//     β_t = 2 log(t^{d/2 + 2} π² / (3δ)).
double beta_srinivas(int t, int dim, double delta) {
  if (t < 1) throw InputError("beta_srinivas: iteration t must be >= 1, got " + std::to_string(t));
  if (dim < 1) throw InputError("beta_srinivas: dimension must be >= 1, got " + std::to_string(dim));
  if (!(delta > 0.0 && delta < 1.0))
    throw InputError("beta_srinivas: delta must be in (0, 1), got " + std::to_string(delta));
  const double pi2 = std::numbers::pi * std::numbers::pi;
  return 2.0 * ((0.5 * dim + 2.0) * std::log(static_cast<double>(t)) + std::log(pi2 / (3.0 * delta)));
}

// Chowdhury & Gopalan, "On kernelized multi-armed bandits", ICML 2017, Theorem 2 (IGP-UCB):
//     sqrt(β_t) = B + R sqrt(2 (γ_{t-1} + 1 + ln(1/δ))),
// B a bound on the RKHS norm of f, R the sub-Gaussian noise level, γ the information gain of the data
// seen so far (GP::information_gain() = ½ log det(I + σ⁻² K)). Returns β_t (squared).
double beta_chowdhury(double rkhs_bound, double noise_std, double information_gain, double delta) {
  if (!(rkhs_bound >= 0.0) || !std::isfinite(rkhs_bound))
    throw InputError("beta_chowdhury: RKHS bound B must be finite and >= 0");
  if (!(noise_std >= 0.0) || !std::isfinite(noise_std))
    throw InputError("beta_chowdhury: noise level R must be finite and >= 0");
  if (!(information_gain >= 0.0) || !std::isfinite(information_gain))
    throw InputError("beta_chowdhury: information gain must be finite and >= 0");
  if (!(delta > 0.0 && delta < 1.0))
    throw InputError("beta_chowdhury: delta must be in (0, 1), got " + std::to_string(delta));
  const double sb = rkhs_bound + noise_std * std::sqrt(2.0 * (information_gain + 1.0 + std::log(1.0 / delta)));
  return sb * sb;
}

}  // namespace kbo
