#pragma once
// The strategy of studies with several objectives ("moo"): one GP per objective (and per outcome
// constraint), fitted as the single-objective model is (same kernel, MAP priors, warm-started θ), and
//  - 1 to 3 objectives: logEHVI (ehvi.hpp) over the exact box decomposition of the region the observed
//    Pareto front does not dominate, above the reference point;
//  - more than 3: a random augmented Chebyshev scalarisation per step (ParEGO, Knowles 2006) of the
//    objectives scaled to [0, 1], modelled by one GP and maximised by log-EI.
// Reference point: Strategy::set_objectives' (given by the study), else BoTorch's rule with the slack measured
// on the observations: each objective's worst value on the front, 10 % of that objective's observed range (all
// feasible observations) further out. BoTorch takes 10 % of the front's own range, which vanishes when the front
// crowds one end (ZDT's f1 = 0 corner: a single point, or a few within 0.03): the box above the reference then
// holds only that end, no point elsewhere can improve the hypervolume, and the search never leaves it.
// Pending points: kriging believer per objective (the GPs are conditioned on them at their posterior means, and
// those means join the front). Outcome constraints:
// log P(feasible) added to the acquisition (ConstrainedAcquisition), the front made of feasible points.
#include <memory>
#include <optional>
#include <vector>

#include "kbo/model/gp.hpp"
#include "kbo/strategy/strategy.hpp"

namespace kbo {

class MooStrategy : public Strategy {
 public:
  MooStrategy(StrategyConfig config, std::shared_ptr<const Space> space);
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) override;
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index) override;
  std::string name() const override { return "moo"; }
  nlohmann::json last_info() const override { return info_; }

 private:
  Vec model_step(const Mat& U, const Mat& Y, const Mat& Pu, const Mat& Fu, int trial_index);
  /// Fits `gp` (created on first use) to (U, y), warm-started from its last θ.
  GP& fit(std::optional<GP>& gp, const Mat& U, const Vec& y, int trial_index, int stream);
  Vec random_point(int trial_index) const;

  StrategyConfig config_;
  std::shared_ptr<const Space> space_;
  std::shared_ptr<const UnitCubeSpace> unit_;
  Mat design_;
  std::vector<std::optional<GP>> objective_gps_, constraint_gps_;
  std::optional<GP> scalarised_gp_;
  nlohmann::json info_ = nlohmann::json::object();
};

/// Registers the "moo" strategy and its options section {"ref_point": [numbers]} (called by
/// register_builtin_modules()).
void register_moo_module();

}  // namespace kbo
