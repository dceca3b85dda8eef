// `kbo bench structure`: structured problems through the product path (see structure_bench.hpp).
#include "structure_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

#include "kbo/core/csv.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/registry.hpp"
#include "observations.hpp"
#include "report.hpp"

namespace kbo::bench {

namespace {

using Clock = std::chrono::steady_clock;

// One structured problem: the user's space (a set of m elements in an element box, or a box with a group)
// and the objective (minimised) on the flat vector in original coordinates.
struct StructureProblem {
  std::string name, description;
  bool is_set = false;
  int set_size = 0;
  Box element_box;     // sets: the box of one element
  Box box;             // the flat box (sets: the element box repeated m times)
  std::string group;   // box problems: the group the objective is invariant under (or declared under)
  std::vector<std::string> methods;
  std::function<double(const Vec&)> f;
};

Box repeat_box(const Box& b, int m) {
  const int d = b.dim();
  Vec lo(m * d), hi(m * d);
  for (int e = 0; e < m; ++e) lo.segment(e * d, d) = b.lower, hi.segment(e * d, d) = b.upper;
  return Box(lo, hi);
}

// Rows of flat vector x as m points of dimension d.
double min_dist2(const Vec& x, int m, int d, const Vec& p) {
  double best = std::numeric_limits<double>::infinity();
  for (int e = 0; e < m; ++e) best = std::min(best, (x.segment(e * d, d) - p).squaredNorm());
  return best;
}

// "default": the structured kernel a user gets without choosing one (StrategyConfig's set_kernel /
// invariant_kernel default), named after it in the results.
const std::vector<std::string> kSetMethods{"flat",    "flat-iso",    "random",      "set-full", "set-normalized",
                                           "set-max", "set-average", "set-sorted", "set-sliced", "set-aligned", "set-auto",
                                           "default"};
const std::vector<std::string> kGroupMethods{"flat", "random", "max", "average", "auto", "default"};

StructureProblem facility() {
  // 4 facilities in the unit square serving 5 demand clusters (30 customers each, σ = 0.06, fixed draw):
  // mean distance of a customer to its nearest facility. The optimum has 4 distinct facilities.
  const double centres[5][2] = {{0.15, 0.2}, {0.8, 0.15}, {0.5, 0.55}, {0.2, 0.85}, {0.85, 0.8}};
  Rng rng = make_rng(1234);
  std::normal_distribution<double> noise(0.0, 0.06);
  auto demand = std::make_shared<Mat>(150, 2);
  for (int i = 0; i < 150; ++i)
    for (int k = 0; k < 2; ++k) (*demand)(i, k) = std::clamp(centres[i / 30][k] + noise(rng), 0.0, 1.0);
  StructureProblem p;
  p.name = "facility";
  p.description = "4 facilities in [0,1]^2, 150 customers in 5 clusters; mean distance to the nearest facility";
  p.is_set = true;
  p.set_size = 4;
  p.element_box = Box::unit(2);
  p.box = repeat_box(p.element_box, 4);
  p.methods = kSetMethods;
  p.f = [demand](const Vec& x) {
    double s = 0.0;
    for (int i = 0; i < demand->rows(); ++i) s += std::sqrt(min_dist2(x, 4, 2, demand->row(i).transpose()));
    return s / static_cast<double>(demand->rows());
  };
  return p;
}

StructureProblem covering() {
  // Covering radius of 4 points in the unit square on a 21 x 21 grid: max over the grid of the distance
  // to the nearest point (optimum ≈ 0.35, four distinct points).
  StructureProblem p;
  p.name = "covering";
  p.description = "4 points in [0,1]^2; covering radius on a 21x21 grid (max over grid of the nearest distance)";
  p.is_set = true;
  p.set_size = 4;
  p.element_box = Box::unit(2);
  p.box = repeat_box(p.element_box, 4);
  p.methods = kSetMethods;
  p.f = [](const Vec& x) {
    double worst = 0.0;
    Vec g(2);
    for (int i = 0; i <= 20; ++i)
      for (int j = 0; j <= 20; ++j) {
        g << i / 20.0, j / 20.0;
        worst = std::max(worst, min_dist2(x, 4, 2, g));
      }
    return std::sqrt(worst);
  };
  return p;
}

StructureProblem kmeans_seeds(const std::string& data_dir) {
  // k-means objective of 3 centres on the UCI seeds data (210 kernels; area, asymmetry, groove length,
  // each min-max scaled to [0,1]): mean squared distance to the nearest centre.
  const CsvTable t = read_csv(data_dir + "/seeds.csv");
  const int cols[3] = {0, 5, 6};
  auto data = std::make_shared<Mat>(t.values.rows(), 3);
  for (int k = 0; k < 3; ++k) {
    const Vec c = t.values.col(cols[k]);
    data->col(k) = (c.array() - c.minCoeff()) / (c.maxCoeff() - c.minCoeff());
  }
  StructureProblem p;
  p.name = "kmeans-seeds";
  p.description = "3 centres in [0,1]^3; k-means objective on data/seeds.csv (area, asymmetry, groove length)";
  p.is_set = true;
  p.set_size = 3;
  p.element_box = Box::unit(3);
  p.box = repeat_box(p.element_box, 3);
  p.methods = kSetMethods;
  p.f = [data](const Vec& x) {
    double s = 0.0;
    for (int i = 0; i < data->rows(); ++i) s += min_dist2(x, 3, 3, data->row(i).transpose());
    return s / static_cast<double>(data->rows());
  };
  return p;
}

// Σ (z_i − c_i)² + 0.05 Σ (1 − cos(6π (z_i − c_i))): a bowl with ripples around c.
double rippled_bowl(const Vec& z, const Vec& c) {
  const Vec r = z - c;
  return r.squaredNorm() + 0.05 * (1.0 - (6.0 * M_PI * r.array()).cos()).sum();
}

StructureProblem perm_offcentre() {
  // Invariant under permutations of the 5 coordinates; minima at the 120 orderings of c (distinct entries:
  // none is a fixed point of the group).
  StructureProblem p;
  p.name = "perm-offcentre";
  p.description = "d=5 on [0,1]^5, permutation invariant: rippled bowl of sort(x) around c=(.1,.3,.5,.7,.9)";
  p.box = Box::unit(5);
  p.group = "permutation";
  p.methods = kGroupMethods;
  p.f = [](const Vec& x) {
    Vec s = x;
    std::sort(s.data(), s.data() + s.size());
    Vec c(5);
    c << 0.1, 0.3, 0.5, 0.7, 0.9;
    return rippled_bowl(s, c);
  };
  return p;
}

StructureProblem signflip_offcentre() {
  // Invariant under sign flips of each coordinate about the box centre 0; minima at the 16 points ±c.
  StructureProblem p;
  p.name = "signflip-offcentre";
  p.description = "d=4 on [-1,1]^4, sign-flip invariant: rippled bowl of |x| around c=(.2,.4,.6,.8)";
  p.box = Box(Vec::Constant(4, -1.0), Vec::Constant(4, 1.0));
  p.group = "signflip";
  p.methods = kGroupMethods;
  p.f = [](const Vec& x) {
    Vec c(4);
    c << 0.2, 0.4, 0.6, 0.8;
    return rippled_bowl(x.cwiseAbs(), c);
  };
  return p;
}

StructureProblem control_hartmann6() {
  // No structure: Hartmann-6 is not permutation invariant; the user declares permutation invariance
  // anyway (what auto costs when the structure is wrong).
  StructureProblem p;
  p.name = "control-hartmann6";
  p.description = "Hartmann-6 on [0,1]^6 (NOT invariant), run with --invariance permutation declared";
  p.box = Box::unit(6);
  p.group = "permutation";
  p.methods = {"flat", "random", "max", "auto", "default"};
  p.f = [](const Vec& x) { return hartmann6(x); };
  return p;
}

StructureProblem make_structure_problem(const std::string& name, const std::string& data_dir) {
  if (name == "facility") return facility();
  if (name == "covering") return covering();
  if (name == "kmeans-seeds") return kmeans_seeds(data_dir);
  if (name == "perm-offcentre") return perm_offcentre();
  if (name == "signflip-offcentre") return signflip_offcentre();
  if (name == "control-hartmann6") return control_hartmann6();
  std::string list;
  for (const auto& n : structure_problem_names()) list += (list.empty() ? "" : ", ") + n;
  throw InputError("bench structure: unknown problem '" + name + "' (allowed: " + list + ")");
}

// The space and config a user gets from `kbo optimize` with only --space/--invariance (and the kernel) given.
void method_setup(const StructureProblem& p, const std::string& method, std::uint64_t seed, int n_init,
                  const nlohmann::json& module_options, std::optional<double> beta, std::shared_ptr<const Space>& space,
                  StrategyConfig& c) {
  c = StrategyConfig{};
  c.seed = seed;
  c.n_init = n_init;
  c.module_options = module_options;  // the user's --options and --beta, the same for every model-based method
  if (beta) c.beta = *beta;
  if (method == "random") {
    c.strategy = "random";
    space = std::make_shared<BoxSpace>(p.box);
    return;
  }
  if (method == "flat" || method == "flat-iso") {
    space = std::make_shared<BoxSpace>(p.box);
    c.ard = method == "flat";  // flat-iso: one lengthscale (how much of the flat GP's edge is ARD)
    return;
  }
  if (p.is_set) {
    space = std::make_shared<SetSpace>(p.set_size, p.element_box);
    if (method != "default") c.set_kernel = parse_enum<SetKernelType>("method", method.substr(4));  // "set-<kernel>"
    return;
  }
  space = std::make_shared<BoxSpace>(p.box);
  c.invariance = p.group;
  if (method != "default") c.invariant_kernel = parse_enum<InvariantKernelType>("method", method);
}

struct RunResult {
  std::vector<double> best_so_far;
  std::vector<double> iter_seconds;
  std::map<std::string, int> choices;
};

RunResult run_one(const StructureProblem& p, const std::string& method, std::uint64_t seed,
                  const StructureBenchOptions& o) {
  std::shared_ptr<const Space> space;
  StrategyConfig c;
  method_setup(p, method, seed, o.n_init, o.module_options, o.beta, space, c);
  validate(c, space->dim());
  auto s = make_strategy(c, space);
  const int n_init = o.n_init, D = space->dim(), total = n_init + o.iters;
  s->set_budget(total);  // as `kbo optimize --iters` does: the default model's end-game needs the budget
  Mat X(0, D);
  Vec y(0);
  RunResult r;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < total; ++i) {
    const auto t0 = Clock::now();
    const Vec x = s->suggest(X, y, Mat(0, D), i);
    if (i >= n_init) {
      r.iter_seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      const nlohmann::json info = s->last_info();
      if (info.contains("kernel_choice")) ++r.choices[info["kernel_choice"].get<std::string>()];
    }
    const double f = p.f(x);
    best = std::min(best, f);
    r.best_so_far.push_back(best);
    append_observation(X, y, x, f);
  }
  return r;
}

// Seconds of one suggestion at n observations (uniform random points), after an untimed one at n − 1
// (so the timed refit is warm-started, as in a running study), mean over reps.
double time_at_n(const StructureProblem& p, const std::string& method, const nlohmann::json& module_options,
                 std::optional<double> beta, int n, int reps) {
  std::shared_ptr<const Space> space;
  StrategyConfig c;
  method_setup(p, method, 0, 5, module_options, beta, space, c);
  Rng rng = make_rng(77);
  const Mat X = space->sample(n + reps, SamplingMethod::Uniform, rng);
  Vec y(X.rows());
  for (int i = 0; i < X.rows(); ++i) y[i] = -p.f(X.row(i).transpose());
  auto s = make_strategy(c, space);
  const int D = space->dim();
  s->suggest(X.topRows(n - 1), y.head(n - 1), Mat(0, D), n - 1);
  double total = 0.0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    s->suggest(X.topRows(n + r), y.head(n + r), Mat(0, D), n + r);
    total += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  return total / reps;
}

}  // namespace

