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
    const auto [m, d] = *ctx.space.element_layout();
    std::vector<Mat> parts;
    if (o_.element_moves || o_.pair_moves) {
      Rng rng = make_rng(trial_seed(ctx.seed ^ 0x30E5ULL, ctx.trial_index));
      const Mat candidates = BoxSpace(Box::unit(d)).sample(kElementCandidates, SamplingMethod::Sobol, rng);
      if (o_.element_moves) parts.push_back(element_move_starts(ctx.incumbent, m, d, ctx.acq, candidates));
      if (o_.pair_moves) parts.push_back(element_pair_move_starts(ctx.incumbent, m, d, ctx.acq, candidates));
    }
    if (o_.recombination_sets > 0 && ctx.observed.rows() > 1)
      parts.push_back(recombination_starts(ctx.incumbent, donors(ctx), m, d, ctx.acq, m));
    Eigen::Index rows = 0;
    for (const Mat& p : parts) rows += p.rows();
    Mat out(rows, ctx.incumbent.size());
    rows = 0;
    for (const Mat& p : parts) out.middleRows(rows, p.rows()) = p, rows += p.rows();
    return out;
  }

  Admissible admissible(const ProposalContext& ctx) const override {
    if (!o_.avoid_coincident) return {};
    return coincident_region(ctx, /*inside=*/false);
  }
  Admissible doubtful(const ProposalContext& ctx) const override {
    if (!o_.coincident_fallback) return {};
    return coincident_region(ctx, /*inside=*/true);
  }
  std::string refused_key() const override { return "coincident_refused"; }
  std::string doubtful_key() const override { return "coincident_fallback"; }

 private:
  // Sets with coincident elements, unless the incumbent has them (then the objective rewards them): empty.
  static Admissible coincident_region(const ProposalContext& ctx, bool inside) {
    if (ctx.space.has_coincident_elements(ctx.unit.from_unit(ctx.incumbent))) return {};
    const Space* space = &ctx.space;
    const UnitCubeSpace* unit = &ctx.unit;
    return [space, unit, inside](const Vec& u) { return space->has_coincident_elements(unit->from_unit(u)) == inside; };
  }
  // The best observed sets other than the incumbent (highest target first).
  Mat donors(const ProposalContext& ctx) const {
    const Mat& U = ctx.observed;
    std::vector<Eigen::Index> order(static_cast<std::size_t>(U.rows()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return ctx.targets[a] > ctx.targets[b]; });
    Mat out(0, U.cols());
    for (const Eigen::Index r : order) {
      if (out.rows() >= o_.recombination_sets) break;
      if ((U.row(r).transpose() - ctx.incumbent).norm() == 0.0) continue;
      out.conservativeResize(out.rows() + 1, Eigen::NoChange);
      out.row(out.rows() - 1) = U.row(r);
    }
    return out;
  }
  SetProposalOptions o_;
};

std::unique_ptr<ProposalContribution> make_set_proposals(const StrategyConfig&, const Space& space,
                                                         const nlohmann::json& bo) {
  const SetProposalOptions o = SetProposalOptions::from_bo(bo);
  if (!space.element_layout()) {
    if (o.pair_moves || o.recombination_sets > 0 || o.element_moves)
      throw InputError("options.bo.element_moves, pair_moves and recombination_sets act on set spaces only (--space set)");
    if (o.avoid_coincident) throw InputError("options.bo.avoid_coincident acts on set spaces only (--space set)");
    if (o.coincident_fallback) throw InputError("options.bo.coincident_fallback acts on set spaces only (--space set)");
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
  const SetProposalOptions o = decode_field<SetProposalOptions>("options.bo", own_keys(bo));
  if (o.recombination_sets < 0 || o.recombination_sets > 20)
    throw InputError("options.bo.recombination_sets must be in [0, 20] (0 = no recombination starts)");
  return o;
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
