// Test helpers of the set tests: n random sets of m elements (rows; coordinates uniform in [lo, hi]), and a flat set vector
// with its elements in a random order (an invariant kernel must not see the difference).
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "kbo/core/random.hpp"
#include "kbo/sets/set_space.hpp"

namespace kbo {

inline Mat random_sets(int n, int m, int d, Rng& rng, double lo = 0.0, double hi = 1.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  Mat X(n, m * d);
  for (int i = 0; i < X.size(); ++i) X(i) = u(rng);
  return X;
}

inline Vec shuffled(const Vec& x, int m, int d, Rng& rng) {
  Mat E = SetSpace::to_elements(x, m, d);
  std::vector<int> p(m);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  Mat P(m, d);
  for (int i = 0; i < m; ++i) P.row(i) = E.row(p[i]);
  return SetSpace::from_elements(P);
}

}  // namespace kbo
