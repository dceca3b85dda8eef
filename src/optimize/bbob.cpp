// The 24 noiseless BBOB functions, written from their published definitions (Hansen et al. 2009,
// INRIA RR-6829). Notation follows the definitions: z is the transformed input, R and Q are the instance's
// rotations, Λ^α the diagonal conditioning, T_osz/T_asy the oscillation/asymmetry maps, f_pen the boundary
// penalty. The instance draws use the definitions' legacy generator (a Park–Miller generator behind a
// 32-entry shuffle table, Box–Muller normals), seeded with F + 10000·I as the definitions say.
#include "kbo/optimize/bbob.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// ---- the instance generator -------------------------------------------------------------------

/// n uniforms in (0, 1) from the legacy generator with this seed.
std::vector<double> legacy_uniform(std::size_t n, long seed) {
  if (seed < 0) seed = -seed;
  if (seed < 1) seed = 1;
  auto step = [](long s) {
    const long t = s / 127773;
    s = 16807 * (s - t * 127773) - 2836 * t;
    return s < 0 ? s + 2147483647 : s;
  };
  long state = seed;
  long table[32];
  for (int i = 39; i >= 0; --i) {
    state = step(state);
    if (i < 32) table[i] = state;
  }
  long out = table[0];
  std::vector<double> r(n);
  for (std::size_t i = 0; i < n; ++i) {
    state = step(state);
    const long slot = out / 67108865;  // 0..31
    out = table[slot];
    table[slot] = state;
    r[i] = static_cast<double>(out) / 2.147483647e9;
    if (r[i] == 0.0) r[i] = 1e-99;
  }
  return r;
}

/// n standard normals (Box–Muller on 2n legacy uniforms).
std::vector<double> legacy_gauss(std::size_t n, long seed) {
  const std::vector<double> u = legacy_uniform(2 * n, seed);
  std::vector<double> g(n);
  for (std::size_t i = 0; i < n; ++i) {
    g[i] = std::sqrt(-2.0 * std::log(u[i])) * std::cos(kTwoPi * u[n + i]);
    if (g[i] == 0.0) g[i] = 1e-99;
  }
  return g;
}

/// The optimum's location: uniform on a 1e-4 grid of [−4, 4), never exactly 0.
Vec draw_xopt(long seed, int d) {
  const std::vector<double> u = legacy_uniform(static_cast<std::size_t>(d), seed);
  Vec x(d);
  for (int i = 0; i < d; ++i) {
    x(i) = 8.0 * std::floor(1e4 * u[i]) / 1e4 - 4.0;
    if (x(i) == 0.0) x(i) = -1e-5;
  }
  return x;
}

/// fopt: a Cauchy-distributed value rounded to 0.01 and clipped to [−1000, 1000]. Functions 4 and 18 share
/// the draws of 3 and 17.
double draw_fopt(int function, int instance) {
  const long base = function == 4 ? 3 : function == 18 ? 17 : function;
  const long seed = base + 10000L * instance;
  const double ratio = legacy_gauss(1, seed)[0] / legacy_gauss(1, seed + 1)[0];
  return std::clamp(std::floor(100.0 * 100.0 * ratio + 0.5) / 100.0, -1000.0, 1000.0);
}

/// A random rotation: Gram–Schmidt on the columns of a matrix of legacy normals.
Mat draw_rotation(long seed, int d) {
  const std::vector<double> g = legacy_gauss(static_cast<std::size_t>(d) * d, seed);
  Mat b(d, d);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) b(i, j) = g[static_cast<std::size_t>(j) * d + i];
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < i; ++j) b.col(i) -= b.col(i).dot(b.col(j)) * b.col(j);
    b.col(i) /= b.col(i).norm();
  }
  return b;
}

/// Indices that sort v ascending (the definitions' random permutations).
std::vector<int> argsort(const std::vector<double>& v) {
  std::vector<int> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return v[a] < v[b]; });
  return idx;
}

// ---- the transformations ----------------------------------------------------------------------

