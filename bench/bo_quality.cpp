// BO quality benchmark: GP-UCB (kbo defaults, or a variant) vs random search, best value after
// n_init + iters evaluations.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "bo_bench.hpp"
#include "kbo/core/error.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/strategy/registry.hpp"
#include "observations.hpp"
#include "report.hpp"

namespace kbo::bench {

namespace {
using Clock = std::chrono::steady_clock;

struct Run {
  std::vector<double> best_so_far;  // after each evaluation
  std::vector<double> iter_seconds; // BO iterations only
  nlohmann::json trace = nlohmann::json::array();  // last_info() of each BO iteration (if asked)
};

StrategyConfig strategy_config(const BoQualityOptions& o, const std::string& method, std::uint64_t seed) {
  StrategyConfig c;
  c.strategy = method;
  c.seed = seed;
  c.n_init = o.n_init;
  if (method == "gpucb") {
    if (o.fit_restarts >= 0) c.fit_restarts = o.fit_restarts;
    if (o.raw_samples >= 0) c.acq_optimizer.raw_samples = o.raw_samples;
    if (o.num_starts >= 0) c.acq_optimizer.num_starts = o.num_starts;
    if (!o.bo_options.empty()) c.module_options["bo"] = o.bo_options;
    if (!o.kernel.empty()) c.kernel = o.kernel;
  }
  return c;
}

Run run_one(const Problem& p, const StrategyConfig& c, int iters, bool trace) {
  auto space = std::make_shared<BoxSpace>(p.bounds);
  auto s = make_strategy(c, space);
  const int D = space->dim(), total = c.n_init + iters;
  // The budget is known, as in `kbo optimize`: the end-game options (options.bo endgame_fraction) apply.
  s->set_budget(total);
  Mat X(0, D);
  Vec y(0);
  Run r;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < total; ++i) {
    const auto t0 = Clock::now();
    const Vec x = s->suggest(X, y, Mat(0, D), i);
    if (i >= c.n_init) r.iter_seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    const double f = p.f(x);
    if (trace && i >= c.n_init) {
      nlohmann::json info = s->last_info();
      info["x"] = std::vector<double>(x.data(), x.data() + x.size());
      info["value"] = f;
      r.trace.push_back(info);
    }
    best = std::min(best, f);
    r.best_so_far.push_back(best);
    append_observation(X, y, x, f);
  }
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace

std::vector<int> parse_seed_list(const std::string& text) {
  auto bad = [&]() {
    return InputError("--seeds '" + text + "': expected N (seeds 0..N-1), A-B (A..B) or a comma-separated list of "
                      "seeds and ranges, seeds >= 0");
  };
  auto to_int = [&](const std::string& s) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 9) throw bad();
    return std::stoi(s);
  };
  std::vector<int> seeds;
  if (text.find_first_of(",-") == std::string::npos) {
    const int n = to_int(text);
    if (n < 1) throw bad();
    for (int i = 0; i < n; ++i) seeds.push_back(i);
    return seeds;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto dash = item.find('-');
    if (dash == std::string::npos) {
      seeds.push_back(to_int(item));
    } else {
      const int a = to_int(item.substr(0, dash)), b = to_int(item.substr(dash + 1));
      if (b < a) throw bad();
      for (int i = a; i <= b; ++i) seeds.push_back(i);
    }
  }
  if (seeds.empty() || text.back() == ',') throw bad();
  return seeds;
}

