// Runners of `kbo bench invariance` (see invariance_bench.hpp).
#include "invariance_bench.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <limits>
#include <numeric>
#include <regex>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/invariance/kernels.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/registry.hpp"
#include "observations.hpp"
#include "wlan.hpp"

namespace kbo::bench {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Process CPU clock with the steady_clock interface used above.
struct CpuClock {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
  }
};
double since(double t) { return CpuClock::now() - t; }

double rastrigin1(double t) { return t * t - 10.0 * std::cos(2.0 * M_PI * t) + 10.0; }

// Fixed-point-free shifts c_i = W (0.2 + 0.6 i/(d+1)), i = 1..d: distinct, increasing, inside (0, W).
Vec fpf_shift(int d, double half_width) {
  Vec c(d);
  for (int i = 0; i < d; ++i) c[i] = half_width * (0.2 + 0.6 * (i + 1.0) / (d + 1.0));
  return c;
}

Vec sorted_abs(const Vec& x) {
  Vec a = x.cwiseAbs();
  std::sort(a.data(), a.data() + a.size());
  return a;
}

double estimate_variance(const InvarianceTask& t) {
  Rng rng = make_rng(99);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int n = 4096;
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) {
    Vec z(t.dim);
    for (int j = 0; j < t.dim; ++j) z[j] = u(rng);
    v[i] = t.f(t.box.from_unit(z));
  }
  const double m = std::accumulate(v.begin(), v.end(), 0.0) / n;
  double s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return s / (n - 1);
}

Box sym_box(int d, double w) { return Box(Vec::Constant(d, -w), Vec::Constant(d, w)); }
}  // namespace

std::string invariance_task_names() {
  return "ackley2d, griewank6d, rastrigin5d, radial2d, scaling2d, wlan8d, ackley2d-fpf, griewank6d-fpf, "
         "rastrigin5d-fpf, ackley<d>d, rastrigin<d>d (d = 1..8)";
}

InvarianceTask make_invariance_task(const std::string& name) {
  InvarianceTask t;
  t.name = name;
  std::smatch m;
  static const std::regex re("^(ackley|griewank|rastrigin)([1-8])d(-fpf)?$");
  if (std::regex_match(name, m, re)) {
    const std::string fn = m[1];
    const int d = std::stoi(m[2]);
    const bool fpf = m[3].matched;
    t.dim = d;
    t.kernel = "matern52";
    if (fn == "ackley") {
      t.box = sym_box(d, 32.768);
      t.group = "hyperoctahedral";
      if (fpf) {
        const Vec c = fpf_shift(d, 32.768);
        t.f = [c](const Vec& x) { return ackley(sorted_abs(x) - c); };
      } else {
        t.f = [](const Vec& x) { return ackley(x); };
      }
    } else if (fn == "griewank") {
      t.box = sym_box(d, 600.0);
      t.group = "signflip";
      if (fpf) {
        const Vec c = fpf_shift(d, 600.0);
        t.f = [c](const Vec& x) { return griewank(Vec(x.cwiseAbs() - c)); };
      } else {
        t.f = [](const Vec& x) { return griewank(x); };
      }
    } else {
      t.box = sym_box(d, 5.12);
      t.group = "hyperoctahedral";
      if (fpf) {
        const Vec c = fpf_shift(d, 5.12);
        t.f = [c](const Vec& x) { return rastrigin(sorted_abs(x) - c); };
      } else {
        t.f = [](const Vec& x) { return rastrigin(x); };
      }
    }
    t.fmin = 0.0;
    t.description = fn + " d=" + std::to_string(d) + (fpf ? " fixed-point-free F(Φ(x) − c)" : "") + ", G=" + t.group;
  } else if (name == "radial2d") {
    // f(x) = Rastrigin_1d(||x|| − r0), r0 = 2.5 on [−5, 5]²: minimum 0 on the circle ||x|| = r0.
    t.dim = 2;
    t.box = sym_box(2, 5.0);
    t.f = [](const Vec& x) { return rastrigin1(x.norm() - 2.5); };
    t.group = "rotation";
    t.kernel = "rbf";
    t.description = "Rastrigin_1d(||x|| - 2.5) on [-5,5]^2, G=SO(2)";
  } else if (name == "scaling2d") {
    // f(x) = Rastrigin_1d((2/π) wrap(angle(x) − π/4)) on [−1, 1]²: depends on the direction only,
    // minimum 0 on the ray at 45°, local minima every 90°.
    t.dim = 2;
    t.box = sym_box(2, 1.0);
    t.f = [](const Vec& x) {
      double a = std::atan2(x[1], x[0]) - M_PI / 4.0;
      a = std::remainder(a, 2.0 * M_PI);
      return rastrigin1(2.0 * a / M_PI);
    };
    t.group = "scaling";
    t.kernel = "rbf";
    t.description = "Rastrigin_1d((2/pi)(angle(x) - pi/4)) on [-1,1]^2, G=scalings (through the direction)";
  } else if (name == "wlan8d") {
    auto sim = std::make_shared<Wlan>();
    t.dim = sim->dim();
    t.box = Box(Vec::Zero(t.dim), Vec::Constant(t.dim, sim->config().side));
    t.f = [sim](const Vec& x) { return -sim->throughput(x); };
    t.has_fmin = false;
    t.group = "blocks:4";
    t.kernel = "matern32";
    t.description = "WLAN: 4 APs, 40 users, 100 m x 100 m, sum of Shannon capacities (Mbps), G=blocks:4 (24)";
  } else {
    throw InputError("unknown invariance task '" + name + "'; allowed: " + invariance_task_names());
  }
  t.noise_variance = 0.01 * estimate_variance(t);
  return t;
}