double t_osz(double x) {
  if (x == 0.0) return 0.0;
  const double h = std::log(std::abs(x));
  const double c1 = x > 0 ? 10.0 : 5.5, c2 = x > 0 ? 7.9 : 3.1;
  return (x > 0 ? 1.0 : -1.0) * std::exp(h + 0.049 * (std::sin(c1 * h) + std::sin(c2 * h)));
}
Vec t_osz(Vec x) {
  for (auto& v : x) v = t_osz(v);
  return x;
}
Vec t_asy(Vec x, double beta) {
  const int d = static_cast<int>(x.size());
  for (int i = 0; i < d; ++i)
    if (x(i) > 0) x(i) = std::pow(x(i), 1.0 + beta * i / (d - 1.0) * std::sqrt(x(i)));
  return x;
}
/// Λ^α: diagonal entries α^(i / (2(D − 1))).
Vec lambda(double alpha, int d) {
  Vec l(d);
  for (int i = 0; i < d; ++i) l(i) = std::pow(alpha, 0.5 * i / (d - 1.0));
  return l;
}
double f_pen(const Vec& x) {
  double p = 0.0;
  for (double v : x) {
    const double out = std::abs(v) - 5.0;
    if (out > 0) p += out * out;
  }
  return p;
}
double rastrigin_raw(const Vec& z) {
  double s = 0.0;
  for (double v : z) s += std::cos(kTwoPi * v);
  return 10.0 * (static_cast<double>(z.size()) - s) + z.squaredNorm();
}
double rosenbrock_raw(const Vec& z) {
  double s = 0.0;
  for (Eigen::Index i = 0; i + 1 < z.size(); ++i)
    s += 100.0 * std::pow(z(i) * z(i) - z(i + 1), 2) + std::pow(z(i) - 1.0, 2);
  return s;
}
double schaffer_raw(const Vec& z) {
  const int d = static_cast<int>(z.size());
  double s = 0.0;
  for (int i = 0; i + 1 < d; ++i) {
    const double si = std::sqrt(z(i) * z(i) + z(i + 1) * z(i + 1));
    s += std::sqrt(si) + std::sqrt(si) * std::pow(std::sin(50.0 * std::pow(si, 0.2)), 2);
  }
  return std::pow(s / (d - 1.0), 2);
}

// ---- one instance -------------------------------------------------------------------------------

struct Instance {
  int f = 0, d = 0;
  Vec xopt;
  double fopt = 0.0;
  Mat R, Q;  // R: rotation seeded F + 10000·I (or + 10⁶ for single-rotation functions); Q the other one
  Vec signs;                       // f20, f24: ±1
  std::vector<double> peak_w;      // f21/22: peak heights
  std::vector<Vec> peak_scale;     // f21/22: diagonal of C_i (in the rotated frame)
  Mat peak_y;                      // f21/22: peak locations, rotated frame, one per column
  double f0 = 0.0;                 // f16
};

