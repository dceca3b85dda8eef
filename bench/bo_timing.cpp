// Time per BO iteration as n grows: refit (warm start + restarts) + acquisition maximisation.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "bo_bench.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/optimize/problems.hpp"
#include "observations.hpp"
#include "report.hpp"

namespace kbo::bench {

namespace {
using Clock = std::chrono::steady_clock;
double cpu_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return r.ru_utime.tv_sec + 1e-6 * r.ru_utime.tv_usec + r.ru_stime.tv_sec + 1e-6 * r.ru_stime.tv_usec;
}
}  // namespace

nlohmann::json run_bo_timing(const BoTimingOptions& o, bool verbose) {
  const Problem p = make_problem("ackley-shifted", o.dim);
  auto space = std::make_shared<BoxSpace>(p.bounds);
  nlohmann::json out = {{"dim", o.dim}, {"reps", o.reps}, {"sizes", nlohmann::json::array()}};
  for (int n : o.sizes) {
    Rng rng = make_rng(1000 + static_cast<std::uint64_t>(n));
    Mat X = space->sample(n, SamplingMethod::Uniform, rng);
    Vec y(n);
    for (int i = 0; i < n; ++i) y(i) = -p.f(X.row(i).transpose());
    StrategyConfig c;
    c.seed = 1;
    c.n_init = 1;  // past the design from the first call
    if (o.fit_restarts >= 0) c.fit_restarts = o.fit_restarts;
    if (o.raw_samples >= 0) c.acq_optimizer.raw_samples = o.raw_samples;
    if (o.num_starts >= 0) c.acq_optimizer.num_starts = o.num_starts;
    c.module_options["bo"] = o.bo_options.is_object() ? o.bo_options : nlohmann::json::object();
    // This figure is the cost of a full refit at every iteration (the incremental schedule of
    // docs/bench/scale.md would make most iterations skip it): unless --bo sets the schedule.
    if (!c.module_options["bo"].contains("full_refit_below")) c.module_options["bo"]["full_refit_below"] = 1000000000;
    BOStrategy s(c, space);
    s.suggest(X, y, Mat(0, o.dim), n);  // cold fit from the initial hyperparameters (not timed)
    std::vector<double> wall, cpu, fit, acq;
    for (int r = 0; r < o.reps; ++r) {
      const Vec x = s.suggest(X, y, Mat(0, o.dim), n);  // measured below; X grows by one point each time
      (void)x;
      // Time a fresh iteration on the grown data (each iteration refits: warm start + restarts).
      append_observation(X, y, x, p.f(x));
      const auto t0 = Clock::now();
      const double c0 = cpu_seconds();
      s.suggest(X, y, Mat(0, o.dim), static_cast<int>(X.rows()));
      wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      cpu.push_back(cpu_seconds() - c0);
      fit.push_back(s.last_info()["fit_seconds"].get<double>());
      acq.push_back(s.last_info()["acq_seconds"].get<double>());
    }
    const auto w = mean_std(wall), cp = mean_std(cpu), f = mean_std(fit), a = mean_std(acq);
    out["sizes"].push_back({{"n", n}, {"wall", w.mean}, {"wall_std", w.std}, {"cpu", cp.mean}, {"fit", f.mean}, {"acq", a.mean}});
    if (verbose) std::fprintf(stderr, "n=%d: %.4f s/iteration (cpu %.4f, fit %.4f, acq %.4f)\n", n, w.mean, cp.mean, f.mean, a.mean);
  }
  return out;
}

std::string write_bo_timing(const nlohmann::json& res, const std::string& dir) {
  write_text(dir + "/timing.json", res.dump(1));
  Series wall{"wall time per iteration", {}, {}, {}}, fit{"hyperparameter refit", {}, {}, {}},
      acq{"acquisition maximisation", {}, {}, {}};
  std::ostringstream md;
  md << "| n | wall s/iteration | CPU s/iteration (all threads) | refit s | acquisition s |\n|---|---|---|---|---|\n";
  char line[256];
  for (const auto& e : res["sizes"]) {
    const double n = e["n"].get<double>();
    wall.x.push_back(n), wall.mean.push_back(e["wall"]), wall.std.push_back(e["wall_std"]);
    fit.x.push_back(n), fit.mean.push_back(e["fit"]);
    acq.x.push_back(n), acq.mean.push_back(e["acq"]);
    std::snprintf(line, sizeof line, "| %d | %.4f ± %.4f | %.4f | %.4f | %.4f |\n", e["n"].get<int>(), e["wall"].get<double>(),
                  e["wall_std"].get<double>(), e["cpu"].get<double>(), e["fit"].get<double>(), e["acq"].get<double>());
    md << line;
  }
  write_line_plot_svg(dir + "/timing.svg", "Time per BO iteration (d = " + std::to_string(res["dim"].get<int>()) +
                          ", refit every iteration)", "observations n", "seconds", {wall, fit, acq}, true);
  return md.str();
}

}  // namespace kbo::bench
