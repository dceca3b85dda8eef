// The sets module's part in a BO step (include/kbo/sets/set_proposals.hpp).
#include "kbo/sets/set_proposals.hpp"

#include <algorithm>
#include <numeric>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/sets/element_moves.hpp"
#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/strategy/presets.hpp"
#include "kbo/strategy/proposer.hpp"

namespace kbo {

namespace {

constexpr int kElementCandidates = 1024;  // Sobol positions tried for each element
// The small-set-space preset applies up to this many coordinates (m·d): it won the 8- and 9-coordinate
// problems of kbo bench structure and lost blobs k-means at 50 coordinates (docs/bench/structure.md).
constexpr int kSmallSetMaxDim = 12;

nlohmann::json own_keys(const nlohmann::json& bo) {
  nlohmann::json out = nlohmann::json::object();
  if (!bo.is_object()) return out;
  const nlohmann::json defaults = encode_field(SetProposalOptions{});
  for (const auto& [key, value] : defaults.items())
    if (bo.contains(key)) out[key] = bo[key];
  return out;
}

class SetProposals : public ProposalContribution {
 public:
  explicit SetProposals(SetProposalOptions o) : o_(o) {}

  Mat starts(const ProposalContext& ctx) const override {
    if (!o_.element_moves) return Mat(0, ctx.incumbent.size());
    const auto [m, d] = *ctx.space.element_layout();
    Rng rng = make_rng(trial_seed(ctx.seed ^ 0x30E5ULL, ctx.trial_index));
    const Mat candidates = BoxSpace(Box::unit(d)).sample(kElementCandidates, SamplingMethod::Sobol, rng);
    return element_move_starts(ctx.incumbent, m, d, ctx.acq, candidates);
  }

  Admissible admissible(const ProposalContext& ctx) const override {
    if (!o_.avoid_coincident) return {};
    // Sets with coincident elements are refused, unless the incumbent has them (the objective rewards them).
    if (ctx.space.has_coincident_elements(ctx.unit.from_unit(ctx.incumbent))) return {};
    const Space* space = &ctx.space;
    const UnitCubeSpace* unit = &ctx.unit;
    return [space, unit](const Vec& u) { return !space->has_coincident_elements(unit->from_unit(u)); };
  }
  std::string refused_key() const override { return "coincident_refused"; }

 private:
  SetProposalOptions o_;
};

std::unique_ptr<ProposalContribution> make_set_proposals(const StrategyConfig&, const Space& space,
                                                         const nlohmann::json& bo) {
  const SetProposalOptions o = SetProposalOptions::from_bo(bo);
  if (!space.element_layout()) {
    if (o.element_moves) throw InputError("options.bo.element_moves acts on set spaces only (--space set)");
    if (o.avoid_coincident) throw InputError("options.bo.avoid_coincident acts on set spaces only (--space set)");
    return nullptr;
  }
  if (!o.any()) return nullptr;
  return std::make_unique<SetProposals>(o);
}

// small-set-space: a small set space whose structure is chosen by evidence, searched with UCB's constant β,
// explores first (10 BO steps at β 16) and refuses coincident elements: the early steps choose the
// configuration the run polishes, and their width chases the orbit average's variance ridge unless such sets
// are refused (over 90 seeds of k-means, facility and covering; docs/bench/structure.md).
nlohmann::json small_set_space_defaults(const PresetContext& ctx) {
  if (!ctx.space.element_layout() || !ctx.structure_by_evidence || ctx.space.dim() > kSmallSetMaxDim ||
      !ctx.ucb_with_constant_beta)
    return nullptr;
  return {{"early_steps", 10}, {"avoid_coincident", true}};
}

}  // namespace

SetProposalOptions SetProposalOptions::from_bo(const nlohmann::json& bo) {
  return decode_field<SetProposalOptions>("options.bo", own_keys(bo));
}

void register_set_proposals() {
  bo_option_extensions().add("sets", {encode_field(SetProposalOptions{}),
                                      [](const nlohmann::json& given) { SetProposalOptions::from_bo(given); },
                                      "search moves and refusals on set spaces (--space set)"});
  proposal_contributions().add("sets", {make_set_proposals, "element moves and coincident-element refusal on set spaces"});
  model_presets().add("small-set-space",
                      {small_set_space_defaults,
                       "set spaces of at most 12 coordinates with set_kernel auto and UCB's constant beta: "
                       "early_steps 10 (at early_beta 16) and avoid_coincident true"});
}

}  // namespace kbo
