// The local steps' trust region replayed from the trial history (include/kbo/strategy/trust_region.hpp).
#include "kbo/strategy/trust_region.hpp"

#include <algorithm>
#include <limits>

namespace kbo {

TrustRegion replay_trust_region(const Vec& y, const std::function<bool(int)>& is_local, const TrustRegionRule& rule) {
  TrustRegion tr;
  const double r0 = std::clamp(rule.initial, rule.min, rule.max);
  tr.radius = tr.success_radius = r0;
  double best = -std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    const bool improved = y[i] > best;
    if (is_local(static_cast<int>(i)) && tr.restart_due) {
      // A global restart step: the region starts afresh (its centre is the incumbent after this trial).
      ++tr.restarts;
      tr.radius = tr.success_radius = r0;
      tr.successes = tr.failures = tr.stalled = 0;
      tr.restart_due = false;
    } else if (is_local(static_cast<int>(i))) {
      ++tr.local_steps;
      if (improved) {
        tr.success_radius = tr.radius;
        ++tr.successes;
        tr.failures = 0;
        tr.stalled = 0;
      } else {
        ++tr.failures;
        tr.successes = 0;
      }
      if (tr.failures >= rule.fail) {
        tr.radius = std::max(tr.radius / 2.0, rule.min);
        tr.failures = 0;
        ++tr.halvings;
        ++tr.stalled;
        const bool restarts_left = rule.restart_max == 0 || tr.restarts < rule.restart_max;
        if (rule.restart > 0 && tr.stalled >= rule.restart && restarts_left) {
          if (rule.restart_global) {
            tr.restart_due = true;
          } else {  // the region restarts at once, at the scale where a local step last made progress
            ++tr.restarts;
            tr.radius = tr.success_radius;
            tr.stalled = 0;
          }
        }
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
