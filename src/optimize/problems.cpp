// Standard test functions with known optima (all minimised). Definitions and constants follow
// Surjanovic & Bingham, "Virtual Library of Simulation Experiments" (sfu.ca/~ssurjano).
#include "kbo/optimize/problems.hpp"
#include "kbo/optimize/bbob.hpp"

#include <cmath>
#include <numbers>

namespace kbo {
namespace {

constexpr double kPi = std::numbers::pi;

void require_dim(const Vec& x, int d, const char* name) {
  if (x.size() != d)
    throw InputError(std::string(name) + " needs a " + std::to_string(d) + "-dimensional point, got " +
                     std::to_string(x.size()));
}
void require_nonempty(const Vec& x, const char* name) {
  if (x.size() < 1) throw InputError(std::string(name) + " needs a point with at least one coordinate");
}

Box cube(int d, double lo, double hi) { return Box(Vec::Constant(d, lo), Vec::Constant(d, hi)); }

// Shift of the "ackley-shifted" optimum from the cube centre (per coordinate, first d used). The first six
// are the original d <= 6 problem (kbo bench bo's Ackley-6); the last four extend it to d = 10 (the long runs
// of docs/bench/scale.md) without changing any smaller d.
constexpr int kAckleyShiftedMaxDim = 10;
constexpr double kAckleyShift[kAckleyShiftedMaxDim] = {0.137, -0.213, 0.071, -0.319, 0.241,
                                                       -0.089, 0.183, -0.127, 0.293, -0.057};
constexpr double kAckleyHalfWidth = 32.768;

std::string allowed() {
  return "branin (d=2), hartmann6 (d=6), ackley, griewank, rastrigin (any d >= 1), ackley-shifted (1 <= d <= 10), "
         "bbob:F:I (BBOB function F = 1-24, instance I, d >= 2)";
}

}  // namespace

// Branin-Hoo on [-5, 10] x [0, 15]; minimum 0.397887 at (-π, 12.275), (π, 2.275), (9.42478, 2.475).
double branin(const Vec& x) {
  require_dim(x, 2, "branin");
  const double b = 5.1 / (4.0 * kPi * kPi), c = 5.0 / kPi, t = 1.0 / (8.0 * kPi);
  const double u = x[1] - b * x[0] * x[0] + c * x[0] - 6.0;
  return u * u + 10.0 * (1.0 - t) * std::cos(x[0]) + 10.0;
}

// Hartmann-6 on [0, 1]^6; minimum -3.32237 at (0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573).
double hartmann6(const Vec& x) {
  require_dim(x, 6, "hartmann6");
  static constexpr double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  static constexpr double A[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                                     {0.05, 10, 17, 0.1, 8, 14},
                                     {3, 3.5, 1.7, 10, 17, 8},
                                     {17, 8, 0.05, 10, 0.1, 14}};
  static constexpr double P[4][6] = {{1312, 1696, 5569, 124, 8283, 5886},
                                     {2329, 4135, 8307, 3736, 1004, 9991},
                                     {2348, 1451, 3522, 2883, 3047, 6650},
                                     {4047, 8828, 8732, 5743, 1091, 381}};
  double s = 0.0;
  for (int i = 0; i < 4; ++i) {
    double inner = 0.0;
    for (int j = 0; j < 6; ++j) {
      const double d = x[j] - 1e-4 * P[i][j];
      inner += A[i][j] * d * d;
    }
    s += alpha[i] * std::exp(-inner);
  }
  return -s;
}

// Ackley (a = 20, b = 0.2, c = 2π), usually on [-32.768, 32.768]^d; minimum 0 at 0.
double ackley(const Vec& x) {
  require_nonempty(x, "ackley");
  const double d = static_cast<double>(x.size());
  const double sq = x.squaredNorm() / d;
  double cs = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) cs += std::cos(2.0 * kPi * x[i]);
  return -20.0 * std::exp(-0.2 * std::sqrt(sq)) - std::exp(cs / d) + 20.0 + std::numbers::e;
}

// Griewank on [-600, 600]^d; minimum 0 at 0.
double griewank(const Vec& x) {
  require_nonempty(x, "griewank");
  double prod = 1.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) prod *= std::cos(x[i] / std::sqrt(static_cast<double>(i + 1)));
  return 1.0 + x.squaredNorm() / 4000.0 - prod;
}

