// Cross-validated choice between the learned kernel and the RBF baseline (kbo/kfo/validate.hpp).
#include "kbo/kfo/validate.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"

namespace kbo::kfo {

std::vector<int> kfold_assignment(int n, int folds, std::uint64_t seed) {
  if (folds < 2 || folds > n)
    throw InputError("cross-validation needs 2 <= folds <= rows (got " + std::to_string(folds) + " folds, " +
                     std::to_string(n) + " rows)");
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  Rng rng = make_rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> fold(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) fold[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i % folds;
  return fold;
}

Vec kfold_predictive_nll_points(const GP& gp, const std::vector<int>& fold) {
  const int n = gp.size();
  if (static_cast<int>(fold.size()) != n) throw InputError("kfold_predictive_nll_points: one fold per training row");
  const Mat A = gp.cholesky().inverse();  // (K + σ²I)⁻¹ in standardised units
  const Vec Ay = A * gp.targets();
  const int k = fold.empty() ? 0 : *std::max_element(fold.begin(), fold.end()) + 1;
  const double s = gp.y_scale();
  Vec out(n);
  for (int f = 0; f < k; ++f) {
    std::vector<int> I;
    for (int i = 0; i < n; ++i)
      if (fold[static_cast<std::size_t>(i)] == f) I.push_back(i);
    if (I.empty()) continue;
    const int m = static_cast<int>(I.size());
    Mat AII(m, m);
    Vec AyI(m);
    for (int a = 0; a < m; ++a) {
      AyI[a] = Ay[I[a]];
      for (int b = 0; b < m; ++b) AII(a, b) = A(I[a], I[b]);
    }
    const Eigen::LDLT<Mat> ldlt(AII);
    const Vec shift = ldlt.solve(AyI);                           // y_I − μ_I (standardised)
    const Mat cov = ldlt.solve(Mat::Identity(m, m));             // A_II⁻¹: predictive covariance incl. noise
    for (int a = 0; a < m; ++a) {
      const double v = std::max(cov(a, a), 1e-300) * s * s;    // original units
      const double r = shift[a] * s;
      out[I[a]] = 0.5 * std::log(2.0 * M_PI * v) + r * r / (2.0 * v);
    }
  }
  return out;
}

std::string keep_learned_or_baseline(double kfo_score, double rbf_score, bool lower_is_better) {
  if (!std::isfinite(kfo_score)) return "rbf";
  const bool better = lower_is_better ? kfo_score < rbf_score : kfo_score > rbf_score;
  return better || !std::isfinite(rbf_score) ? "kfo" : "rbf";
}

}  // namespace kbo::kfo
