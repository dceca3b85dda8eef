#pragma once
// Fantasies for pending evaluations: a fitted GP conditioned on points that are being evaluated right
// now, with made-up ("fantasy") values, so that the next suggestion of a parallel worker goes elsewhere.
// The hyperparameters and the target normalisation are NOT refitted: the factor is extended by the
// pending points' rows/columns in one block (GP::append_observations, O(n²m) for m points; data-dependent
// kernels refactorise).
#include <string>

#include "kbo/core/enum_names.hpp"
#include "kbo/model/gp.hpp"

namespace kbo {

/// What value a pending point is believed to have (values are the ones the GP models, i.e. to MAXIMISE):
/// - KrigingBeliever: the posterior mean at the point (Ginsbourger et al. 2010). The mean surface is
///   unchanged; only the variance collapses around the pending points.
/// - LiarWorst / LiarMean / LiarBest: a constant lie, the worst / mean / best observed value. For a
///   minimised objective, Ginsbourger's "CL-max" is LiarWorst and "CL-min" is LiarBest. The worst lie
///   pushes the next suggestions furthest away from the pending points (most exploration).
/// - None: the model ignores pending points (strategies still never repeat one).
enum class FantasyMode { KrigingBeliever, LiarWorst, LiarMean, LiarBest, None };
template <>
struct EnumNames<FantasyMode> {
  static constexpr std::array<std::pair<FantasyMode, const char*>, 5> table{
      {{FantasyMode::KrigingBeliever, "kriging_believer"}, {FantasyMode::LiarWorst, "constant_liar_worst"},
       {FantasyMode::LiarMean, "constant_liar_mean"}, {FantasyMode::LiarBest, "constant_liar_best"},
       {FantasyMode::None, "none"}}};
};

/// "kriging_believer" | "constant_liar_worst" | "constant_liar_mean" | "constant_liar_best" | "none";
/// InputError naming the allowed values otherwise.
FantasyMode parse_fantasy_mode(const std::string& name);
std::string to_string(FantasyMode mode);
std::string fantasy_mode_names();  // the allowed names, comma separated (for help texts and errors)

/// The value each pending row gets under `mode` (same units as gp.y()); empty for None.
/// Kriging believer values are the posterior means of `gp` itself: conditioning on a point observed at
/// its mean leaves the mean everywhere unchanged, so the order of the pending points does not matter.
Vec fantasy_values(const GP& gp, const Mat& pending, FantasyMode mode);

/// A copy of `gp` conditioned on the pending rows (same input coordinates as gp.X()) with
/// fantasy_values(); `gp` itself when there are no pending rows or mode is None.
GP condition_on_pending(const GP& gp, const Mat& pending, FantasyMode mode);

}  // namespace kbo
