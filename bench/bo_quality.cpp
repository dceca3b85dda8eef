// BO quality benchmark: GP-UCB (kbo defaults) vs random search, best value after n_init + iters.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "bo_bench.hpp"
#include "kbo/bo_strategy.hpp"
#include "kbo/problems.hpp"
#include "kbo/strategy_factory.hpp"
#include "report.hpp"

namespace kbo::bench {

namespace {
using Clock = std::chrono::steady_clock;

struct Run {
  std::vector<double> best_so_far;  // after each evaluation
  std::vector<double> iter_seconds; // BO iterations only
};

Run run_one(const Problem& p, const std::string& strategy, std::uint64_t seed, int n_init, int iters) {
  StrategyConfig c;
  c.strategy = strategy;
  c.seed = seed;
  c.n_init = n_init;
  auto space = std::make_shared<BoxSpace>(p.bounds);
  auto s = make_strategy(c, space);
  const int D = space->dim(), total = n_init + iters;
  Mat X(0, D);
  Vec y(0);
  Run r;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < total; ++i) {
    const auto t0 = Clock::now();
    const Vec x = s->suggest(X, y, Mat(0, D), i);
    if (i >= n_init) r.iter_seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    const double f = p.f(x);
    best = std::min(best, f);
    r.best_so_far.push_back(best);
    X.conservativeResize(X.rows() + 1, Eigen::NoChange);
    X.row(X.rows() - 1) = x.transpose();
    y.conservativeResize(y.size() + 1);
    y(y.size() - 1) = -f;  // strategies maximise
  }
  return r;
}
}  // namespace

nlohmann::json run_bo_quality(const BoQualityOptions& o, bool verbose) {
  nlohmann::json out;
  out["n_init"] = o.n_init;
  out["iters"] = o.iters;
  out["seeds"] = o.seeds;
  for (const auto& name : o.problems) {
    const Problem p = make_problem(name, name == "branin" ? 2 : 6);
    nlohmann::json jp;
    jp["optimum"] = p.optimum;
    jp["dim"] = p.bounds.dim();
    for (const std::string method : {"gpucb", "random"}) {
      nlohmann::json jm = {{"curves", nlohmann::json::array()}, {"final", nlohmann::json::array()},
                           {"iter_seconds", nlohmann::json::array()}};
      for (int seed = 0; seed < o.seeds; ++seed) {
        const Run r = run_one(p, method, static_cast<std::uint64_t>(seed), o.n_init, o.iters);
        jm["curves"].push_back(r.best_so_far);
        jm["final"].push_back(r.best_so_far.back());
        double mean_t = 0;
        for (double t : r.iter_seconds) mean_t += t / r.iter_seconds.size();
        jm["iter_seconds"].push_back(mean_t);
        if (verbose) std::fprintf(stderr, "%s %s seed %d: best %.4g (%.3f s/iter)\n", name.c_str(), method.c_str(), seed,
                                  r.best_so_far.back(), mean_t);
      }
      jp[method] = jm;
    }
    out["problems"][name] = jp;
  }
  return out;
}

std::string write_bo_quality(const nlohmann::json& res, const std::string& dir) {
  write_text(dir + "/quality.json", res.dump(1));
  std::ostringstream md;
  md << "| problem | optimum | kbo GP-UCB best (mean ± std) | random search best | kbo s/iteration (mean over seeds) |\n"
     << "|---|---|---|---|---|\n";
  for (const auto& [name, jp] : res["problems"].items()) {
    std::vector<Series> series;
    for (const std::string method : {"gpucb", "random"}) {
      const auto& curves = jp[method]["curves"];
      Series s;
      s.name = method == "gpucb" ? "kbo GP-UCB" : "random search";
      const size_t T = curves[0].size();
      for (size_t t = 0; t < T; ++t) {
        std::vector<double> v;
        for (const auto& c : curves) v.push_back(c[t].get<double>());
        const MeanStd ms = mean_std(v);
        s.x.push_back(static_cast<double>(t + 1));
        s.mean.push_back(ms.mean);
        s.std.push_back(ms.std);
      }
      series.push_back(s);
    }
    write_line_plot_svg(dir + "/quality_" + name + ".svg", name + ": best value so far (mean ± std, " +
                            std::to_string(res["seeds"].get<int>()) + " seeds)",
                        "evaluations", "best value", series);
    const auto finals = [&](const char* m) { return jp[m]["final"].get<std::vector<double>>(); };
    md << "| " << name << " | " << jp["optimum"].get<double>() << " | " << fmt_mean_std(finals("gpucb"), 3) << " | "
       << fmt_mean_std(finals("random"), 3) << " | " << fmt_mean_std(jp["gpucb"]["iter_seconds"].get<std::vector<double>>(), 3)
       << " |\n";
  }
  return md.str();
}

}  // namespace kbo::bench