nlohmann::json run_bo_quality(const BoQualityOptions& o, bool verbose) {
  if (o.seeds.empty()) throw InputError("bench bo: no seeds");
  for (const auto& m : o.methods)
    if (m != "gpucb" && m != "random") throw InputError("bench bo: unknown method '" + m + "' (allowed: gpucb, random)");
  nlohmann::json out;
  out["n_init"] = o.n_init;
  out["iters"] = o.iters;
  out["seeds"] = o.seeds;
  out["methods"] = o.methods;
  {
    // The gpucb configuration actually used (defaults filled in), so a JSON file names its variant.
    const StrategyConfig c = strategy_config(o, "gpucb", 0);
    out["gpucb_config"] = {{"fit_restarts", c.fit_restarts},
                           {"raw_samples", c.acq_optimizer.raw_samples},
                           {"num_starts", c.acq_optimizer.num_starts},
                           {"beta", c.beta},
                           {"bo", BOModelOptions::from_json(c.module_options.value("bo", nlohmann::json())).to_json()}};
  }
  for (const auto& name : o.problems) {
    const Problem p = make_problem(name, name == "branin" ? 2 : 6);
    nlohmann::json jp;
    jp["optimum"] = p.optimum;
    jp["dim"] = p.bounds.dim();
    for (const std::string& method : o.methods) {
      nlohmann::json jm = {{"curves", nlohmann::json::array()}, {"final", nlohmann::json::array()},
                           {"iter_seconds", nlohmann::json::array()}};
      for (int seed : o.seeds) {
        const StrategyConfig c = strategy_config(o, method, static_cast<std::uint64_t>(seed));
        const Run r = run_one(p, c, o.iters, o.trace && method == "gpucb");
        jm["curves"].push_back(r.best_so_far);
        jm["final"].push_back(r.best_so_far.back());
        double mean_t = 0;
        for (double t : r.iter_seconds) mean_t += t / r.iter_seconds.size();
        jm["iter_seconds"].push_back(mean_t);
        if (o.trace && method == "gpucb") jm["trace"].push_back(r.trace);
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
  const auto seeds = res["seeds"].get<std::vector<int>>();
  const auto methods = res["methods"].get<std::vector<std::string>>();
  const bool has_random = std::find(methods.begin(), methods.end(), "random") != methods.end();
  const bool has_gpucb = std::find(methods.begin(), methods.end(), "gpucb") != methods.end();
  const std::string seed_text = std::to_string(seeds.size()) + " seeds " +
                                (seeds.size() == 1 ? std::to_string(seeds[0])
                                                   : std::to_string(seeds.front()) + "…" + std::to_string(seeds.back()));
  std::ostringstream md, per_seed;
  md << "| problem | optimum | kbo GP-UCB best (mean ± std) | median | random search best | kbo s/iteration (mean over seeds) |\n"
     << "|---|---|---|---|---|---|\n";
  for (const auto& [name, jp] : res["problems"].items()) {
    std::vector<Series> series;
    for (const std::string& method : methods) {
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
    write_line_plot_svg(dir + "/quality_" + name + ".svg", name + ": best value so far (mean ± std, " + seed_text + ")",
                        "evaluations", "best value", series);
    const auto finals = [&](const char* m) { return jp[m]["final"].get<std::vector<double>>(); };
    char med[64] = "–";
    md << "| " << name << " | " << jp["optimum"].get<double>() << " | ";
    if (has_gpucb) {
      std::snprintf(med, sizeof med, "%.3f", median(finals("gpucb")));
      md << fmt_mean_std(finals("gpucb"), 3) << " | " << med << " | ";
    } else {
      md << "– | – | ";
    }
    md << (has_random ? fmt_mean_std(finals("random"), 3) : std::string("–")) << " | "
       << (has_gpucb ? fmt_mean_std(jp["gpucb"]["iter_seconds"].get<std::vector<double>>(), 3) : std::string("–"))
       << " |\n";
    if (has_gpucb) {
      per_seed << "\n" << name << " GP-UCB per seed:";
      const auto f = finals("gpucb");
      for (size_t i = 0; i < f.size(); ++i) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " %d: %.4g%s", seeds[i], f[i], i + 1 < f.size() ? "," : "");
        per_seed << buf;
      }
    }
  }
  md << per_seed.str() << "\n";
  return md.str();
}

}  // namespace kbo::bench
