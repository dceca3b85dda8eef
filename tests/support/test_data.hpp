#pragma once
// Small helpers several test files share (one definition, so that a unity build of a test target sees each
// name once).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "kbo/core/random.hpp"
#include "kbo/core/space.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/study/trial.hpp"

namespace kbo::test_support {

/// n points drawn uniformly from [0, 1]^d, reproducible from the seed.
inline Mat uniform_points(int n, int d, std::uint64_t seed) {
  Rng rng = make_rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Mat X(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) X(i, j) = unit(rng);
  return X;
}

/// The best (smallest) completed value of a study's trials; +inf when none completed.
inline double best_value(const std::vector<Trial>& trials) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& t : trials)
    if (t.value) best = std::min(best, *t.value);
  return best;
}

/// The box of the built-in Branin problem.
inline std::shared_ptr<const Space> branin_space() { return std::make_shared<BoxSpace>(make_problem("branin", 0).bounds); }

}  // namespace kbo::test_support
