// The trials a view lists (kbo/analysis/view_trials.hpp).
#include "kbo/analysis/view_trials.hpp"

#include <algorithm>

namespace kbo {

std::vector<std::size_t> trials_to_list(const std::vector<Trial>& trials, bool minimize, std::size_t max_listed) {
  const std::size_t n = trials.size();
  std::vector<std::size_t> listed;
  if (max_listed == 0 || n <= max_listed) {
    listed.resize(n);
    for (std::size_t i = 0; i < n; ++i) listed[i] = i;
    return listed;
  }
  std::vector<char> picked(n, 0);
  std::size_t count = 0;
  auto take = [&](std::size_t i) {
    if (!picked[i] && count < max_listed) {
      picked[i] = 1;
      ++count;
    }
  };
  // 1. Improvements of the best value so far (as the page draws it: complete trials in id order) and the
  //    best feasible trial. Newest first, so that if there were more than the cap the latest ones stay.
  std::vector<std::size_t> improvements;
  const Trial* best = nullptr;
  std::size_t best_feasible = n;
  for (std::size_t i = 0; i < n; ++i) {
    const Trial& t = trials[i];
    if (t.state != TrialState::Complete || !t.value) continue;
    if (!best || (minimize ? *t.value < *best->value : *t.value > *best->value)) {
      best = &t;
      improvements.push_back(i);
    }
    if (is_feasible(t) && (best_feasible == n || (minimize ? *t.value < *trials[best_feasible].value
                                                           : *t.value > *trials[best_feasible].value)))
      best_feasible = i;
  }
  if (best_feasible < n) take(best_feasible);
  for (auto it = improvements.rbegin(); it != improvements.rend(); ++it) take(*it);
  // 2. The most recent pending trials, 3. the most recent trials.
  const std::size_t quarter = max_listed / 4;
  for (std::size_t i = n, pending = 0; i-- > 0 && pending < quarter;)
    if (trials[i].state == TrialState::Pending) {
      take(i);
      ++pending;
    }
  for (std::size_t i = n, recent = 0; i-- > 0 && recent < quarter; ++recent) take(i);
  // 4. Evenly spaced over the trials not chosen yet, for exactly what is left of the cap.
  std::vector<std::size_t> others;
  for (std::size_t i = 0; i < n; ++i)
    if (!picked[i]) others.push_back(i);
  const std::size_t rest = std::min(max_listed - count, others.size());
  for (std::size_t k = 0; k < rest; ++k) take(others[k * others.size() / rest]);
  for (std::size_t i = 0; i < n; ++i)
    if (picked[i]) listed.push_back(i);
  return listed;
}

}  // namespace kbo
