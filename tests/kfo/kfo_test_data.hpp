#pragma once
// Data the KFO tests share: uniform points in the unit cube and a small functional basis.
#include <random>

#include "kbo/core/random.hpp"
#include "kbo/kfo/functional_kernel.hpp"

namespace kbo::kfo::test {

/// n points drawn uniformly in [0, 1]^d, row by row.
inline Mat rand_points(Rng& rng, int n, int d) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Mat X(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) X(i, j) = u(rng);
  return X;
}

/// The functional basis of a dim-dimensional input with hyperkernel parameters (0.7, 0.6).
inline FunctionalBasis make_basis(int dim) {
  BasisOptions o;
  o.hyper = {0.7, 0.6};
  return FunctionalBasis(dim, o);
}

}  // namespace kbo::kfo::test