double evaluate(const Instance& in, const Vec& x) {
  const int d = in.d;
  const double dd = d;
  switch (in.f) {
    case 1: return (x - in.xopt).squaredNorm();
    case 2: {
      const Vec z = t_osz(x - in.xopt);
      double s = 0.0;
      for (int i = 0; i < d; ++i) s += std::pow(10.0, 6.0 * i / (d - 1.0)) * z(i) * z(i);
      return s;
    }
    case 3: return rastrigin_raw(lambda(10.0, d).cwiseProduct(t_asy(t_osz(x - in.xopt), 0.2)));
    case 4: {
      Vec z = t_osz(x - in.xopt);
      for (int i = 0; i < d; ++i) z(i) *= std::pow(10.0, 0.5 * i / (d - 1.0)) * (i % 2 == 0 && z(i) > 0 ? 10.0 : 1.0);
      return rastrigin_raw(z) + 100.0 * f_pen(x);
    }
    case 5: {
      double s = 0.0;
      for (int i = 0; i < d; ++i) {
        const double si = (in.xopt(i) > 0 ? 1.0 : -1.0) * std::pow(10.0, i / (d - 1.0));
        const double zi = x(i) * in.xopt(i) < 25.0 ? x(i) : in.xopt(i);
        s += 5.0 * std::abs(si) - si * zi;
      }
      return s;
    }
    case 6: {
      const Vec z = in.Q * lambda(10.0, d).cwiseProduct(in.R * (x - in.xopt));
      double s = 0.0;
      for (int i = 0; i < d; ++i) s += (z(i) * in.xopt(i) > 0 ? 1e4 : 1.0) * z(i) * z(i);
      return std::pow(t_osz(s), 0.9);
    }
    case 7: {
      Vec zh = lambda(10.0, d).cwiseProduct(in.R * (x - in.xopt));
      const double z1 = zh(0);
      for (auto& v : zh) v = std::abs(v) > 0.5 ? std::floor(0.5 + v) : std::floor(0.5 + 10.0 * v) / 10.0;
      const Vec z = in.Q * zh;
      double s = 0.0;
      for (int i = 0; i < d; ++i) s += std::pow(100.0, i / (d - 1.0)) * z(i) * z(i);
      return 0.1 * std::max(std::abs(z1) / 1e4, s) + f_pen(x);
    }
    case 8: return rosenbrock_raw((std::max(1.0, std::sqrt(dd) / 8.0) * (x - in.xopt)).array() + 1.0);
    case 9: return rosenbrock_raw((std::max(1.0, std::sqrt(dd) / 8.0) * (in.R * x)).array() + 0.5);
    case 10: {
      const Vec z = t_osz(in.R * (x - in.xopt));
      double s = 0.0;
      for (int i = 0; i < d; ++i) s += std::pow(10.0, 6.0 * i / (d - 1.0)) * z(i) * z(i);
      return s;
    }
    case 11: {
      const Vec z = t_osz(in.R * (x - in.xopt));
      return 1e6 * z(0) * z(0) + z.tail(d - 1).squaredNorm();
    }
    case 12: {
      const Vec z = in.R * t_asy(in.R * (x - in.xopt), 0.5);
      return z(0) * z(0) + 1e6 * z.tail(d - 1).squaredNorm();
    }
    case 13: {
      const Vec z = in.Q * lambda(10.0, d).cwiseProduct(in.R * (x - in.xopt));
      return z(0) * z(0) + 100.0 * z.tail(d - 1).norm();
    }
    case 14: {
      const Vec z = in.R * (x - in.xopt);
      double s = 0.0;
      for (int i = 0; i < d; ++i) s += std::pow(std::abs(z(i)), 2.0 + 4.0 * i / (d - 1.0));
      return std::sqrt(s);
    }
    case 15: {
      // COCO (f_rastrigin_rotated_bbob_problem_allocate): the rotation seeded F + 10000·I + 10⁶ (Q here) both
      // first and last, R in the middle — as f13's Q Λ R.
      const Vec z = in.Q * lambda(10.0, d).cwiseProduct(in.R * t_asy(t_osz(in.Q * (x - in.xopt)), 0.2));
      return rastrigin_raw(z);
    }
    case 16: {
      // COCO (f_weierstrass_bbob_problem_allocate): the + 10⁶ rotation (Q) first and last, as f15.
      const Vec z = in.Q * lambda(0.01, d).cwiseProduct(in.R * t_osz(in.Q * (x - in.xopt)));
      double s = 0.0;
      for (int i = 0; i < d; ++i)
        for (int k = 0; k <= 11; ++k) s += std::pow(0.5, k) * std::cos(kTwoPi * std::pow(3.0, k) * (z(i) + 0.5));
      return 10.0 * std::pow(s / dd - in.f0, 3) + 10.0 / dd * f_pen(x);
    }
    case 17:
    case 18: {
      // COCO (f_schaffers_bbob_problem_allocate): the + 10⁶ rotation (Q) before T_asy, the other one after.
      const Vec z = lambda(in.f == 17 ? 10.0 : 1000.0, d).cwiseProduct(in.R * t_asy(in.Q * (x - in.xopt), 0.5));
      return schaffer_raw(z) + 10.0 * f_pen(x);
    }
    case 19: {
      const Vec z = (std::max(1.0, std::sqrt(dd) / 8.0) * (in.R * x)).array() + 0.5;
      double s = 0.0;
      for (int i = 0; i + 1 < d; ++i) {
        const double si = 100.0 * std::pow(z(i) * z(i) - z(i + 1), 2) + std::pow(z(i) - 1.0, 2);
        s += si / 4000.0 - std::cos(si);
      }
      return 10.0 / (d - 1.0) * s + 10.0;
    }
    case 20: {
      const Vec xh = 2.0 * in.signs.cwiseProduct(x);
      const Vec two_abs = 2.0 * in.xopt.cwiseAbs();
      Vec zh = xh;
      for (int i = 1; i < d; ++i) zh(i) = xh(i) + 0.25 * (xh(i - 1) - two_abs(i - 1));
      const Vec z = 100.0 * (lambda(10.0, d).cwiseProduct(zh - two_abs) + two_abs);
      double s = 0.0;
      for (int i = 0; i < d; ++i) s += z(i) * std::sin(std::sqrt(std::abs(z(i))));
      return -s / (100.0 * dd) + 4.189828872724339 + 100.0 * f_pen(z / 100.0);
    }
    case 21:
    case 22: {
      const Vec xr = in.R * x;
      double best = 0.0;
      for (std::size_t p = 0; p < in.peak_w.size(); ++p) {
        const Vec diff = xr - in.peak_y.col(static_cast<Eigen::Index>(p));
        const double q = diff.cwiseProduct(diff).dot(in.peak_scale[p]);
        best = std::max(best, in.peak_w[p] * std::exp(-q / (2.0 * dd)));
      }
      return std::pow(t_osz(10.0 - best), 2) + f_pen(x);
    }
    case 23: {
      const Vec z = in.Q * lambda(100.0, d).cwiseProduct(in.R * (x - in.xopt));
      double prod = 1.0;
      for (int i = 0; i < d; ++i) {
        double s = 0.0;
        for (int j = 1; j <= 32; ++j) {
          const double p = std::ldexp(z(i), j);  // 2^j z_i, exact
          s += std::abs(p - std::nearbyint(p)) / std::ldexp(1.0, j);
        }
        prod *= std::pow(1.0 + (i + 1) * s, 10.0 / std::pow(dd, 1.2));
      }
      return 10.0 / (dd * dd) * (prod - 1.0) + f_pen(x);
    }
    case 24: {
      const double mu0 = 2.5, s = 1.0 - 1.0 / (2.0 * std::sqrt(dd + 20.0) - 8.2);
      const double mu1 = -std::sqrt((mu0 * mu0 - 1.0) / s);
      const Vec xh = 2.0 * in.signs.cwiseProduct(x);
      const Vec z = in.Q * lambda(100.0, d).cwiseProduct(in.R * (xh.array() - mu0).matrix());
      const double a = (xh.array() - mu0).square().sum(), b = dd + s * (xh.array() - mu1).square().sum();
      double c = 0.0;
      for (int i = 0; i < d; ++i) c += std::cos(kTwoPi * z(i));
      return std::min(a, b) + 10.0 * (dd - c) + 1e4 * f_pen(x);
    }
  }
  throw InputError("bbob function " + std::to_string(in.f) + " is not one of 1-24");
}

