// BOStrategy's coincident fallback (BOModelOptions::coincident_fallback; include/kbo/strategy/bo_strategy.hpp).
//
// Why: with structure chosen by evidence on a set space, a suggestion with two coincident elements is where a
// smooth set kernel's posterior variance has a ridge (the orbit average is even in a coincident pair's split,
// so it changes only at second order; docs/bench/structure.md updates 3-5), not what the data show. Unless
// the incumbent has coincident elements too (then the objective rewards them), the candidate that separates
// them at first order (the sliced kernel) takes the step.
#include "kbo/strategy/bo_strategy.hpp"

namespace kbo {

std::optional<std::pair<OptResult, std::string>> BOStrategy::split_coincident_step(const Vec& u, const Vec& incumbent_u,
                                                                                   const Mat& Um, const Vec& ym,
                                                                                   double incumbent, int n_observed,
                                                                                   const AcqOptimizerOptions& opt) {
  if (splits_coincident_ || candidates_.empty() || !space_->has_coincident_elements(unit_->from_unit(u)) ||
      space_->has_coincident_elements(unit_->from_unit(incumbent_u)))
    return std::nullopt;
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    if (!candidates_[k].splits_coincident || !gp_candidates_[k]) continue;
    GP& splitter = *gp_candidates_[k];
    splitter.set_data(Um, ym);  // its last fitted θ, on the rows the chosen model conditions on
    const std::unique_ptr<Acquisition> acq = make_acquisition(splitter, incumbent, n_observed);
    info_["coincident_fallback"] = {{"from", model_name_}, {"to", candidates_[k].name}};
    return std::make_pair(maximize_acquisition(*acq, *unit_, opt, incumbent_u.transpose()), candidates_[k].name);
  }
  return std::nullopt;
}

}  // namespace kbo
