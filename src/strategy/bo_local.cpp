// BOStrategy's local trust-region step (BOModelOptions::local_every; include/kbo/strategy/bo_strategy.hpp).
//
// Why: the global GP standardises all observations together, so when the values span orders of magnitude
// (ill-conditioned or steep functions) the differences among the best few are a sliver of the targets'
// range, below the model's noise; and UCB keeps exploring the box. A GP fitted only to the observations
// around the incumbent, scaled on them alone, sees the local bowl at its own scale; its acquisition,
// maximised in the box those neighbours span, takes the precise steps the global model cannot
// (the trust region of TuRBO, Eriksson et al. 2019, with the neighbours' extent as its size).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "kbo/strategy/bo_strategy.hpp"

namespace kbo {

std::optional<Vec> BOStrategy::local_step(const Mat& U, const Vec& y, Eigen::Index best, int trial_index) {
  const Eigen::Index n = U.rows(), D = U.cols();
  const Eigen::Index m = std::min<Eigen::Index>(n, model_options_.local_points > 0 ? model_options_.local_points : 5 * (D + 1));
  if (m < 3) return std::nullopt;
  const Vec centre = U.row(best).transpose();

  // Distances in the global model's lengthscales: an ill-conditioned valley's neighbours lie along it.
  Vec scale = Vec::Ones(D);
  const Vec theta = gp_->hyperparameters();
  const auto specs = gp_->hyperparameter_specs();
  for (std::size_t p = 0; p < specs.size(); ++p) {
    if (specs[p].role != ParamRole::Lengthscale) continue;
    if (specs[p].dim < 0)
      scale.setConstant(std::exp(theta[static_cast<Eigen::Index>(p)]));
    else if (specs[p].dim < D)
      scale[specs[p].dim] = std::exp(theta[static_cast<Eigen::Index>(p)]);
  }
  Vec dist(n);
  for (Eigen::Index i = 0; i < n; ++i) dist[i] = ((U.row(i).transpose() - centre).cwiseQuotient(scale)).squaredNorm();
  std::vector<Eigen::Index> rows(static_cast<std::size_t>(n));
  std::iota(rows.begin(), rows.end(), Eigen::Index{0});
  std::stable_sort(rows.begin(), rows.end(), [&](Eigen::Index a, Eigen::Index b) { return dist[a] < dist[b]; });
  rows.resize(static_cast<std::size_t>(m));

  // The trust region: the box the neighbours span around the incumbent (symmetric, inside the cube).
  Vec half = Vec::Zero(D);
  for (Eigen::Index r : rows) half = half.cwiseMax((U.row(r).transpose() - centre).cwiseAbs());
  if (!(half.maxCoeff() > 0.0)) return std::nullopt;
  for (Eigen::Index j = 0; j < D; ++j)
    if (!(half[j] > 0.0)) half[j] = half.maxCoeff();  // a coordinate all neighbours share: no information
  const Vec lo = (centre - half).cwiseMax(0.0), hi = (centre + half).cwiseMin(1.0);
  if (!((hi - lo).array() > 0.0).all()) return std::nullopt;

  const Mat Ul = U(rows, Eigen::all);
  const Vec yl = model_targets(y(rows), model_options_.local_warp);  // scaled on the neighbours alone
  std::optional<GP> local;
  local.emplace(new_model(gp_->kernel().clone()));  // warm start: the global model's θ
  local->set_data(Ul, yl);
  refit({&local}, trial_index);
  const auto acq = std::make_unique<UpperConfidenceBound>(*local, model_options_.local_beta);
  AcqOptimizerOptions opt = config_.acq_optimizer;
  opt.seed = trial_seed(config_.seed ^ 0x10CA1ULL, trial_index);
  const BoxSpace region(Box(lo, hi));
  const OptResult res = maximize_acquisition(*acq, region, opt, centre.transpose());
  info_["local"] = {{"points", m}, {"half_width", std::vector<double>(half.data(), half.data() + D)}};
  if (!res.x.allFinite()) return std::nullopt;
  return res.x;
}

}  // namespace kbo
