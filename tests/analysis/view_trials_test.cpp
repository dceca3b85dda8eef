// Which trials a capped view lists (kbo/analysis/view_trials.hpp), checked against a brute-force reading of the
// rules on random studies: never more than the cap, every improvement of the best value so far and the best
// trial, the newest pending and newest trials, the whole study covered, and everything when it fits.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "kbo/analysis/view_trials.hpp"

using namespace kbo;

namespace {

// n trials in id order: mostly complete with random values, some failed, some pending (more of them late).
std::vector<Trial> random_study(std::size_t n, unsigned seed, bool constraints = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Trial> trials(n);
  for (std::size_t i = 0; i < n; ++i) {
    Trial& t = trials[i];
    t.id = static_cast<int>(i);
    const double r = u(rng);
    const bool late = i + n / 20 >= n;
    if (r < (late ? 0.3 : 0.01)) {
      t.state = TrialState::Pending;
    } else if (r < (late ? 0.35 : 0.06)) {
      t.state = TrialState::Failed;
    } else {
      t.state = TrialState::Complete;
      t.value = 100.0 * u(rng);
      if (constraints) t.constraints = {u(rng) - 0.7};
    }
  }
  return trials;
}

// The improvements of the best value so far in id order (complete trials, any feasibility, as the page draws
// the line) and the best feasible trial, found by a plain scan.
std::set<std::size_t> must_list(const std::vector<Trial>& trials, bool minimize) {
  std::set<std::size_t> out;
  std::optional<double> best;
  std::optional<std::size_t> best_feasible;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const Trial& t = trials[i];
    if (t.state != TrialState::Complete) continue;
    const double v = *t.value;
    if (!best || (minimize ? v < *best : v > *best)) {
      best = v;
      out.insert(i);
    }
    if (is_feasible(t) && (!best_feasible || (minimize ? v < *trials[*best_feasible].value
                                                       : v > *trials[*best_feasible].value)))
      best_feasible = i;
  }
  if (best_feasible) out.insert(*best_feasible);
  return out;
}

}  // namespace

TEST(ViewTrials, AStudyThatFitsIsListedWhole) {
  for (std::size_t n : {0u, 1u, 17u, 500u}) {
    const auto trials = random_study(n, 3);
    const auto listed = trials_to_list(trials, true, 500);
    ASSERT_EQ(listed.size(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(listed[i], i);
    EXPECT_EQ(trials_to_list(trials, true, 0).size(), n);  // 0: no cap
  }
  EXPECT_EQ(trials_to_list(random_study(20000, 4), true, 0).size(), 20000u);
}

TEST(ViewTrials, ALargeStudyListsTheCapWithEveryImprovementPendingAndRecentTrials) {
  for (unsigned seed = 0; seed < 12; ++seed) {
    const std::size_t n = 3000 + 977 * seed;
    const std::size_t cap = 200 + 50 * seed;
    const bool minimize = seed % 2 == 0;
    const auto trials = random_study(n, seed, /*constraints=*/seed % 3 == 0);
    const auto listed = trials_to_list(trials, minimize, cap);
    ASSERT_EQ(listed.size(), cap);
    ASSERT_TRUE(std::is_sorted(listed.begin(), listed.end()));
    ASSERT_EQ(std::adjacent_find(listed.begin(), listed.end()), listed.end()) << "listed twice";
    const std::set<std::size_t> set(listed.begin(), listed.end());
    for (std::size_t i : must_list(trials, minimize)) EXPECT_TRUE(set.count(i)) << "improvement " << i;
    // The newest pending trials (up to a quarter of the cap) and the newest trials (a quarter).
    std::size_t pending = 0;
    for (std::size_t i = n; i-- > 0 && pending < cap / 4;)
      if (trials[i].state == TrialState::Pending) {
        EXPECT_TRUE(set.count(i)) << "pending " << i;
        ++pending;
      }
    for (std::size_t i = n - cap / 4; i < n; ++i) EXPECT_TRUE(set.count(i)) << "recent " << i;
    // The sample covers the study: no gap between listed trials longer than a few times n / cap.
    std::size_t previous = 0;
    for (std::size_t i : listed) {
      EXPECT_LE(i - previous, 4 * n / cap) << "gap before " << i;
      previous = i;
    }
  }
}

TEST(ViewTrials, MoreImprovementsThanTheCapKeepTheNewest) {
  // Every trial improves (strictly decreasing values): the cap keeps the newest improvements, so the line
  // ends at the study's best.
  std::vector<Trial> trials(1000);
  for (std::size_t i = 0; i < trials.size(); ++i) {
    trials[i].id = static_cast<int>(i);
    trials[i].state = TrialState::Complete;
    trials[i].value = -static_cast<double>(i);
  }
  const auto listed = trials_to_list(trials, true, 100);
  ASSERT_EQ(listed.size(), 100u);
  EXPECT_EQ(listed.front(), 900u);
  EXPECT_EQ(listed.back(), 999u);
}
