#pragma once
// The Proposer stage of a BO step: where the acquisition optimiser starts and which of its results a step
// may take. The strategy starts from the incumbent and whatever the modules contribute; a module (sets:
// element moves, refusing coincident elements) registers a ProposalEntry, so strategy/ holds no
// module-specific search code.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/registry.hpp"
#include "kbo/core/space.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/strategy/config.hpp"

namespace kbo {

/// What a contribution sees at one step. Points are in the unit cube the GP works on.
struct ProposalContext {
  const Space& space;          // the study's space, original coordinates
  const UnitCubeSpace& unit;   // its unit-cube image (unit.from_unit maps back)
  const Acquisition& acq;      // the step's acquisition
  const Vec& incumbent;        // the best (feasible) observation
  const Mat& observed;         // every observation, one row each
  const Vec& targets;          // their model targets (higher is better)
  std::uint64_t seed;          // the study's seed: contributions draw from trial_seed(seed ^ salt, trial_index)
  int trial_index;
};

/// One module's part in proposing. Both hooks are optional.
class ProposalContribution {
 public:
  virtual ~ProposalContribution() = default;
  /// Extra starting points for the acquisition optimiser (rows of unit-cube points; none by default).
  virtual Mat starts(const ProposalContext& ctx) const { return Mat(0, ctx.incumbent.size()); }
  /// The results this step may take (empty: every result). A step whose every polished start is refused
  /// takes the best start as drawn (maximize_acquisition).
  virtual Admissible admissible(const ProposalContext& /*ctx*/) const { return {}; }
  /// The trial-info key counting refused starts.
  virtual std::string refused_key() const { return "refused"; }
};

/// A module's contribution, built once per strategy for its configuration, space and options.bo (the user's
/// keys with the applied presets'); nullptr when it does not apply there. An option of the module given for a
/// space it does not act on is an InputError here.
struct ProposalEntry {
  std::function<std::unique_ptr<ProposalContribution>(const StrategyConfig&, const Space&, const nlohmann::json& bo)>
      make;
  std::string help;
};
Registry<ProposalEntry>& proposal_contributions();

/// Every registered contribution that applies to one strategy's configuration and space.
class Proposer {
 public:
  Proposer() = default;
  Proposer(const StrategyConfig& config, const Space& space, const nlohmann::json& bo);
  /// The incumbent row followed by every contribution's starts.
  Mat starts(const ProposalContext& ctx) const;
  /// The conjunction of the contributions' admissibility (empty when none refuses).
  Admissible admissible(const ProposalContext& ctx) const;
  /// maximize_acquisition from starts(ctx), keeping to admissible(ctx); refused starts are counted in
  /// info[refused_key()].
  OptResult propose(const ProposalContext& ctx, const AcqOptimizerOptions& opt, nlohmann::json& info) const;
  bool empty() const { return parts_.empty(); }

 private:
  std::vector<std::unique_ptr<ProposalContribution>> parts_;
};

}  // namespace kbo
