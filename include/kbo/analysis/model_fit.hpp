#pragma once
// Leave-one-out predictions of a fitted GP, for the views' model-fit chart (predicted vs observed).
//
// At fixed hyperparameters θ and fixed target standardisation, the prediction of y_i from the other n − 1
// points has the closed form (Rasmussen & Williams 2006, eq. 5.12), with K = k(X, X) + σ²I and α = K⁻¹y:
//   mean_i = y_i − α_i / [K⁻¹]_ii        variance_i = 1 / [K⁻¹]_ii
// variance_i is that of a new observation y_i (noise included), which is what an error bar on an observed
// value should show. One inverse from the Cholesky factor (O(n³)) instead of n refits. θ is not re-fitted
// without point i, so this measures the model's fit at its hyperparameters, as Ax's cross-validation plot.
#include "kbo/model/gp.hpp"

namespace kbo {

struct LeaveOneOut {
  Vec mean;  // original units
  Vec std;   // original units, noise included
};

/// The LOO predictions of every training point of `gp` (which must have data).
LeaveOneOut leave_one_out(const GP& gp);

}  // namespace kbo
