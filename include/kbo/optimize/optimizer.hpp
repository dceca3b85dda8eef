#pragma once
// Continuous optimisers used for acquisitions and hyperparameters. All MAXIMISE an objective over a box.
#include <functional>
#include <optional>

#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"
#include "kbo/core/space.hpp"

namespace kbo {

/// Objective: returns f(x); fills grad when it is non-null (gradient-free optimisers pass nullptr).
using Objective = std::function<double(const Vec& x, Vec* grad)>;

struct OptResult {
  Vec x;
  double value = -std::numeric_limits<double>::infinity();
  int evaluations = 0;
  int inadmissible = 0;  // maximize_acquisition with a predicate: polished starts it refused
};

/// L-BFGS with bound constraints (NLopt LD_LBFGS), from x0.
struct LbfgsOptions {
  int max_evaluations = 100;
  double rel_tol = 1e-9;
};
OptResult lbfgs_maximize(const Objective& f, const Vec& x0, const Box& box, const LbfgsOptions& opt = {});

/// DIRECT (NLopt GN_DIRECT_L) over the box; gradient-free.
OptResult direct_maximize(const Objective& f, const Box& box, int max_evaluations);

}  // namespace kbo