std::vector<std::string> structure_problem_names() {
  return {"facility", "covering", "kmeans-seeds", "perm-offcentre", "signflip-offcentre", "control-hartmann6"};
}

std::vector<std::string> structure_method_names() {
  std::vector<std::string> out = kSetMethods;
  for (const auto& m : kGroupMethods)
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  return out;
}

nlohmann::json run_structure_bench(const StructureBenchOptions& o, bool verbose) {
  const std::vector<std::string> names = o.problems.empty() ? structure_problem_names() : o.problems;
  nlohmann::json out = nlohmann::json::object();
  out["options"] = {{"seeds", o.seeds},
                    {"n_init", o.n_init},
                    {"iters", o.iters},
                    {"timing_n", o.timing_n},
                    {"module_options", o.module_options}};
  if (o.beta) out["options"]["beta"] = *o.beta;
  out["machine"] = machine_description();
  nlohmann::json problems = nlohmann::json::object();
  for (const auto& name : names) {
    const StructureProblem p = make_structure_problem(name, o.data_dir);
    nlohmann::json pj = {{"description", p.description}, {"methods", nlohmann::json::object()}};
    for (const auto& method : p.methods) {
      if (!o.methods.empty() && std::find(o.methods.begin(), o.methods.end(), method) == o.methods.end()) continue;
      nlohmann::json mj = {{"final", nlohmann::json::array()}, {"curves", nlohmann::json::array()}};
      std::vector<double> secs;
      std::map<std::string, int> choices;
      for (int seed : o.seeds) {
        const RunResult r = run_one(p, method, static_cast<std::uint64_t>(seed), o);
        mj["final"].push_back(r.best_so_far.back());
        mj["curves"].push_back(r.best_so_far);
        secs.insert(secs.end(), r.iter_seconds.begin(), r.iter_seconds.end());
        for (const auto& [k, v] : r.choices) choices[k] += v;
        if (verbose)
          std::cerr << name << " " << method << " seed " << seed << ": best " << r.best_so_far.back() << "\n";
      }
      double mean_s = 0.0;
      for (double s : secs) mean_s += s;
      mj["seconds_per_iter"] = secs.empty() ? 0.0 : mean_s / static_cast<double>(secs.size());
      mj["kernel_choice"] = choices;
      pj["methods"][method] = mj;
    }
    // Every method against the flat GP on the same seeds, when both ran: the comparison, with the
    // paired standard error that says whether ten seeds resolve it.
    if (pj["methods"].contains("flat"))
      for (auto& [method, mj] : pj["methods"].items()) {
        if (method == "flat") continue;
        const PairedDifference d = paired_difference(mj["final"].get<std::vector<double>>(),
                                                     pj["methods"]["flat"]["final"].get<std::vector<double>>());
        mj["vs_flat"] = {{"mean_difference", d.mean},
                         {"standard_error", d.standard_error},
                         {"better_seeds", d.better},
                         {"worse_seeds", d.worse}};
      }
    if (o.timing_n > 0) {
      nlohmann::json tj = nlohmann::json::object();
      for (const auto& method : p.methods) {
        if (method == "random") continue;
        if (!o.methods.empty() && std::find(o.methods.begin(), o.methods.end(), method) == o.methods.end()) continue;
        tj[method] = time_at_n(p, method, o.module_options, o.beta, o.timing_n, o.timing_reps);
        if (verbose) std::cerr << name << " " << method << " n=" << o.timing_n << ": " << tj[method] << " s\n";
      }
      pj["seconds_at_n"] = tj;
    }
    problems[name] = pj;
  }
  out["problems"] = problems;
  return out;
}