KernelVariant kernel_variant(const std::string& label) {
  if (label == "base") return {label, "none", nlohmann::json::object()};
  if (label == "avg") return {label, "average", nlohmann::json::object()};
  if (label == "avg-norm") return {label, "average", {{"normalize", true}}};
  if (label == "max") return {label, "max", {{"projection", "auto"}}};
  if (label == "max-proj") return {label, "max", {{"projection", "always"}, {"eig_threshold", 1e-4}}};
  if (label == "default") return {label, "product", nlohmann::json::object()};
  throw InputError("unknown kernel variant '" + label + "'; allowed: base, avg, avg-norm, max, max-proj, default");
}

namespace {
KernelPtr variant_kernel(const InvarianceTask& task, const KernelVariant& v) {
  KernelPtr base = make_stationary(task.kernel, task.dim, false, 1.0 / 3.0, 1.0);
  if (v.mode == "none") return base;
  nlohmann::json opt = task.group_options;
  for (auto it = v.options.begin(); it != v.options.end(); ++it) opt[it.key()] = it.value();
  return make_invariant_kernel(std::move(base), task.group, v.mode, Vec::Constant(task.dim, 0.5), opt);
}

// Fit θ on the base kernel (warm-started from theta when given), then build the variant's GP with it.
GP fit_and_build(const InvarianceTask& task, const KernelVariant& v, const Kernel& proto, const Mat& U,
                 const Vec& y, Vec& theta, std::uint64_t seed, int restarts) {
  GP base_gp(make_stationary(task.kernel, task.dim, false, 1.0 / 3.0, 1.0), 1e-3, true, true);
  base_gp.set_data(U, y);
  if (theta.size() == base_gp.hyperparameters().size()) base_gp.set_hyperparameters(theta);
  FitOptions fo;
  fo.restarts = restarts;
  fo.map = true;
  fo.seed = seed;
  base_gp.fit(fo);
  theta = base_gp.hyperparameters();
  if (v.mode == "none") return base_gp;
  KernelPtr k = proto.clone();
  k->set_log_params(theta.head(theta.size() - 1));
  GP gp(std::move(k), std::exp(theta[theta.size() - 1]), true, true);
  gp.set_data(U, y);
  return gp;
}

Vec maximise_ucb(const GP& gp, const Mat& U, const Vec& y, int dim, std::uint64_t seed, const BoProtocol& p) {
  const double beta = 0.5 * dim * std::log(2.0 * static_cast<double>(U.rows()));
  UpperConfidenceBound acq(gp, beta);
  BoxSpace space(Box::unit(dim));
  AcqOptimizerOptions opt = p.acq;
  opt.seed = seed;
  Eigen::Index best = 0;
  y.maxCoeff(&best);
  return maximize_acquisition(acq, space, opt, U.row(best)).x;
}
}  // namespace

