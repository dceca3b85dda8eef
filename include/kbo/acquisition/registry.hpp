#pragma once
// Acquisitions by name. A new acquisition is one file (its class and a register_* function) plus one line
// in src/acquisition/register.cpp; tests and programs may register their own (tests/strategy has a toy one).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/registry.hpp"

namespace kbo {

/// What an acquisition may be built from: the fitted model and the settings of the strategy that uses it.
struct AcquisitionInputs {
  const GP& gp;              // fitted (and possibly fantasy-conditioned) model, in the GP's target units
  double incumbent;          // best target value observed (same units as gp.y())
  int n_observed;            // completed trials the model was fitted to
  int dim;                   // dimension of the search space
  double beta;               // constant β of UCB (config key beta)
  BetaSchedule beta_schedule;
  double rkhs_bound;         // B of the Chowdhury schedule (module_options.rkhs_bound)
};

struct AcquisitionEntry {
  std::function<std::unique_ptr<Acquisition>(const AcquisitionInputs&)> make;
  /// StrategyConfig keys this acquisition reads (e.g. beta, beta_schedule); others given explicitly are errors.
  std::vector<std::string> honours;
  std::string help;
};

Registry<AcquisitionEntry>& acquisitions();

/// ucb, ei, pi (called by register_builtin_modules()).
void register_builtin_acquisitions();

}  // namespace kbo
