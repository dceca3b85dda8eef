// The local steps' trust region replayed from the trial history (include/kbo/strategy/trust_region.hpp).
#include "kbo/strategy/trust_region.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kbo {

TrustRegion replay_trust_region(const Vec& y, const std::function<bool(int)>& is_local, const TrustRegionRule& rule) {
  TrustRegion tr;
  const double r0 = std::clamp(rule.initial, rule.min, rule.max);
  // The radius at which the region counts as collapsed: r0 halved rule.restart times (net of doublings).
  const double collapsed = std::ldexp(r0, -rule.restart) * (1.0 + 1e-9);
  tr.radius = r0;
  double best = -std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const bool improved = y[i] > best;
    if (is_local(static_cast<int>(i)) && tr.restart_due) {
      // A global restart step: the region starts afresh (its centre is the incumbent after this trial).
      ++tr.restarts;
      tr.radius = r0;
      tr.successes = tr.failures = 0;
      tr.restart_due = false;
    } else if (is_local(static_cast<int>(i))) {
      ++tr.local_steps;
      if (improved) {
        ++tr.successes;
        tr.failures = 0;
      } else {
        ++tr.failures;
        tr.successes = 0;
      }
      if (tr.failures >= rule.fail) {
        tr.radius = std::max(tr.radius / 2.0, rule.min);
        tr.failures = 0;
        ++tr.halvings;
        tr.restart_due = rule.restart > 0 && tr.radius <= collapsed;
      } else if (tr.successes >= rule.succ) {
        tr.radius = std::min(tr.radius * 2.0, rule.max);
        tr.successes = 0;
        ++tr.doublings;
      }
    }
    if (improved) best = y[i];
  }
  return tr;
}

}  // namespace kbo