Vec invariant_bo_step(const InvarianceTask& task, const KernelVariant& variant, const Mat& U, const Vec& y,
                      std::uint64_t seed, const BoProtocol& protocol) {
  const KernelPtr proto = variant_kernel(task, variant);
  Vec theta;
  GP gp = fit_and_build(task, variant, *proto, U, y, theta, seed, protocol.fit_restarts);
  return maximise_ucb(gp, U, y, task.dim, seed, protocol);
}

namespace {
// One BO evaluation's figures: its value, and its regret with the running cumulative regret `cum` (or, for a
// task without a known minimum, the best value so far, `best`, which the caller has updated).
void record_evaluation(BoTrace& tr, const InvarianceTask& task, double f, double best, double& cum) {
  tr.values.push_back(f);
  if (task.has_fmin) {
    tr.regret.push_back(f - task.fmin);
    cum += f - task.fmin;
    tr.cumulative.push_back(cum);
  } else {
    tr.cumulative.push_back(best);
  }
}

// The "default" variant: what `kbo optimize --invariance <group>` does with every other setting at its default
// (the product's model, invariant kernel, acquisition and optimiser; its own initial design), on the same
// noisy task. Regret and timing are recorded as for the paper's protocol.
BoTrace run_product_bo(const InvarianceTask& task, std::uint64_t seed, const BoProtocol& p) {
  const auto t0 = Clock::now();
  const int D = task.dim;
  StrategyConfig c;
  c.seed = seed;
  c.n_init = p.n_init;
  c.invariance = task.group;
  auto space = std::make_shared<BoxSpace>(task.box);
  validate(c, D);
  auto strategy = make_strategy(c, space);
  strategy->set_budget(p.n_init + p.iterations);  // as `kbo optimize` does
  Rng noise_rng = make_rng(seed * 1000 + 23);
  std::normal_distribution<double> normal(0.0, 1.0);
  const double noise_sd = std::sqrt(task.noise_variance);
  Mat X(0, D);
  Vec y(0);  // observations to MAXIMISE: −f + noise
  BoTrace tr;
  double cum = 0.0, best = std::numeric_limits<double>::infinity();  // best includes the initial design
  for (int i = 0; i < p.n_init + p.iterations; ++i) {
    const auto ti = Clock::now();
    const Vec x = strategy->suggest(X, y, Mat(0, D), i);
    const double f = task.f(x);
    append_observation(X, y, x, f - noise_sd * normal(noise_rng));  // stores −f + noise
    best = std::min(best, f);
    if (i < p.n_init) continue;
    tr.iteration_seconds.push_back(since(ti));
    record_evaluation(tr, task, f, best, cum);
  }
  tr.seconds = since(t0);
  return tr;
}
}  // namespace

BoTrace run_invariant_bo(const InvarianceTask& task, const KernelVariant& variant, std::uint64_t seed,
                         const BoProtocol& p) {
  if (variant.mode == "product") return run_product_bo(task, seed, p);
  const auto t0 = Clock::now();
  const int D = task.dim;
  const KernelPtr proto = variant_kernel(task, variant);
  // Initial design and observation noise: common random numbers across variants of one seed.
  Rng design_rng = make_rng(seed * 1000 + 17), noise_rng = make_rng(seed * 1000 + 23);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  const double noise_sd = std::sqrt(task.noise_variance);
  const int N = p.n_init + p.iterations;
  Mat U(N, D);
  Vec y(N);  // observations to MAXIMISE: −f + noise
  BoTrace tr;
  auto observe = [&](int i, const Vec& u) {
    const double f = task.f(task.box.from_unit(u));
    U.row(i) = u.transpose();
    y[i] = -f + noise_sd * normal(noise_rng);
    return f;
  };
  double cum = 0.0, best = std::numeric_limits<double>::infinity();  // best includes the initial design
  for (int i = 0; i < p.n_init; ++i) {
    Vec u(D);
    for (int j = 0; j < D; ++j) u[j] = unif(design_rng);
    best = std::min(best, observe(i, u));
  }
  Vec theta;
  for (int t = 0; t < p.iterations; ++t) {
    const auto ti = Clock::now();
    const int n = p.n_init + t;
    const Mat Un = U.topRows(n);
    const Vec yn = y.head(n);
    const std::uint64_t s = seed * 7919 + static_cast<std::uint64_t>(t);
    GP gp = fit_and_build(task, variant, *proto, Un, yn, theta, s, p.fit_restarts);
    const Vec u = maximise_ucb(gp, Un, yn, D, s, p);
    const double f = observe(n, u);
    tr.iteration_seconds.push_back(since(ti));
    best = std::min(best, f);
    record_evaluation(tr, task, f, best, cum);
  }
  tr.seconds = since(t0);
  return tr;
}

