// The built-in acquisitions, registered by name (one line each).
#include <cmath>

#include "kbo/acquisition/registry.hpp"

namespace kbo {

Registry<AcquisitionEntry>& acquisitions() {
  static Registry<AcquisitionEntry> registry("acquisition");
  return registry;
}

namespace {

std::unique_ptr<Acquisition> make_ucb(const AcquisitionInputs& in) {
  double beta = in.beta;
  switch (in.beta_schedule) {
    case BetaSchedule::Constant: break;
    case BetaSchedule::Srinivas: beta = beta_srinivas(in.n_observed + 1, in.dim); break;
    case BetaSchedule::Chowdhury:
      // B: RKHS-norm bound of the standardised objective; R: the fitted noise standard deviation.
      beta = beta_chowdhury(in.rkhs_bound, std::sqrt(in.gp.noise_variance()), in.gp.information_gain());
      break;
  }
  return std::make_unique<UpperConfidenceBound>(in.gp, beta);
}

}  // namespace

void register_builtin_acquisitions() {
  auto& r = acquisitions();
  r.add("ucb", {make_ucb, {"beta", "beta_schedule"}, "upper confidence bound mu + sqrt(beta) sigma"});
  r.add("ei", {[](const AcquisitionInputs& in) { return std::make_unique<LogExpectedImprovement>(in.gp, in.incumbent); },
               {}, "log expected improvement"});
  r.add("pi", {[](const AcquisitionInputs& in) {
                 return std::make_unique<LogProbabilityOfImprovement>(in.gp, in.incumbent);
               },
               {}, "log probability of improvement"});
}

}  // namespace kbo
