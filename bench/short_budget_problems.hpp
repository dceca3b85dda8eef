#pragma once
// Standard test functions for A-GP-UCB at short budgets (6·d evaluations): the selection set (the suite's
// own standard problems at the short budget) and the held-out set fixed before tuning (docs/bench/adaptive.md,
// "Short budgets outside the suite"). All minimised, over their usual domains.
#include <string>
#include <vector>

#include "kbo/optimize/problems.hpp"

namespace kbo::bench {

/// "short": branin (2-d), hartmann6, ackley-shifted (6-d). "heldout": levy-4, rosenbrock-4,
/// styblinski-tang-5, michalewicz-5, ackley-shifted-5. InputError for another set name.
std::vector<Problem> short_budget_problems(const std::string& set);

/// Levy (any d ≥ 1) on [−10, 10]^d, f* = 0 at x = 1.
double levy(const Vec& x);
/// Rosenbrock (d ≥ 2) on [−5, 10]^d, f* = 0 at x = 1.
double rosenbrock(const Vec& x);
/// Styblinski–Tang on [−5, 5]^d, f* = −39.16617 d at x_i = −2.903534.
double styblinski_tang(const Vec& x);
/// Michalewicz with m = 10 on [0, π]^d; f* = −4.687658 for d = 5.
double michalewicz(const Vec& x);

}  // namespace kbo::bench
