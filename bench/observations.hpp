// The benches' data as strategies see it: each evaluated point appended to X and its value, negated
// (strategies maximise; the benches' problems are minimised), to y.
#pragma once

#include "kbo/core/linalg.hpp"

namespace kbo::bench {

inline void append_observation(Mat& X, Vec& y, const Vec& x, double f) {
  X.conservativeResize(X.rows() + 1, Eigen::NoChange);
  X.row(X.rows() - 1) = x.transpose();
  y.conservativeResize(y.size() + 1);
  y(y.size() - 1) = -f;
}

}  // namespace kbo::bench
