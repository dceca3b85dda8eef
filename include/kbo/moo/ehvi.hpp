#pragma once
// Expected hypervolume improvement in log form (logEHVI) for independent Gaussian objectives, one GP per
// objective (values to MAXIMISE). Over the box decomposition of the non-dominated region
// (box_decomposition.hpp), HVI(y) = Σ_b Π_j (min(u_bj, y_j) − l_bj)⁺, and with independent y_j the
// expectation factorises per box (Yang et al. 2019):
//   EHVI = Σ_b Π_j [ψ_j(l_bj) − ψ_j(u_bj)],   ψ(a) = E[(y − a)⁺] = σ h((μ − a)/σ),   h(z) = φ(z) + zΦ(z).
// Each factor is computed as a logarithm (log h, and log(1 − e^Δ) for the finite upper end) and the boxes
// are summed by log-sum-exp, so that the value and its gradient stay informative where EHVI underflows
// (far from the front), as logEI does for one objective (Ament et al. 2023).
#include <vector>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/moo/box_decomposition.hpp"

namespace kbo {

/// log EHVI for independent y_j ~ N(mean_j, sd_j²) (sd_j > 0); with grad_mean/grad_sd non-null, its
/// derivatives wrt each mean and sd. −inf when no box can be improved.
double log_ehvi(const BoxDecomposition& boxes, const Vec& mean, const Vec& sd, Vec* grad_mean = nullptr,
                Vec* grad_sd = nullptr);

/// The boxes' distinct (lower, upper) bounds per objective, and which one each box has: a 3-objective
/// decomposition has thousands of boxes but only as many distinct bounds per objective as the front has
/// values, so each factor ψ(l) − ψ(u) is computed once per distinct pair, not once per box.
struct EhviPairs {
  explicit EhviPairs(const BoxDecomposition& boxes);
  Eigen::MatrixXi index;                             // boxes x objectives
  std::vector<std::vector<double>> lower, upper;     // per objective, per distinct pair
};
/// log_ehvi over precomputed pairs (what the acquisition evaluates).
double log_ehvi(const EhviPairs& pairs, const Vec& mean, const Vec& sd, Vec* grad_mean = nullptr,
                Vec* grad_sd = nullptr);

class LogExpectedHypervolumeImprovement : public Acquisition {
 public:
  /// One GP per objective (they must outlive the acquisition), the boxes of the current front.
  LogExpectedHypervolumeImprovement(std::vector<const GP*> models, BoxDecomposition boxes);
  double value(const Vec& x) const override;
  double value_and_gradient(const Vec& x, Vec& grad) const override;
  Vec values(const Mat& X) const override;

 private:
  std::vector<const GP*> models_;
  EhviPairs pairs_;
};

}  // namespace kbo
