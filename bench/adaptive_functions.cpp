#include "adaptive_functions.hpp"

#include <cmath>
#include <functional>
#include <numbers>

#include "kbo/core/random.hpp"

namespace kbo::bench {

namespace {
Mat gauss_gram(const Mat& A, const Mat& B, double theta) {
  Mat K(A.rows(), B.rows());
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < B.rows(); ++j) K(i, j) = std::exp(-0.5 * (A.row(i) - B.row(j)).squaredNorm() / (theta * theta));
  return K;
}
}  // namespace

double RkhsFunction::operator()(const Vec& x) const {
  double s = 0.0;
  for (int i = 0; i < centres.rows(); ++i)
    s += alpha[i] * std::exp(-0.5 * (centres.row(i).transpose() - x).squaredNorm() / (theta * theta));
  return s;
}

double RkhsFunction::rkhs_norm() const {
  return std::sqrt(std::max(0.0, alpha.dot(gauss_gram(centres, centres, theta) * alpha)));
}

void RkhsFunction::scale_to_norm(double norm) { alpha *= norm / rkhs_norm(); }

RkhsFunction paper_rkhs_function() {
  RkhsFunction f;
  f.theta = 0.1;
  f.centres.resize(7, 1);
  f.centres << 0.08, 0.2, 0.32, 0.6, 0.7, 0.8, 0.9;
  f.alpha.resize(7);
  f.alpha << -0.6, 1.6, -0.6, 0.28, 0.28, 0.28, 0.28;
  f.scale_to_norm(2.0);
  return f;
}

RkhsFunction gp_sample_function(std::uint64_t seed, double theta, double norm, int grid) {
  RkhsFunction f;
  f.theta = theta;
  f.centres.resize(grid, 1);
  for (int i = 0; i < grid; ++i) f.centres(i, 0) = static_cast<double>(i) / (grid - 1);
  const Mat K = gauss_gram(f.centres, f.centres, theta);
  const Cholesky chol(K);
  Rng rng = make_rng(seed);
  std::normal_distribution<double> normal;
  Vec z(grid);
  for (int i = 0; i < grid; ++i) z[i] = normal(rng);
  const Vec values = chol.L() * z;   // a sample of f at the grid
  f.alpha = chol.solve(values);      // minimum-norm interpolant
  f.scale_to_norm(norm);
  return f;
}

double berkenkamp_function(double x) {
  const double s = 0.08, m = 0.2;
  return 0.6 * x + std::exp(-0.5 * (x - m) * (x - m) / (s * s)) / (s * std::sqrt(2.0 * std::numbers::pi)) / 8.0;
}

std::pair<double, double> maximize_1d(const std::function<double(double)>& f) {
  const int n = 20001;
  double bx = 0.0, bf = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double x = static_cast<double>(i) / (n - 1), v = f(x);
    if (v > bf) bf = v, bx = x;
  }
  double a = std::max(0.0, bx - 1.0 / (n - 1)), b = std::min(1.0, bx + 1.0 / (n - 1));
  const double r = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int it = 0; it < 60; ++it) {
    const double c = b - r * (b - a), d = a + r * (b - a);
    if (f(c) > f(d))
      b = d;
    else
      a = c;
  }
  const double xm = 0.5 * (a + b);
  if (f(xm) > bf) bx = xm, bf = f(xm);
  return {bx, bf};
}

}  // namespace kbo::bench
