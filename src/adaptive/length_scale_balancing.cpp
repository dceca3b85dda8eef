// Length-scale Balancing (LB) as published: Ziomek, Adachi & Osborne, "Bayesian optimisation with unknown
// hyperparameters: regret bounds logarithmically closer to optimal", NeurIPS 2024, Algorithm 1
// (docs/papers.md#adaptive-length-scale-balancing). Base learners are GP-UCB with lengthscales θ₀/g_i
// sharing all the data; the growth function g(t) that admits shorter candidates is A-GP-UCB's one-step
// h(t) (LB leaves g(t) to the user).
//
// - Candidates g_i = r^i with r = e^{1/(d+2ν)} for Matérn-ν, e^{1/d} for the Gaussian kernel (the spacing
//   for which neighbouring candidates' information gains differ by a constant factor); one new
//   candidate per step while r·g_shortest < g(t).
// - Selection (regret balancing): the candidate with the smallest theoretical bound at its next play,
//   R(T, θ) = C sqrt(T θ^{-d} ln^{d+1} T) (sqrt(θ^{-d} ln^{d+1} T) + B), T = n_i + 1, C = 1, B = 1 (the
//   unit cube's volume). A fresh candidate has R(1) = 0 and is played at once.
// - Elimination (once every candidate has been played): drop i when
//   mean_i + Σ_i β½σ / n_i + sqrt(ξ/n_i) < max_j (mean_j − sqrt(ξ/n_j)),
//   ξ = 2 σ_n⁴ ln(K π² t² / (6 tol)), tol = 0.01, rewards standardised with the current data.
#include <cmath>
#include <limits>

#include "internal.hpp"
#include "kbo/adaptive/agpucb.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo {

namespace {

double smoothness_nu(const std::string& kernel) {
  switch (parse_stationary_type(kernel)) {
    case StationaryType::Matern12: return 0.5;
    case StationaryType::Matern32: return 1.5;
    case StationaryType::Matern52: return 2.5;
    case StationaryType::RBF: return 0.0;
  }
  return 0.0;
}

// R(T, θ) of LB's selection rule; inv_vol = θ^{-d} (product over dimensions).
double lb_regret_bound(double T, double inv_vol, int d) {
  const double L = std::pow(std::log(T), d + 1);
  return std::sqrt(T * inv_vol * L) * (std::sqrt(inv_vol * L) + 1.0);
}

}  // namespace

Scaling AgpucbStrategy::lb_choice(const Mat& U, const Vec& y, double g_max) {
  const int d = static_cast<int>(U.cols());
  const double nu = smoothness_nu(opt_.kernel);
  const double ratio = std::exp(1.0 / (nu > 0.0 ? d + 2.0 * nu : d));
  if (arms_.empty()) {
    arms_.push_back(Arm{});  // g = 1: θ₀
    while (static_cast<int>(arms_.size()) < opt_.balance_max_candidates && arms_.back().g * ratio < g_max) {
      Arm a;
      a.g = arms_.back().g * ratio;
      arms_.push_back(a);
    }
  } else if (static_cast<int>(arms_.size()) < opt_.balance_max_candidates && arms_.back().g * ratio < g_max) {
    Arm a;
    a.g = arms_.back().g * ratio;
    arms_.push_back(a);
  }
  // Rewards of each arm's observed plays, standardised with the current data.
  const double mean = y.mean();
  const double sd = y.size() > 1 ? std::sqrt((y.array() - mean).square().sum() / (y.size() - 1)) : 1.0;
  const double scale = sd > 0.0 ? sd : 1.0;
  for (Arm& a : arms_) a.plays = 0, a.reward = 0.0, a.beta_sigma = 0.0;
  for (const LbPlay& p : lb_log_)
    for (Eigen::Index r = 0; r < U.rows(); ++r)
      if ((U.row(r).transpose() - p.x).norm() < kRepeatTolerance) {
        Arm& a = arms_[p.arm];
        ++a.plays;
        a.reward += (y[r] - mean) / scale;
        a.beta_sigma += p.beta_sigma;
        break;
      }
  int remaining = 0;
  bool all_played = true;
  for (const Arm& a : arms_)
    if (!a.eliminated) ++remaining, all_played = all_played && a.plays > 0;
  if (all_played) {
    const double tol = 0.01, pi = 3.14159265358979323846;
    const double t = static_cast<double>(U.rows());
    const double nv = opt_.noise_std * opt_.noise_std;
    const double xi = 2.0 * nv * nv * std::log(remaining * pi * pi * t * t / (6.0 * tol));
    double best_lower = -std::numeric_limits<double>::infinity();
    for (const Arm& a : arms_)
      if (!a.eliminated) best_lower = std::max(best_lower, a.reward / a.plays - std::sqrt(xi / a.plays));
    for (Arm& a : arms_)
      if (!a.eliminated &&
          a.reward / a.plays + a.beta_sigma / a.plays + std::sqrt(xi / a.plays) < best_lower)
        a.eliminated = true;
  }
  int pick = -1;
  for (int i = 0; i < static_cast<int>(arms_.size()); ++i) {
    Arm& a = arms_[i];
    if (a.eliminated) continue;
    double inv_vol = 1.0;
    const Vec theta = theta_for(a.g);
    for (int k = 0; k < d; ++k) inv_vol /= theta[k];
    a.bound = lb_regret_bound(a.plays + 1.0, inv_vol, d);
    if (pick < 0 || a.bound < arms_[pick].bound) pick = i;
  }
  balance_arm_ = pick;
  return lengthscale_scaling(arms_[pick].g, d);
}

}  // namespace kbo
