// BOStrategy's posterior at the observations (include/kbo/strategy/bo_strategy.hpp): what the study's
// recommendation ranks the evaluated trials by.
#include <cmath>
#include <limits>
#include <vector>

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/target_units.hpp"

namespace kbo {

std::optional<Strategy::Posterior> BOStrategy::posterior_at_observations(const Mat& X, const Vec& y) {
  const Eigen::Index n = X.rows();
  // θ must come from a fit (this process's or a stored state's): the initial design has no model yet.
  if (!gp_ || refit_n_ == 0 || n < 2 || y.size() != n || X.cols() != space_->dim()) return std::nullopt;
  const Mat U = unit_->rows_to_unit(X);
  const Vec yt = model_targets(y, model_options_.output_warp);
  Vec noise;
  if (sem_.size() == n) noise = sem_in_target_units(y, yt, sem_).array().square();
  // The rows the model conditions on: all of them, or above subset_above the subset around the best.
  std::vector<Eigen::Index> rows;
  if (uses_subset_model(static_cast<int>(n))) {
    Eigen::Index top;
    yt.maxCoeff(&top);
    rows = subset_model_rows(U, top, static_cast<int>(n));
  } else {
    for (Eigen::Index i = 0; i < n; ++i) rows.push_back(i);
  }
  const Mat Um = U(rows, Eigen::all);
  const Vec ym = yt(rows);
  GP g = *gp_;  // its θ; the data are replaced
  g.set_data(Um, ym, noise.size() > 0 ? Vec(noise(rows)) : Vec());
  const GP::Prediction p = g.predict(Um);
  Vec mean_y, sd_y;
  targets_to_values(y, yt, p.mean, p.variance.cwiseMax(0.0).cwiseSqrt(), mean_y, sd_y);
  Posterior out{Vec::Constant(n, std::numeric_limits<double>::quiet_NaN()),
                Vec::Constant(n, std::numeric_limits<double>::quiet_NaN())};
  for (std::size_t k = 0; k < rows.size(); ++k) {
    out.mean[rows[k]] = mean_y[static_cast<Eigen::Index>(k)];
    out.sd[rows[k]] = sd_y[static_cast<Eigen::Index>(k)];
  }
  return out;
}

}  // namespace kbo
