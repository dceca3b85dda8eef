#pragma once
// KFO is kept only where it validates better than the RBF baseline it competes with: the choice between
// the learned kernel and the baseline is made on the training part by cross-validation, never on the test
// part (docs/bench/kfo.md, "Never behind the RBF baseline").
#include <cstdint>
#include <string>
#include <vector>

#include "kbo/model/gp.hpp"

namespace kbo::kfo {

/// Fold of each of n rows for k-fold cross-validation: a seeded random permutation dealt round-robin, so the
/// fold sizes differ by at most one. InputError unless 2 ≤ folds ≤ n.
std::vector<int> kfold_assignment(int n, int folds, std::uint64_t seed);

/// Per-point negative log predictive density of every training target of the fitted gp, each predicted from
/// the other folds with the gp's hyperparameters and target standardisation held fixed (closed form, no
/// refit: for the held-out block I, with A = (K + σ²I)⁻¹, mean y_I − A_II⁻¹ (A y)_I and covariance A_II⁻¹,
/// Rasmussen & Williams §5.4.2 generalised from one point to a block). Variance includes the noise, as
/// test_nll. Original target units.
Vec kfold_predictive_nll_points(const GP& gp, const std::vector<int>& fold);

/// Which kernel a KFO run keeps: "kfo" when its validated score is strictly better than the baseline's,
/// else "rbf" (lower_is_better: NLL; else accuracy).
std::string keep_learned_or_baseline(double kfo_score, double rbf_score, bool lower_is_better);

}  // namespace kbo::kfo
