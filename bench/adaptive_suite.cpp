// Runner of `kbo bench adaptive-suite` (see adaptive_suite.hpp). Every method is built exactly as
// `kbo optimize --strategy NAME --seed S` builds it: a default StrategyConfig naming the strategy, over a
// box space; the loop minimises (strategies maximise −f).
#include "adaptive_suite.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/registry.hpp"
#include "report.hpp"
#include "short_budget_problems.hpp"

namespace kbo::bench {
namespace {

using Clock = std::chrono::steady_clock;

double gauss_bump(const Vec& x, const Vec& c, double width) {
  return std::exp(-0.5 * (x - c).squaredNorm() / (width * width));
}

// f*, f_local by a dense grid (1-d: 200001 points; 2-d: 1001²) refined by coordinate-wise golden
// sections around the best grid point (the functions are smooth).
void fill_optima(NarrowProblem& p, double narrow_width) {
  const int n = p.dim == 1 ? 200000 : 1000;
  double best = std::numeric_limits<double>::infinity(), local = best;
  Vec best_x(p.dim), x(p.dim);
  const long total = p.dim == 1 ? n + 1 : static_cast<long>(n + 1) * (n + 1);
  for (long k = 0; k < total; ++k) {
    x[0] = static_cast<double>(k % (n + 1)) / n;
    if (p.dim == 2) x[1] = static_cast<double>(k / (n + 1)) / n;
    const double v = p.f(x);
    if (v < best) best = v, best_x = x;
    if ((x - p.narrow_centre).norm() > 4.0 * narrow_width) local = std::min(local, v);
  }
  for (int sweep = 0; sweep < 4; ++sweep)
    for (int i = 0; i < p.dim; ++i) {
      double a = std::max(0.0, best_x[i] - 2.0 / n), b = std::min(1.0, best_x[i] + 2.0 / n);
      const double r = 0.5 * (std::sqrt(5.0) - 1.0);
      for (int it = 0; it < 80; ++it) {
        Vec c = best_x, d = best_x;
        c[i] = b - r * (b - a);
        d[i] = a + r * (b - a);
        if (p.f(c) < p.f(d)) b = d[i]; else a = c[i];
      }
      Vec m = best_x;
      m[i] = 0.5 * (a + b);
      if (p.f(m) < p.f(best_x)) best_x = m;
    }
  p.f_star = p.f(best_x);
  p.x_star = best_x;
  p.f_local = local;
}

NarrowProblem make_narrow(std::string name, std::string formula, int dim, std::function<double(const Vec&)> f,
                          Vec centre, double width) {
  NarrowProblem p;
  p.name = std::move(name);
  p.formula = std::move(formula);
  p.dim = dim;
  p.f = std::move(f);
  p.narrow_centre = std::move(centre);
  p.width = width;
  fill_optima(p, width);
  return p;
}

Vec v1(double a) { return Vec::Constant(1, a); }
Vec v2(double a, double b) {
  Vec v(2);
  v << a, b;
  return v;
}

struct RunResult {
  std::vector<double> f;  // value of each evaluation
  std::vector<Vec> x;     // the evaluated points
  nlohmann::json trace = nlohmann::json::array();  // last_info() of each suggestion
  double seconds = 0.0;   // suggestion time, all steps
};

RunResult run(const std::string& method, const nlohmann::json& agpucb_options, const Box& box,
              const std::function<double(const Vec&)>& f, int evaluations, int seed) {
  StrategyConfig c;
  c.strategy = method;
  c.seed = static_cast<std::uint64_t>(seed);
  if (method == "agpucb" && !agpucb_options.is_null()) c.module_options["agpucb"] = agpucb_options;
  auto space = std::make_shared<BoxSpace>(box);
  auto s = make_strategy(c, space);
  const int D = box.dim();
  Mat X(0, D);
  Vec y(0);
  RunResult r;
  for (int i = 0; i < evaluations; ++i) {
    const auto t0 = Clock::now();
    const Vec x = s->suggest(X, y, Mat(0, D), i);
    r.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    r.trace.push_back(s->last_info());
    const double v = f(x);
    r.f.push_back(v);
    r.x.push_back(x);
    X.conservativeResize(i + 1, D);
    X.row(i) = x.transpose();
    y.conservativeResize(i + 1);
    y[i] = -v;
  }
  return r;
}

bool wanted(const AdaptiveSuiteOptions& o, const std::string& name) {
  return o.problems.empty() || std::find(o.problems.begin(), o.problems.end(), name) != o.problems.end();
}


}  // namespace

std::vector<NarrowProblem> narrow_problems() {
  std::vector<NarrowProblem> out;
  out.push_back(make_narrow(
      "well-1d", "-exp(-(x-0.75)^2/(2·0.15^2)) - 1.4 exp(-(x-0.15)^2/(2·0.025^2))", 1,
      [](const Vec& x) { return -gauss_bump(x, v1(0.75), 0.15) - 1.4 * gauss_bump(x, v1(0.15), 0.025); }, v1(0.15),
      0.025));
  out.push_back(make_narrow(
      "bowl-1d", "1000·(2(x-0.85)^2 - 1.3 exp(-(x-0.37)^2/(2·0.02^2))) + 2500", 1,
      [](const Vec& x) {
        return 1000.0 * (2.0 * (x[0] - 0.85) * (x[0] - 0.85) - 1.3 * gauss_bump(x, v1(0.37), 0.02)) + 2500.0;
      },
      v1(0.37), 0.02));
  out.push_back(make_narrow(
      "wells-2d", "-exp(-|x-(0.7,0.3)|^2/(2·0.25^2)) - 1.5 exp(-|x-(0.2,0.8)|^2/(2·0.08^2))", 2,
      [](const Vec& x) { return -gauss_bump(x, v2(0.7, 0.3), 0.25) - 1.5 * gauss_bump(x, v2(0.2, 0.8), 0.08); },
      v2(0.2, 0.8), 0.08));
  out.push_back(make_narrow(
      "bowl-2d", "2|x-(0.6,0.6)|^2 - 1 - 1.6 exp(-|x-(0.15,0.3)|^2/(2·0.07^2))", 2,
      [](const Vec& x) { return 2.0 * (x - v2(0.6, 0.6)).squaredNorm() - 1.0 - 1.6 * gauss_bump(x, v2(0.15, 0.3), 0.07); },
      v2(0.15, 0.3), 0.07));
  return out;
}

nlohmann::json run_adaptive_suite(const AdaptiveSuiteOptions& o, bool verbose) {
  if (o.seeds.empty()) throw InputError("bench adaptive-suite: no seeds");
  if (o.budget < 6 || o.iters < 1) throw InputError("bench adaptive-suite: need --budget >= 6 and --iters >= 1");
  for (const auto& m : o.methods) strategies().get(m);  // InputError listing the strategies
  for (const auto& part : o.parts)
    if (part != "narrow" && part != "standard" && part != "short" && part != "heldout")
      throw InputError("bench adaptive-suite: unknown part '" + part + "' (allowed: narrow, standard, short, heldout)");
  nlohmann::json out;
  out["seeds"] = o.seeds;
  out["methods"] = o.methods;
  out["budget"] = o.budget;
  out["iters"] = o.iters;
  out["agpucb_options"] = o.agpucb_options;
  const bool narrow = std::find(o.parts.begin(), o.parts.end(), "narrow") != o.parts.end();
  const bool standard = std::find(o.parts.begin(), o.parts.end(), "standard") != o.parts.end();
  if (narrow)
    for (const NarrowProblem& p : narrow_problems()) {
      if (!wanted(o, p.name)) continue;
      nlohmann::json jp = {{"formula", p.formula}, {"dim", p.dim}, {"f_star", p.f_star}, {"f_local", p.f_local},
                           {"x_star", std::vector<double>(p.x_star.data(), p.x_star.data() + p.dim)},
                           {"found_radius", p.width}};
      for (const auto& m : o.methods) {
        nlohmann::json jm = {{"found", 0}, {"found_at", nlohmann::json::array()}, {"cum_regret", nlohmann::json::array()},
                             {"simple_regret", nlohmann::json::array()}, {"seconds", nlohmann::json::array()}};
        int found = 0;
        for (int seed : o.seeds) {
          const RunResult r = run(m, o.agpucb_options, Box::unit(p.dim), p.f, o.budget, seed);
          double cum = 0.0, best = std::numeric_limits<double>::infinity();
          int at = -1;
          for (size_t t = 0; t < r.f.size(); ++t) {
            cum += r.f[t] - p.f_star;
            best = std::min(best, r.f[t]);
            if (at < 0 && p.found(r.f[t])) at = static_cast<int>(t) + 1;
          }
          found += at > 0;
          jm["found_at"].push_back(at);
          jm["cum_regret"].push_back(cum);
          jm["simple_regret"].push_back(best - p.f_star);
          jm["seconds"].push_back(r.seconds);
          if (o.trace) jm["trace"].push_back(r.trace);
          if (verbose)
            std::fprintf(stderr, "adaptive-suite %s %s seed %d: found at %d, cumulative regret %.4g (%.1f s)\n",
                         p.name.c_str(), m.c_str(), seed, at, cum, r.seconds);
        }
        jm["found"] = found;
        jp[m] = jm;
      }
      out["narrow"][p.name] = jp;
    }
  if (standard)
    for (const std::string name : {"branin", "hartmann6", "ackley-shifted"}) {
      if (!wanted(o, name)) continue;
      const Problem p = make_problem(name, name == std::string("branin") ? 2 : 6);
      nlohmann::json jp = {{"optimum", p.optimum}, {"dim", p.bounds.dim()}};
      for (const auto& m : o.methods) {
        nlohmann::json jm = {{"final", nlohmann::json::array()}, {"seconds", nlohmann::json::array()}};
        for (int seed : o.seeds) {
          const RunResult r = run(m, o.agpucb_options, p.bounds, p.f, 5 + o.iters, seed);
          const double best = *std::min_element(r.f.begin(), r.f.end());
          jm["final"].push_back(best);
          jm["seconds"].push_back(r.seconds);
          if (verbose)
            std::fprintf(stderr, "adaptive-suite %s %s seed %d: best %.4g (%.1f s)\n", name.c_str(), m.c_str(), seed, best,
                         r.seconds);
        }
        jp[m] = jm;
      }
      out["standard"][name] = jp;
    }
  // Short budgets: 6·d evaluations (5 Sobol points included) on the selection ("short") or held-out set.
  for (const std::string set : {"short", "heldout"}) {
    if (std::find(o.parts.begin(), o.parts.end(), set) == o.parts.end()) continue;
    for (const Problem& p : short_budget_problems(set)) {
      if (!wanted(o, p.name)) continue;
      const int evaluations = 6 * p.bounds.dim();
      nlohmann::json jp = {{"optimum", p.optimum}, {"dim", p.bounds.dim()}, {"evaluations", evaluations}};
      for (const auto& m : o.methods) {
        nlohmann::json jm = {{"final", nlohmann::json::array()}};
        for (int seed : o.seeds) {
          const RunResult r = run(m, o.agpucb_options, p.bounds, p.f, evaluations, seed);
          const double best = *std::min_element(r.f.begin(), r.f.end());
          jm["final"].push_back(best);
          if (verbose)
            std::fprintf(stderr, "adaptive-suite %s %s seed %d: best %.4g\n", p.name.c_str(), m.c_str(), seed, best);
        }
        jp[m] = jm;
      }
      out[set][p.name] = jp;
    }
  }
  return out;
}

std::string write_adaptive_suite(const nlohmann::json& res, const std::string& dir) {
  write_text(dir + "/suite.json", res.dump(1));
  const auto methods = res["methods"].get<std::vector<std::string>>();
  const size_t nseeds = res["seeds"].size();
  std::ostringstream md;
  if (res.contains("narrow")) {
    md << "Narrow global, broad local minimum: seeds (of " << nseeds << ") with an evaluation better than the broad local minimum (f < f local) within "
       << res["budget"].get<int>() << " evaluations (first evaluation that did, median), and the cumulative regret "
       << "Σ (f(x_t) − f*) over them (mean ± std).\n\n| function | f* | f local |";
    for (const auto& m : methods) md << " " << m << " found | " << m << " cum. regret |";
    md << "\n|---|---|---|";
    for (size_t i = 0; i < methods.size(); ++i) md << "---|---|";
    md << "\n";
    for (const auto& [name, jp] : res["narrow"].items()) {
      md << "| " << name << " | " << fmt_fixed(jp["f_star"].get<double>(), 4) << " | " << fmt_fixed(jp["f_local"].get<double>(), 4)
         << " |";
      for (const auto& m : methods) {
        std::vector<double> at;
        for (const auto& a : jp[m]["found_at"])
          if (a.get<int>() > 0) at.push_back(a.get<int>());
        std::sort(at.begin(), at.end());
        md << " " << jp[m]["found"].get<int>() << "/" << nseeds;
        if (!at.empty()) md << " (at " << fmt_fixed(at[at.size() / 2], 0) << ")";
        md << " | " << fmt_mean_std(jp[m]["cum_regret"].get<std::vector<double>>(), 3) << " |";
      }
      md << "\n";
    }
    md << "\n";
  }
  if (res.contains("standard")) {
    md << "Standard problems, best value after 5 + " << res["iters"].get<int>() << " evaluations (mean ± std over "
       << nseeds << " seeds; lower is better) and seconds per run.\n\n| problem | optimum |";
    for (const auto& m : methods) md << " " << m << " |";
    md << " agpucb − gpucb (mean) | agpucb s/run |\n|---|---|";
    for (size_t i = 0; i < methods.size(); ++i) md << "---|";
    md << "---|---|\n";
    for (const auto& [name, jp] : res["standard"].items()) {
      md << "| " << name << " | " << fmt_fixed(jp["optimum"].get<double>(), 3) << " |";
      for (const auto& m : methods) md << " " << fmt_mean_std(jp[m]["final"].get<std::vector<double>>(), 3) << " |";
      if (jp.contains("agpucb") && jp.contains("gpucb")) {
        const double gap = mean_std(jp["agpucb"]["final"].get<std::vector<double>>()).mean -
                           mean_std(jp["gpucb"]["final"].get<std::vector<double>>()).mean;
        md << " " << fmt_fixed(gap, 3) << " | "
           << fmt_fixed(mean_std(jp["agpucb"]["seconds"].get<std::vector<double>>()).mean, 1) << " |";
      } else {
        md << " – | – |";
      }
      md << "\n";
    }
  }
  for (const std::string set : {"short", "heldout"}) {
    if (!res.contains(set)) continue;
    md << "\n" << (set == "short" ? "Selection problems" : "Held-out problems")
       << " at 6·d evaluations (5 initial included): best value, mean ± standard error over " << nseeds
       << " seeds; random search's median; seeds on which each method's best is below random search's median.\n\n"
       << "| problem | d | evaluations | optimum |";
    for (const auto& m : methods) md << " " << m << " (mean ± se) | " << m << " < random median |";
    md << " random median |\n|---|---|---|---|";
    for (size_t i = 0; i < methods.size(); ++i) md << "---|---|";
    md << "---|\n";
    for (const auto& [name, jp] : res[set].items()) {
      double random_median = std::nan("");
      if (jp.contains("random")) {
        auto v = jp["random"]["final"].get<std::vector<double>>();
        std::sort(v.begin(), v.end());
        random_median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
      }
      md << "| " << name << " | " << jp["dim"].get<int>() << " | " << jp["evaluations"].get<int>() << " | "
         << fmt_fixed(jp["optimum"].get<double>(), 3) << " |";
      for (const auto& m : methods) {
        const auto v = jp[m]["final"].get<std::vector<double>>();
        const MeanStd ms = mean_std(v);
        int below = 0;
        for (double x : v) below += x < random_median;
        md << " " << fmt_fixed(ms.mean, 3) << " ± " << fmt_fixed(ms.std / std::sqrt(static_cast<double>(v.size())), 3)
           << " | " << below << "/" << v.size() << " |";
      }
      md << " " << fmt_fixed(random_median, 3) << " |\n";
    }
  }
  return md.str();
}

}  // namespace kbo::bench
