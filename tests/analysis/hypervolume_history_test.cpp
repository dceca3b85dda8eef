// The hypervolume against trials (kbo/analysis/hypervolume_history.hpp) against inclusion-exclusion over every
// prefix of random studies with 2 and 3 objectives, mixed directions, failed and infeasible trials.
#include <gtest/gtest.h>

#include <random>

#include "kbo/analysis/hypervolume_history.hpp"
#include "kbo/core/error.hpp"

using namespace kbo;

namespace {

/// Volume of the union of the boxes between each point and `ref` (objectives' own terms, `minimize[j]` says
/// which side is better), by inclusion-exclusion over all subsets.
double brute_hypervolume(const std::vector<std::vector<double>>& points, const std::vector<double>& ref,
                         const std::vector<bool>& minimize) {
  const std::size_t n = points.size(), k = ref.size();
  double total = 0.0;
  for (std::size_t mask = 1; mask < (std::size_t{1} << n); ++mask) {
    double vol = 1.0;
    int size = 0;
    for (std::size_t j = 0; j < k; ++j) {
      double corner = minimize[j] ? -1e300 : 1e300;  // the subset's worst value in objective j
      for (std::size_t i = 0; i < n; ++i)
        if (mask >> i & 1) corner = minimize[j] ? std::max(corner, points[i][j]) : std::min(corner, points[i][j]);
      vol *= std::max(0.0, minimize[j] ? ref[j] - corner : corner - ref[j]);
    }
    for (std::size_t i = 0; i < n; ++i) size += static_cast<int>(mask >> i & 1);
    total += (size % 2 ? 1.0 : -1.0) * vol;
  }
  return total;
}

}  // namespace

TEST(HypervolumeHistory, EveryPrefixMatchesInclusionExclusion) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k : {2, 3})
    for (int rep = 0; rep < 6; ++rep) {
      std::vector<std::string> directions;
      std::vector<bool> minimize;
      std::vector<double> ref;
      for (int j = 0; j < k; ++j) {
        const bool mn = u(rng) < 0.5;
        directions.push_back(mn ? "minimize" : "maximize");
        minimize.push_back(mn);
        ref.push_back(mn ? 0.9 : 0.1);  // some points fall outside the reference box
      }
      std::vector<Trial> trials(12);
      for (int i = 0; i < 12; ++i) {
        Trial& t = trials[static_cast<std::size_t>(11 - i)];  // stored out of id order
        t.id = i;
        const double r = u(rng);
        t.state = r < 0.1 ? TrialState::Failed : TrialState::Complete;
        if (t.state != TrialState::Complete) continue;
        for (int j = 0; j < k; ++j) t.values.push_back(u(rng));
        t.value = t.values[0];
        if (r > 0.9) t.constraints = {1.0};  // infeasible: not on any front
      }
      const nlohmann::json history = hypervolume_history(trials, directions, ref);
      ASSERT_FALSE(history.empty());
      // The step curve through the history, read at every trial id, is the hypervolume of the trials up to it.
      std::vector<std::vector<double>> prefix;
      std::size_t h = 0;
      int first = -1, last = -1;
      for (int id = 0; id < 12; ++id) {
        const Trial& t = trials[static_cast<std::size_t>(11 - id)];
        if (t.state != TrialState::Complete || !is_feasible(t)) continue;
        if (first < 0) first = id;
        last = id;
        prefix.push_back(t.values);
        while (h + 1 < history.size() && history[h + 1][0].get<int>() <= id) ++h;
        ASSERT_LE(history[h][0].get<int>(), id);
        EXPECT_NEAR(history[h][1].get<double>(), brute_hypervolume(prefix, ref, minimize), 1e-12) << k << " " << id;
      }
      EXPECT_EQ(history.front()[0].get<int>(), first);
      EXPECT_EQ(history.back()[0].get<int>(), last);
    }
}

TEST(HypervolumeHistory, NeedsOneReferenceValuePerObjective) {
  EXPECT_THROW(hypervolume_history({}, {"minimize", "minimize"}, {1.0}), InputError);
}
