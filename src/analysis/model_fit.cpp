// Closed-form leave-one-out predictions of a GP (kbo/analysis/model_fit.hpp).
#include "kbo/analysis/model_fit.hpp"

#include <cmath>

namespace kbo {

LeaveOneOut leave_one_out(const GP& gp) {
  const Mat Kinv = gp.cholesky().inverse();  // (K + σ²I + jitter)⁻¹, standardised units
  const Vec diag = Kinv.diagonal().cwiseMax(1e-300);
  const Vec& y = gp.targets();
  LeaveOneOut out;
  out.mean = ((y.array() - gp.alpha().array() / diag.array()) * gp.y_scale() + gp.y_mean()).matrix();
  out.std = (diag.array().inverse().sqrt() * gp.y_scale()).matrix();
  return out;
}

}  // namespace kbo
