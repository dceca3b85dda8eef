// The Proposer stage (include/kbo/strategy/proposer.hpp): the registered contributions combined.
#include "kbo/strategy/proposer.hpp"

namespace kbo {

Registry<ProposalEntry>& proposal_contributions() {
  static Registry<ProposalEntry> registry("proposal contribution");
  return registry;
}

Proposer::Proposer(const StrategyConfig& config, const Space& space, const nlohmann::json& bo) {
  for (const std::string& name : proposal_contributions().names())
    if (auto part = proposal_contributions().get(name).make(config, space, bo)) parts_.push_back(std::move(part));
}

Mat Proposer::starts(const ProposalContext& ctx) const {
  Mat out = ctx.incumbent.transpose();
  for (const auto& part : parts_) {
    const Mat more = part->starts(ctx);
    if (more.rows() == 0) continue;
    out.conservativeResize(out.rows() + more.rows(), Eigen::NoChange);
    out.bottomRows(more.rows()) = more;
  }
  return out;
}

namespace {
// Every predicate's verdict combined by `all` (conjunction) or any (disjunction); empty when none is given.
Admissible combine(std::vector<Admissible> tests, bool all) {
  if (tests.empty()) return {};
  if (tests.size() == 1) return tests.front();
  return [tests = std::move(tests), all](const Vec& u) {
    for (const Admissible& t : tests)
      if (t(u) != all) return !all;
    return all;
  };
}
}  // namespace

Admissible Proposer::admissible(const ProposalContext& ctx) const {
  std::vector<Admissible> tests;
  for (const auto& part : parts_)
    if (Admissible a = part->admissible(ctx)) tests.push_back(std::move(a));
  return combine(std::move(tests), /*all=*/true);
}

OptResult Proposer::propose(const ProposalContext& ctx, const AcqOptimizerOptions& opt, nlohmann::json& info) const {
  const OptResult res = maximize_acquisition(ctx.acq, ctx.unit, opt, starts(ctx), admissible(ctx));
  if (res.inadmissible > 0) {
    // Refused starts are reported under the key of the contribution that refuses (one refuses today; several
    // would share the count under the first one's key).
    for (const auto& part : parts_)
      if (part->admissible(ctx)) {
        info[part->refused_key()] = res.inadmissible;
        break;
      }
  }
  return res;
}

}  // namespace kbo