/// Gallagher's peaks (f21: 101, f22: 21), in the rotated frame; the first is the optimum.
void draw_peaks(Instance& in, long seed) {
  const bool many = in.f == 21;
  const int peaks = many ? 101 : 21, d = in.d;
  const double top_condition = many ? std::sqrt(1000.0) : 1000.0, b = many ? 10.0 : 9.8, c = many ? 5.0 : 4.9;
  const std::vector<int> order = argsort(legacy_uniform(static_cast<std::size_t>(peaks - 1), seed));
  std::vector<double> condition(peaks);
  in.peak_w.assign(peaks, 10.0);
  condition[0] = top_condition;
  for (int i = 1; i < peaks; ++i) {
    condition[i] = std::pow(1000.0, order[i - 1] / (peaks - 2.0));
    in.peak_w[i] = 1.1 + 8.0 * (i - 1.0) / (peaks - 2.0);
  }
  in.peak_scale.assign(peaks, Vec(d));
  for (int i = 0; i < peaks; ++i) {
    const std::vector<int> perm = argsort(legacy_uniform(static_cast<std::size_t>(d), seed + 1000L * i));
    for (int j = 0; j < d; ++j) in.peak_scale[i](j) = std::pow(condition[i], perm[j] / (d - 1.0) - 0.5);
  }
  const std::vector<double> u = legacy_uniform(static_cast<std::size_t>(d) * peaks, seed);
  in.xopt.resize(d);
  in.peak_y.resize(d, peaks);
  for (int p = 0; p < peaks; ++p) {
    Vec y(d);
    for (int k = 0; k < d; ++k) y(k) = b * u[static_cast<std::size_t>(p) * d + k] - c;
    if (p == 0) {
      y *= 0.8;
      in.xopt = y;
    }
    in.peak_y.col(p) = in.R * y;
  }
}

