#pragma once
// Built-in test problems with known optima (all MINIMISED).
#include <functional>
#include <string>
#include <vector>

#include "kbo/core/space.hpp"

namespace kbo {

struct Problem {
  std::string name;
  Box bounds;
  std::function<double(const Vec&)> f;
  double optimum;            // known global minimum value
  std::vector<Vec> argmins;  // known minimisers (at least one)
};

/// "branin" (d=2), "hartmann6" (d=6), "ackley", "griewank", "rastrigin" (any d ≥ 1, default 2), and
/// "ackley-shifted" (Ackley on [−32.768, 32.768]^d with the optimum moved to u* = 0.5 + shift on the unit
/// cube, d ≤ 10). InputError naming the allowed names / dimensions otherwise.
Problem make_problem(const std::string& name, int dim = 0);
std::vector<std::string> problem_names();

double branin(const Vec& x);
double hartmann6(const Vec& x);
double ackley(const Vec& x);
double griewank(const Vec& x);
double rastrigin(const Vec& x);

}  // namespace kbo
