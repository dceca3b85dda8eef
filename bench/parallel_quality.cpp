// Quality cost of parallelism: best value after a fixed number of evaluations with q simulated workers.
#include <cstdio>
#include <sstream>

#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/registry.hpp"
#include "observations.hpp"
#include "parallel_bench.hpp"
#include "report.hpp"

namespace kbo::bench {

namespace {

/// One run: the design (n_init points) is evaluated first, then batches of q suggestions, each asked with
/// the batch's earlier points pending; the batch is evaluated together. Returns best-so-far per evaluation.
std::vector<double> run_one(const Problem& p, const ParallelOptions& o, int q, std::uint64_t seed) {
  StrategyConfig c;
  c.seed = seed;
  c.n_init = o.n_init;
  c.fantasy = parse_fantasy_mode(o.fantasy);
  auto space = std::make_shared<BoxSpace>(p.bounds);
  auto s = make_strategy(c, space);
  const int D = space->dim();
  Mat X(0, D);
  Vec y(0);
  std::vector<double> best_so_far;
  double best = std::numeric_limits<double>::infinity();
  int index = 0;
  auto tell = [&](const Mat& batch) {
    for (Eigen::Index i = 0; i < batch.rows(); ++i) {
      const double f = p.f(batch.row(i).transpose());
      best = std::min(best, f);
      best_so_far.push_back(best);
      append_observation(X, y, batch.row(i).transpose(), f);
    }
  };
  Mat design(o.n_init, D);
  for (int i = 0; i < o.n_init; ++i) design.row(i) = s->suggest(X, y, Mat(0, D), index++).transpose();
  tell(design);
  while (index < o.evaluations) {
    const int b = std::min(q, o.evaluations - index);
    Mat pending(0, D);
    for (int k = 0; k < b; ++k) {
      const Vec x = s->suggest(X, y, pending, index++);
      pending.conservativeResize(pending.rows() + 1, Eigen::NoChange);
      pending.row(pending.rows() - 1) = x.transpose();
    }
    tell(pending);
  }
  return best_so_far;
}

}  // namespace

nlohmann::json run_parallel_quality(const ParallelOptions& o, bool verbose) {
  nlohmann::json out = {{"n_init", o.n_init}, {"evaluations", o.evaluations}, {"seeds", o.seeds},
                        {"fantasy", o.fantasy}, {"workers", o.workers}};
  for (const auto& name : o.problems) {
    const Problem p = make_problem(name, name == "branin" ? 2 : 6);
    nlohmann::json jp = {{"optimum", p.optimum}, {"dim", p.bounds.dim()}};
    for (int q : o.workers) {
      nlohmann::json jq = {{"curves", nlohmann::json::array()}, {"final", nlohmann::json::array()}};
      for (int seed = 0; seed < o.seeds; ++seed) {
        const auto curve = run_one(p, o, q, static_cast<std::uint64_t>(seed));
        jq["curves"].push_back(curve);
        jq["final"].push_back(curve.back());
        if (verbose) std::fprintf(stderr, "%s q=%d seed %d: best %.4g\n", name.c_str(), q, seed, curve.back());
      }
      jp["q" + std::to_string(q)] = jq;
    }
    out["problems"][name] = jp;
  }
  return out;
}

std::string write_parallel_quality(const nlohmann::json& res, const std::string& dir) {
  write_text(dir + "/quality.json", res.dump(1));
  const auto workers = res["workers"].get<std::vector<int>>();
  std::ostringstream md;
  md << "| problem | optimum |";
  for (int q : workers) md << (q == 1 ? " sequential (q = 1) |" : " q = " + std::to_string(q) + " workers |");
  md << "\n|---|---|";
  for (size_t i = 0; i < workers.size(); ++i) md << "---|";
  md << "\n";
  for (const auto& [name, jp] : res["problems"].items()) {
    std::vector<Series> series;
    md << "| " << name << " | " << jp["optimum"].get<double>() << " |";
    for (int q : workers) {
      const auto& jq = jp["q" + std::to_string(q)];
      md << " " << fmt_mean_std(jq["final"].get<std::vector<double>>(), 3) << " |";
      Series s;
      s.name = q == 1 ? "sequential" : std::to_string(q) + " workers";
      const auto& curves = jq["curves"];
      for (size_t t = 0; t < curves[0].size(); ++t) {
        std::vector<double> v;
        for (const auto& c : curves) v.push_back(c[t].get<double>());
        const MeanStd ms = mean_std(v);
        s.x.push_back(static_cast<double>(t + 1));
        s.mean.push_back(ms.mean);
        s.std.push_back(ms.std);
      }
      series.push_back(s);
    }
    md << "\n";
    write_line_plot_svg(dir + "/quality_" + name + ".svg",
                        name + ": best value so far with q parallel workers (mean ± std, " +
                            std::to_string(res["seeds"].get<int>()) + " seeds)",
                        "evaluations", "best value", series);
  }
  return md.str();
}

}  // namespace kbo::bench