std::string write_structure_bench(const nlohmann::json& results, const std::string& dir) {
  std::ostringstream md;
  const auto& opts = results["options"];
  md << "Best value after " << opts["n_init"].get<int>() << " + " << opts["iters"].get<int>()
     << " evaluations (minimised), mean ± sd over " << opts["seeds"].size()
     << " seeds; s/iter = mean seconds per BO suggestion; auto: how often each kernel modelled; vs flat GP: the "
        "mean over seeds of (method − flat GP) ± its standard error, and the seeds on which the method ended "
        "better / worse (lower is better).\n\n";
  md << "Machine: " << machine_line(results.value("machine", nlohmann::json())) << ".\n\n";
  md << "| problem | method | best (mean ± sd) | median | s/iter | auto chose | vs flat GP |\n"
        "|---|---|---|---|---|---|---|\n";
  char buf[64];
  for (const auto& [name, pj] : results["problems"].items()) {
    std::vector<Series> series;
    for (const auto& [method, mj] : pj["methods"].items()) {
      std::vector<double> finals = mj["final"].get<std::vector<double>>();
      std::vector<double> sorted = finals;
      std::sort(sorted.begin(), sorted.end());
      const double med = sorted.empty() ? 0.0
                         : sorted.size() % 2 ? sorted[sorted.size() / 2]
                                             : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
      std::string choice;
      for (const auto& [k, v] : mj["kernel_choice"].items())
        choice += (choice.empty() ? "" : ", ") + k + " " + std::to_string(v.get<int>());
      std::snprintf(buf, sizeof buf, "%.4g", med);
      std::string med_s = buf;
      std::snprintf(buf, sizeof buf, "%.3f", mj["seconds_per_iter"].get<double>());
      md << "| " << name << " | " << method << " | " << fmt_mean_std(finals, 4) << " | " << med_s << " | " << buf
         << " | " << choice << " | "
         << (mj.contains("vs_flat") ? fmt_paired({mj["vs_flat"]["mean_difference"].get<double>(),
                                                  mj["vs_flat"]["standard_error"].get<double>(),
                                                  mj["vs_flat"]["better_seeds"].get<int>(),
                                                  mj["vs_flat"]["worse_seeds"].get<int>()})
                                     : std::string(method == "flat" ? "reference" : ""))
         << " |\n";
      // Mean best-so-far curve.
      const auto curves = mj["curves"];
      Series s;
      s.name = method;
      const std::size_t T = curves.empty() ? 0 : curves[0].size();
      for (std::size_t t = 0; t < T; ++t) {
        std::vector<double> v;
        for (const auto& c : curves) v.push_back(c[t].get<double>());
        const MeanStd ms = mean_std(v);
        s.x.push_back(static_cast<double>(t + 1));
        s.mean.push_back(ms.mean);
      }
      series.push_back(s);
    }
    write_line_plot_svg(dir + "/" + name + ".svg", name + ": mean best value", "evaluations", "best value", series);
  }
  bool timing = false;
  for (const auto& [name, pj] : results["problems"].items()) timing = timing || pj.contains("seconds_at_n");
  if (timing) {
    md << "\nSeconds per BO suggestion at n = " << opts["timing_n"].get<int>()
       << " observations (warm-started refit + acquisition):\n\n| problem | method | s |\n|---|---|---|\n";
    for (const auto& [name, pj] : results["problems"].items()) {
      if (!pj.contains("seconds_at_n")) continue;
      for (const auto& [method, v] : pj["seconds_at_n"].items()) {
        std::snprintf(buf, sizeof buf, "%.3f", v.get<double>());
        md << "| " << name << " | " << method << " | " << buf << " |\n";
      }
    }
  }
  return md.str();
}

}  // namespace kbo::bench