// Rastrigin on [-5.12, 5.12]^d; minimum 0 at 0.
double rastrigin(const Vec& x) {
  require_nonempty(x, "rastrigin");
  double s = 10.0 * static_cast<double>(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) s += x[i] * x[i] - 10.0 * std::cos(2.0 * kPi * x[i]);
  return s;
}

namespace {

// The built-in problems, in problem_names() order: name → factory(name, dim) with dim = 0 meaning the
// default. fixed_dim(d) checks a problem of fixed dimension d against the requested one.
struct ProblemEntry {
  const char* name;
  Problem (*make)(const std::string& name, int dim);
};

int fixed_dim(const std::string& name, int dim, int d) {
  if (dim != 0 && dim != d)
    throw InputError("problem '" + name + "' has dimension " + std::to_string(d) + ", got " + std::to_string(dim) +
                     " (allowed: " + allowed() + ")");
  return d;
}
int any_dim(int dim) { return dim == 0 ? 2 : dim; }

Problem make_branin(const std::string& name, int dim) {
  fixed_dim(name, dim, 2);
  Vec lo(2), hi(2);
  lo << -5.0, 0.0;
  hi << 10.0, 15.0;
  std::vector<Vec> argmins;
  for (auto [a, b] : {std::pair{-kPi, 12.275}, std::pair{kPi, 2.275}, std::pair{3.0 * kPi, 2.475}}) {
    Vec v(2);
    v << a, b;
    argmins.push_back(v);
  }
  return {name, Box(lo, hi), branin, 0.39788735772973816, argmins};
}

Problem make_hartmann6(const std::string& name, int dim) {
  fixed_dim(name, dim, 6);
  Vec xs(6);
  xs << 0.20168952, 0.15001069, 0.47687398, 0.27533243, 0.31165162, 0.65730054;
  return {name, Box::unit(6), hartmann6, -3.3223680114155147, {xs}};
}

Problem make_ackley(const std::string& name, int dim) {
  const int d = any_dim(dim);
  return {name, cube(d, -kAckleyHalfWidth, kAckleyHalfWidth), ackley, 0.0, {Vec::Zero(d)}};
}

Problem make_griewank(const std::string& name, int dim) {
  const int d = any_dim(dim);
  return {name, cube(d, -600.0, 600.0), griewank, 0.0, {Vec::Zero(d)}};
}

Problem make_rastrigin(const std::string& name, int dim) {
  const int d = any_dim(dim);
  return {name, cube(d, -5.12, 5.12), rastrigin, 0.0, {Vec::Zero(d)}};
}

Problem make_ackley_shifted(const std::string& name, int dim) {
  const int d = any_dim(dim);
  if (d > kAckleyShiftedMaxDim)
    throw InputError("problem 'ackley-shifted' supports 1 <= d <= 10, got " + std::to_string(d) + " (allowed: " +
                     allowed() + ")");
  Vec ustar(d);
  for (int i = 0; i < d; ++i) ustar[i] = 0.5 + kAckleyShift[i];
  // f(u) = ackley(65.536 (u - u*)): Ackley's [-32.768, 32.768]^d scaled onto the unit cube, with the
  // optimum moved off the centre so that centre-biased designs get no free lunch.
  auto f = [ustar](const Vec& u) {
    require_dim(u, static_cast<int>(ustar.size()), "ackley-shifted");
    return ackley(2.0 * kAckleyHalfWidth * (u - ustar));
  };
  return {name, Box::unit(d), f, 0.0, {ustar}};
}

constexpr ProblemEntry kProblems[] = {
    {"branin", make_branin},       {"hartmann6", make_hartmann6}, {"ackley", make_ackley},
    {"griewank", make_griewank},   {"rastrigin", make_rastrigin}, {"ackley-shifted", make_ackley_shifted},
};

}  // namespace

std::vector<std::string> problem_names() {
  std::vector<std::string> names;
  for (const auto& p : kProblems) names.emplace_back(p.name);
  return names;
}

Problem make_problem(const std::string& name, int dim) {
  if (dim < 0) throw InputError("problem dimension must be >= 0 (0 = default), got " + std::to_string(dim));
  for (const auto& p : kProblems)
    if (name == p.name) return p.make(name, dim);
  if (name.rfind("bbob:", 0) == 0) return make_bbob_from_name(name, dim);
  throw InputError("unknown problem '" + name + "' (allowed: " + allowed() + ")");
}

}  // namespace kbo
