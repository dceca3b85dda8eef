// Formulas as in Surjanovic & Bingham's Virtual Library of Simulation Experiments (sfu.ca/~ssurjano).
#include "short_budget_problems.hpp"

#include <cmath>

#include "kbo/core/error.hpp"

namespace kbo::bench {

double levy(const Vec& x) {
  const int d = static_cast<int>(x.size());
  auto w = [&](int i) { return 1.0 + (x[i] - 1.0) / 4.0; };
  const double s0 = std::sin(M_PI * w(0));
  double f = s0 * s0;
  for (int i = 0; i + 1 < d; ++i) {
    const double s = std::sin(M_PI * w(i) + 1.0);
    f += (w(i) - 1.0) * (w(i) - 1.0) * (1.0 + 10.0 * s * s);
  }
  const double sd = std::sin(2.0 * M_PI * w(d - 1));
  return f + (w(d - 1) - 1.0) * (w(d - 1) - 1.0) * (1.0 + sd * sd);
}

double rosenbrock(const Vec& x) {
  double f = 0.0;
  for (Eigen::Index i = 0; i + 1 < x.size(); ++i)
    f += 100.0 * std::pow(x[i + 1] - x[i] * x[i], 2) + std::pow(1.0 - x[i], 2);
  return f;
}

double styblinski_tang(const Vec& x) {
  double f = 0.0;
  for (double v : x) f += v * v * v * v - 16.0 * v * v + 5.0 * v;
  return 0.5 * f;
}

double michalewicz(const Vec& x) {
  double f = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    f -= std::sin(x[i]) * std::pow(std::sin(static_cast<double>(i + 1) * x[i] * x[i] / M_PI), 20);
  return f;
}

namespace {
Problem box_problem(const std::string& name, int d, double lo, double hi, double (*f)(const Vec&), double optimum,
                    double argmin) {
  Problem p;
  p.name = name;
  p.bounds = Box(Vec::Constant(d, lo), Vec::Constant(d, hi));
  p.f = f;
  p.optimum = optimum;
  p.argmins = {Vec::Constant(d, argmin)};
  return p;
}
}  // namespace

std::vector<Problem> short_budget_problems(const std::string& set) {
  if (set == "short") return {make_problem("branin", 2), make_problem("hartmann6", 6), make_problem("ackley-shifted", 6)};
  if (set != "heldout") throw InputError("unknown short-budget set '" + set + "' (allowed: short, heldout)");
  std::vector<Problem> out;
  out.push_back(box_problem("levy-4", 4, -10.0, 10.0, levy, 0.0, 1.0));
  out.push_back(box_problem("rosenbrock-4", 4, -5.0, 10.0, rosenbrock, 0.0, 1.0));
  out.push_back(box_problem("styblinski-tang-5", 5, -5.0, 5.0, styblinski_tang, -39.16616570377142 * 5, -2.903534018185960));
  Problem m = box_problem("michalewicz-5", 5, 0.0, M_PI, michalewicz, -4.687658, 0.0);
  m.argmins.clear();  // known only as a value
  out.push_back(m);
  Problem a = make_problem("ackley-shifted", 5);
  a.name = "ackley-shifted-5";
  out.push_back(a);
  return out;
}

}  // namespace kbo::bench