Instance make_instance(int f, int instance, int d) {
  Instance in;
  in.f = f;
  in.d = d;
  const long seed = (f == 4 ? 3 : f == 18 ? 17 : f) + 10000L * instance;
  in.fopt = draw_fopt(f, instance);
  const bool single_rotation = f == 10 || f == 11 || f == 12 || f == 14;
  in.R = draw_rotation(single_rotation ? seed + 1000000 : seed, d);
  in.Q = draw_rotation(seed + 1000000, d);
  in.xopt = draw_xopt(f == 12 ? seed + 1000000 : seed, d);
  const double factor = std::max(1.0, std::sqrt(static_cast<double>(d)) / 8.0);
  switch (f) {
    case 4:
      for (int i = 0; i < d; i += 2) in.xopt(i) = std::abs(in.xopt(i));
      break;
    case 5:
      for (auto& v : in.xopt) v = v < 0 ? -5.0 : 5.0;
      break;
    case 8: in.xopt *= 0.75; break;
    case 9:   // z = factor·R x + 1/2 is 1 at the optimum
    case 19: in.xopt = in.R.transpose() * Vec::Constant(d, 0.5 / factor); break;
    case 16:
      in.f0 = 0.0;
      for (int k = 0; k <= 11; ++k) in.f0 += std::pow(0.5, k) * std::cos(kTwoPi * std::pow(3.0, k) * 0.5);
      break;
    case 20: {
      const std::vector<double> u = legacy_uniform(static_cast<std::size_t>(d), seed);
      in.signs.resize(d);
      for (int i = 0; i < d; ++i) in.signs(i) = u[i] < 0.5 ? -1.0 : 1.0;
      in.xopt = 0.5 * 4.2096874637 * in.signs;
      break;
    }
    case 21:
    case 22: draw_peaks(in, seed); break;
    case 24: {
      const std::vector<double> g = legacy_gauss(static_cast<std::size_t>(d), seed);
      in.signs.resize(d);
      for (int i = 0; i < d; ++i) in.signs(i) = g[i] < 0 ? -1.0 : 1.0;
      in.xopt = 0.5 * 2.5 * in.signs;
      break;
    }
    default: break;
  }
  return in;
}

}  // namespace

const char* bbob_group(int function) {
  if (function >= 1 && function <= 5) return "separable";
  if (function <= 9) return "low/moderate conditioning";
  if (function <= 14) return "high conditioning, unimodal";
  if (function <= 19) return "multimodal, adequate global structure";
  if (function <= 24) return "multimodal, weak global structure";
  throw InputError("bbob function " + std::to_string(function) + " is not one of 1-24");
}

Problem make_bbob(int function, int instance, int dim) {
  if (function < 1 || function > 24) throw InputError("bbob function " + std::to_string(function) + " is not one of 1-24");
  if (instance < 1 || instance > 100000)
    throw InputError("bbob instance " + std::to_string(instance) + " is not one of 1-100000");
  if (dim < 2 || dim > 40) throw InputError("bbob functions need --dim 2..40 (got " + std::to_string(dim) + ")");
  auto in = std::make_shared<const Instance>(make_instance(function, instance, dim));
  Problem p;
  p.name = "bbob:" + std::to_string(function) + ":" + std::to_string(instance);
  p.bounds = Box(Vec::Constant(dim, -5.0), Vec::Constant(dim, 5.0));
  p.f = [in](const Vec& x) { return evaluate(*in, x) + in->fopt; };
  p.optimum = in->fopt;
  p.argmins = {in->xopt};
  return p;
}

Problem make_bbob_from_name(const std::string& name, int dim) {
  const std::string form = "bbob:F:I (F = function 1-24, I = instance >= 1, with --dim D >= 2)";
  const auto c1 = name.find(':'), c2 = name.find(':', c1 + 1);
  if (name.rfind("bbob:", 0) != 0 || c2 == std::string::npos)
    throw InputError("problem '" + name + "' is not of the form " + form);
  auto number = [&](const std::string& text) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size()) throw InputError("problem '" + name + "' is not of the form " + form);
    return v;
  };
  return make_bbob(number(name.substr(c1 + 1, c2 - c1 - 1)), number(name.substr(c2 + 1)), dim == 0 ? 2 : dim);
}

}  // namespace kbo
