// Fantasies for pending evaluations (see include/kbo/fantasy.hpp).
#include "kbo/acquisition/fantasy.hpp"

#include "kbo/core/error.hpp"

namespace kbo {

std::string fantasy_mode_names() { return enum_allowed<FantasyMode>(); }

FantasyMode parse_fantasy_mode(const std::string& name) { return parse_enum<FantasyMode>("fantasy", name); }

std::string to_string(FantasyMode mode) { return enum_name(mode); }

Vec fantasy_values(const GP& gp, const Mat& pending, FantasyMode mode) {
  if (mode == FantasyMode::None || pending.rows() == 0) return Vec(0);
  if (pending.cols() != gp.input_dim())
    throw InputError("fantasies: pending points have " + std::to_string(pending.cols()) + " coordinates, the model " +
                     std::to_string(gp.input_dim()));
  if (mode == FantasyMode::KrigingBeliever) return gp.predict(pending).mean;
  const Vec& y = gp.y();
  if (y.size() == 0) throw InputError("fantasies: a constant liar needs observed values");
  const double lie = mode == FantasyMode::LiarWorst ? y.minCoeff() : mode == FantasyMode::LiarBest ? y.maxCoeff() : y.mean();
  return Vec::Constant(pending.rows(), lie);
}

GP condition_on_pending(const GP& gp, const Mat& pending, FantasyMode mode) {
  GP f(gp);
  const Vec values = fantasy_values(gp, pending, mode);
  if (values.size() > 0) f.append_observations(pending, values);  // one block: O(n²m), one triangular solve
  return f;
}

}  // namespace kbo