nlohmann::json invariance_performance(const BoProtocol& protocol) {
  // Process CPU time, not wall time: the figures must not depend on what else runs on the machine
  // (run this alone, single-threaded: --jobs 1).
  using Clock = CpuClock;
  nlohmann::json out;
  Rng rng = make_rng(5);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  auto points = [&](int n, int d) {
    Mat X(n, d);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < d; ++j) X(i, j) = unif(rng);
    return X;
  };
  {
    // (1) Gram of the max kernel, n = 200, hyperoctahedral group of d = 5 (|G| = 3840).
    const Mat X = points(200, 5);
    auto g = make_group("hyperoctahedral", 5);
    MaxKernel fast(make_stationary("matern52", 5, false, 0.2, 1.0), g, Vec::Constant(5, 0.5), OrbitPath::Fast);
    MaxKernel brute(make_stationary("matern52", 5, false, 0.2, 1.0), g, Vec::Constant(5, 0.5), OrbitPath::Brute);
    auto t = Clock::now();
    Mat Kf;
    int reps = 0;
    do {
      Kf = fast.gram(X);
      ++reps;
    } while (since(t) < 0.5);
    const double tf = since(t) / reps;
    t = Clock::now();
    const Mat Kb = brute.gram(X);
    const double tb = since(t);
    out["gram_n200_rastrigin5d"] = {{"fast_seconds", tf},
                                    {"brute_seconds", tb},
                                    {"ratio", tb / tf},
                                    {"group_order", 3840},
                                    {"max_abs_difference", (Kf - Kb).cwiseAbs().maxCoeff()}};
  }
  {
    // (2) hyperoctahedral d = 10 (|G| = 3.7e9): fast path time per entry vs a plain Matérn-5/2 entry.
    const Mat X = points(300, 10);
    MaxKernel fast(make_stationary("matern52", 10, false, 0.5, 1.0), make_group("hyperoctahedral", 10),
                   Vec::Constant(10, 0.5), OrbitPath::Fast);
    auto plain = make_stationary("matern52", 10, false, 0.5, 1.0);
    auto time_per_entry = [&](auto&& fn) {
      auto t = Clock::now();
      int reps = 0;
      do {
        fn();
        ++reps;
      } while (since(t) < 0.5);
      return since(t) / reps / (300.0 * 300.0);
    };
    const double tf = time_per_entry([&] { return fast.cross(X, X); });
    const double tp = time_per_entry([&] { return plain->cross(X, X); });
    out["hyperoctahedral_d10_per_entry"] = {
        {"fast_path_ns", tf * 1e9}, {"plain_matern_ns", tp * 1e9}, {"ratio", tf / tp}, {"group_order", 3715891200.0}};
  }
  {
    // (3) time of one BO iteration (fit on base + model + UCB maximisation) at n = 50, 100, 200.
    const InvarianceTask task = make_invariance_task("rastrigin5d");
    nlohmann::json rows = nlohmann::json::array();
    for (int n : {50, 100, 200}) {
      const Mat U = points(n, 5);
      Vec y(n);
      for (int i = 0; i < n; ++i) y[i] = -task.f(task.box.from_unit(U.row(i).transpose()));
      nlohmann::json row = {{"n", n}};
      for (const std::string label : {"base", "max", "max-proj"}) {
        auto t = Clock::now();
        invariant_bo_step(task, kernel_variant(label), U, y, 1, protocol);
        row[label + "_seconds"] = since(t);
      }
      rows.push_back(row);
    }
    out["bo_iteration_rastrigin5d"] = rows;
  }
  return out;
}

}  // namespace kbo::bench
