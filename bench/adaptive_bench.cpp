// Runner of `kbo bench adaptive` (paper §5): every method is a kbo::Strategy driven by the same loop;
// regrets are computed from the noise-free function values.
#include "adaptive_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "adaptive_functions.hpp"
#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"
#include "report.hpp"
#include "softmax_classifier.hpp"

namespace kbo::bench {
namespace {

using Maker = std::function<std::unique_ptr<Strategy>(std::uint64_t seed)>;

struct Method {
  std::string name;
  Maker make;
};

struct Task {
  std::string name, title;
  int dim = 1;
  int n_init = 2;
  int budget = 80;
  int seeds = 10;
  double noise_std = 0.0;  // observation noise added to y
  // Per seed: the function (maximised, noise-free) and its maximum.
  std::function<std::function<double(const Vec&)>(int seed)> function;
  std::function<double(int seed)> optimum;
  std::vector<Method> methods;
};

struct RunTrace {
  std::vector<double> f;      // noise-free f(x_t)
  std::vector<double> g_eff;  // effective lengthscale scaling θ₀/θ_t (NaN during the design)
  std::vector<double> h;      // A-GP-UCB h(t) (NaN if not reported)
  double seconds = 0.0;
};

StrategyConfig config_for(int n_init, std::uint64_t seed, const AdaptiveBenchOptions& o) {
  StrategyConfig c;
  c.n_init = n_init;
  c.init_method = SamplingMethod::Uniform;  // paper: 2^d uniformly random initial points
  c.seed = seed;
  c.acq_optimizer.raw_samples = o.raw_samples;
  c.acq_optimizer.num_starts = o.num_starts;
  c.acq_optimizer.threads = 1;
  return c;
}

RunTrace run_one(const Task& task, const Method& m, int seed) {
  const auto f = task.function(seed);
  auto strategy = m.make(1000 + seed);
  Rng noise_rng = make_rng(777 + seed);
  std::normal_distribution<double> noise(0.0, task.noise_std > 0 ? task.noise_std : 1.0);
  RunTrace tr;
  Mat X(0, task.dim);
  Vec y(0);
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < task.budget; ++k) {
    const Vec x = strategy->suggest(X, y, Mat(0, task.dim), k);
    const double fx = f(x);
    X.conservativeResize(k + 1, task.dim);
    X.row(k) = x.transpose();
    y.conservativeResize(k + 1);
    y[k] = fx + (task.noise_std > 0 ? noise(noise_rng) : 0.0);
    tr.f.push_back(fx);
    const auto info = strategy->last_info();
    tr.g_eff.push_back(info.contains("g_eff") ? info["g_eff"].get<double>() : std::nan(""));
    tr.h.push_back(info.contains("h") ? info["h"].get<double>() : std::nan(""));
  }
  tr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return tr;
}

// Column-wise mean/std over seeds of per-step values (NaNs skipped).
Series curve(const std::string& name, const std::vector<std::vector<double>>& rows) {
  Series s;
  s.name = name;
  const size_t T = rows.empty() ? 0 : rows[0].size();
  for (size_t t = 0; t < T; ++t) {
    std::vector<double> v;
    for (const auto& r : rows)
      if (std::isfinite(r[t])) v.push_back(r[t]);
    if (v.empty()) continue;
    const MeanStd ms = mean_std(v);
    s.x.push_back(static_cast<double>(t + 1));
    s.mean.push_back(ms.mean);
    s.std.push_back(ms.std);
  }
  return s;
}

void run_task(const Task& task, const AdaptiveBenchOptions& o, const std::string& command, std::ostream& log) {
  // All runs first: f* may be refined by the runs themselves (classifier), so regrets come after.
  std::vector<std::vector<RunTrace>> traces(task.methods.size());
  for (size_t mi = 0; mi < task.methods.size(); ++mi)
    for (int s = 0; s < task.seeds; ++s) {
      traces[mi].push_back(run_one(task, task.methods[mi], s));
      const RunTrace& tr = traces[mi].back();
      log << "  " << task.name << " / " << task.methods[mi].name << " seed " << s << ": best f "
          << fmt_fixed(*std::max_element(tr.f.begin(), tr.f.end()), 4) << ", g_eff " << fmt_fixed(tr.g_eff.back(), 2) << " ("
          << fmt_fixed(tr.seconds, 1) << " s)\n"
          << std::flush;
    }
  nlohmann::json J;
  J["task"] = task.name;
  J["title"] = task.title;
  J["budget"] = task.budget;
  J["n_init"] = task.n_init;
  J["seeds"] = task.seeds;
  J["noise_std"] = task.noise_std;
  J["command"] = command;
  std::vector<double> optima;
  for (int s = 0; s < task.seeds; ++s) optima.push_back(task.optimum(s));
  const double range = task.optimum(-1);
  J["optimum_per_seed"] = optima;
  J["found_threshold"] = 0.05 * range;

  std::vector<Series> simple_curves, cum_curves, g_curves;
  std::ostringstream md;
  const int w = task.budget / 4;
  md << "| method | simple regret @" << task.budget << " | cumulative regret @" << task.budget
     << " | mean regret per step, last " << w << " steps | runs with simple regret < " << fmt_fixed(0.05 * range, 3)
     << " | g_eff @" << task.budget << " | s/run |\n|---|---|---|---|---|---|---|\n";
  for (size_t mi = 0; mi < task.methods.size(); ++mi) {
    const Method& m = task.methods[mi];
    std::vector<std::vector<double>> simple, cum, geff;
    std::vector<double> final_simple, final_cum, tail_rate, final_g, secs;
    int found = 0;
    nlohmann::json runs = nlohmann::json::array();
    for (int s = 0; s < task.seeds; ++s) {
      const RunTrace& tr = traces[mi][s];
      const double fstar = optima[s];
      std::vector<double> sr, cr;
      double best = -std::numeric_limits<double>::infinity(), c = 0.0;
      for (double fx : tr.f) {
        best = std::max(best, fx);
        c += fstar - fx;
        sr.push_back(fstar - best);
        cr.push_back(c);
      }
      simple.push_back(sr);
      cum.push_back(cr);
      geff.push_back(tr.g_eff);
      final_simple.push_back(sr.back());
      final_cum.push_back(cr.back());
      tail_rate.push_back((cr.back() - cr[cr.size() - 1 - w]) / w);
      final_g.push_back(tr.g_eff.back());
      secs.push_back(tr.seconds);
      found += sr.back() < 0.05 * range;
      runs.push_back({{"seed", s}, {"f", tr.f}, {"g_eff", tr.g_eff}, {"h", tr.h}, {"seconds", tr.seconds}});
    }
    simple_curves.push_back(curve(m.name, simple));
    cum_curves.push_back(curve(m.name, cum));
    g_curves.push_back(curve(m.name, geff));
    J["methods"][m.name] = {{"simple_regret", {{"mean", simple_curves.back().mean}, {"std", simple_curves.back().std}}},
                            {"cumulative_regret", {{"mean", cum_curves.back().mean}, {"std", cum_curves.back().std}}},
                            {"g_eff", {{"t", g_curves.back().x}, {"mean", g_curves.back().mean}, {"std", g_curves.back().std}}},
                            {"found", found},
                            {"final_simple", final_simple},
                            {"final_cumulative", final_cum},
                            {"tail_regret_per_step", tail_rate},
                            {"runs", runs}};
    md << "| " << m.name << " | " << fmt_mean_std(final_simple, 3) << " | " << fmt_mean_std(final_cum, 2) << " | "
       << fmt_mean_std(tail_rate, 3) << " | " << found << "/" << task.seeds << " | " << fmt_mean_std(final_g, 2)
       << " | " << fmt_fixed(mean_std(secs).mean, 1) << " |\n";
  }
  // Simple regret is 0 once f* itself is evaluated: plot it with a floor so the log scale stays finite.
  for (auto& c : simple_curves)
    for (double& v : c.mean) v = std::max(v, 1e-4);
  const std::string base = o.out_dir + "/" + task.name;
  write_text(base + ".json", J.dump(1) + "\n");
  write_line_plot_svg(base + "_simple.svg", task.title + ": simple regret (mean ± std, floor 1e-4)", "evaluations t",
                      "simple regret (log10)", simple_curves, true);
  write_line_plot_svg(base + "_cumulative.svg", task.title + ": cumulative regret (mean ± std)", "evaluations t",
                      "cumulative regret", cum_curves, false);
  write_line_plot_svg(base + "_g.svg", task.title + ": effective lengthscale scaling g(t) = θ₀/θ_t", "evaluations t",
                      "g (log10)", g_curves, true);
  write_text(o.out_dir + "/summary_" + task.name + ".md", md.str());
  log << md.str() << std::flush;
}

// ---- method factories ----

// The paper's literal constants unless a method overrides one (the product preset is not the paper's).
Maker agpucb_d(const AdaptiveBenchOptions& o, int dim, int n_init, nlohmann::json opts) {
  if (!opts.contains("preset")) opts["preset"] = "paper";
  return [=](std::uint64_t seed) -> std::unique_ptr<Strategy> {
    StrategyConfig c = config_for(n_init, seed, o);
    c.module_options = opts;
    return make_agpucb_strategy(c, std::make_shared<BoxSpace>(Box::unit(dim)));
  };
}

Maker baseline_d(const AdaptiveBenchOptions& o, int dim, int n_init, nlohmann::json opts) {
  return [=](std::uint64_t seed) -> std::unique_ptr<Strategy> {
    StrategyConfig c = config_for(n_init, seed, o);
    return std::make_unique<HyperGpucbStrategy>(c, std::make_shared<BoxSpace>(Box::unit(dim)),
                                                BaselineOptions::from_json(opts, dim));
  };
}

// The methods of Fig. 4 (shared by the two 1-d tasks). The HMC chain per suggestion is short
// (60 + 60 iterations, warm-started) to keep the 1-d tasks within minutes.
std::vector<Method> fig4_methods(const AdaptiveBenchOptions& o, bool with_true, bool with_hmc, double sigma) {
  std::vector<Method> m;
  const nlohmann::json common = {{"noise_std", sigma}};
  auto with = [&](nlohmann::json extra) {
    nlohmann::json j = common;
    for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
    return j;
  };
  if (with_true)
    m.push_back({"GP-UCB, true θ=0.1, B=2", agpucb_d(o, 1, 2, with({{"estimator", "none"}, {"theta0", 0.1}}))});
  m.push_back({"GP-UCB, θ₀=1, B₀=2", agpucb_d(o, 1, 2, with({{"estimator", "none"}}))});
  const double nv = std::max(1e-6, sigma * sigma);
  m.push_back({"GP-UCB + MAP (β½=2)", baseline_d(o, 1, 2, {{"mode", "map"}, {"noise_var", nv}})});
  if (with_hmc)
    m.push_back({"GP-UCB + HMC (β½=2)", baseline_d(o, 1, 2,
                                              {{"mode", "hmc"}, {"noise_var", nv}, {"hmc_warmup", 60},
                                               {"hmc_samples", 60}, {"hmc_keep", 10}, {"hmc_leapfrog", 8}})});
  m.push_back({"A-GP-UCB eq.15 (bound) + MAP", agpucb_d(o, 1, 2, with({{"estimator", "bound"}, {"combine", "min"}}))});
  m.push_back({"A-GP-UCB eq.16 (one-step) + MAP", agpucb_d(o, 1, 2, with({{"estimator", "onestep"}, {"combine", "min"}}))});
  m.push_back({"A-GP-UCB eq.16, no MAP (Alg. 1)", agpucb_d(o, 1, 2, with({{"estimator", "onestep"}}))});
  m.push_back({"Wang–de Freitas (mod.) + MAP", agpucb_d(o, 1, 2, with({{"estimator", "wang"}, {"combine", "min"}}))});
  return m;
}

}  // namespace

int run_adaptive_bench(const AdaptiveBenchOptions& o, std::ostream& log) {
  const std::vector<std::string> all = {"rkhs", "berkenkamp", "gp-samples", "classifier"};
  std::vector<std::string> tasks;
  if (o.task == "all")
    tasks = all;
  else if (std::find(all.begin(), all.end(), o.task) != all.end())
    tasks = {o.task};
  else
    throw InputError("bench adaptive: unknown task '" + o.task + "'; allowed: rkhs, berkenkamp, gp-samples, classifier, all");
  if (o.seeds < 1 || o.classifier_seeds < 1 || o.budget_1d < 6 || o.budget_classifier < 20)
    throw InputError("bench adaptive: need seeds >= 1, budget-1d >= 6 and budget-classifier >= 20");

  for (const std::string& name : tasks) {
    std::ostringstream cmd;
    cmd << "kbo bench adaptive --task " << name << " --seeds " << o.seeds << " --classifier-seeds "
        << o.classifier_seeds << " --budget-1d " << o.budget_1d << " --budget-classifier " << o.budget_classifier;
    Task t;
    t.name = name;
    if (name == "rkhs") {
      const RkhsFunction fr = paper_rkhs_function();
      const double fstar = maximize_1d([&](double x) { return fr(Vec::Constant(1, x)); }).second;
      t.title = "RKHS function of Fig. 2 (θ=0.1, ‖f‖=2)";
      t.budget = o.budget_1d;
      t.seeds = o.seeds;
      t.noise_std = o.noise_std;
      t.function = [fr](int) { return std::function<double(const Vec&)>([fr](const Vec& x) { return fr(x); }); };
      // optimum(-1) is the "range" used for the found-f* threshold: f* − min f.
      const double fmin = -maximize_1d([&](double x) { return -fr(Vec::Constant(1, x)); }).second;
      t.optimum = [fstar, fmin](int s) { return s < 0 ? fstar - fmin : fstar; };
      t.methods = fig4_methods(o, true, true, o.noise_std);
    } else if (name == "berkenkamp") {
      const double fstar = maximize_1d(berkenkamp_function).second;
      const double fmin = -maximize_1d([](double x) { return -berkenkamp_function(x); }).second;
      t.title = "0.6x + N(x; 0.2, 0.08²)/8 (docs/papers.md#adaptive-berkenkamp-function)";
      t.budget = o.budget_1d;
      t.seeds = o.seeds;
      t.noise_std = o.noise_std;
      t.function = [](int) { return std::function<double(const Vec&)>([](const Vec& x) { return berkenkamp_function(x[0]); }); };
      t.optimum = [fstar, fmin](int s) { return s < 0 ? fstar - fmin : fstar; };
      // No HMC here: on this function the chain drifts to tiny lengthscales where a run took 15 min.
      t.methods = fig4_methods(o, false, false, o.noise_std);
    } else if (name == "gp-samples") {
      t.title = "GP samples, θ=0.1, ‖f‖=4, B₀=0.25 (Fig. 5)";
      t.budget = o.budget_1d;
      t.seeds = o.seeds;
      t.noise_std = o.noise_std;
      auto fs = std::make_shared<std::vector<RkhsFunction>>();
      auto opt = std::make_shared<std::vector<double>>();
      double range = 0.0;
      for (int s = 0; s < o.seeds; ++s) {
        fs->push_back(gp_sample_function(500 + s));
        const RkhsFunction& fr = fs->back();
        opt->push_back(maximize_1d([&](double x) { return fr(Vec::Constant(1, x)); }).second);
        range += (opt->back() + maximize_1d([&](double x) { return -fr(Vec::Constant(1, x)); }).second) / o.seeds;
      }
      t.function = [fs](int s) {
        const RkhsFunction fr = (*fs)[s];
        return std::function<double(const Vec&)>([fr](const Vec& x) { return fr(x); });
      };
      t.optimum = [opt, range](int s) { return s < 0 ? range : (*opt)[s]; };
      const double sg = o.noise_std;
      t.methods = {
          {"GP-UCB, θ=0.1 (true), B₀=0.25", agpucb_d(o, 1, 2, {{"estimator", "none"}, {"theta0", 0.1}, {"B0", 0.25}, {"noise_std", sg}})},
          {"GP-UCB, θ=0.1, B=4 (true)", agpucb_d(o, 1, 2, {{"estimator", "none"}, {"theta0", 0.1}, {"B0", 4.0}, {"noise_std", sg}})},
          {"A-GP-UCB eq.15, θ₀=1, B₀=0.25", agpucb_d(o, 1, 2, {{"estimator", "bound"}, {"B0", 0.25}, {"noise_std", sg}})},
          {"A-GP-UCB eq.16, θ₀=1, B₀=0.25", agpucb_d(o, 1, 2, {{"estimator", "onestep"}, {"B0", 0.25}, {"noise_std", sg}})},
      };
    } else {  // classifier
      auto prob = std::make_shared<SoftmaxTuningProblem>(read_classification_csv(o.data_path), 0, o.classifier_epochs);
      t.title = "softmax regression on digits, 4 hyperparameters (Fig. 6)";
      t.dim = 4;
      t.n_init = 16;
      t.budget = o.budget_classifier;
      t.seeds = o.classifier_seeds;
      t.noise_std = 0.0;  // the objective is deterministic (fixed training seed)
      auto f = [prob](const Vec& u) { return -prob->validation_loss(SoftmaxTuningProblem::from_unit(u)); };
      // f*: unknown; the best of a 512-point Sobol search (seeded), refined by the runs' own best below.
      Sobol sob(4, 12345);
      double best = -1e300, worst = 1e300;
      for (int i = 0; i < 512; ++i) {
        const double v = f(sob.next());
        best = std::max(best, v);
        worst = std::min(worst, v);
      }
      log << "  classifier: Sobol-512 reference best validation loss " << fmt_fixed(-best, 4) << "\n";
      auto fstar = std::make_shared<double>(best);
      t.function = [f, fstar](int) {
        return std::function<double(const Vec&)>([f, fstar](const Vec& u) {
          const double v = f(u);
          if (v > *fstar) *fstar = v;  // a run beat the reference: regrets are recomputed below
          return v;
        });
      };
      t.optimum = [fstar, best, worst](int s) { return s < 0 ? best - worst : *fstar; };
      const nlohmann::json common = {{"noise_std", 0.01}, {"combine", "min"}};
      auto with = [&](const char* est) {
        nlohmann::json j = common;
        j["estimator"] = est;
        return j;
      };
      t.methods = {
          {"GP-UCB + MAP (β½=2)", baseline_d(o, 4, 16, {{"mode", "map"}})},
          {"GP-UCB + HMC (β½=2)", baseline_d(o, 4, 16, {{"mode", "hmc"}, {"hmc_warmup", 80}, {"hmc_samples", 80}})},
          {"A-GP-UCB eq.15 (bound) + MAP", agpucb_d(o, 4, 16, with("bound"))},
          {"A-GP-UCB eq.16 (one-step) + MAP", agpucb_d(o, 4, 16, with("onestep"))},
      };
      run_task(t, o, cmd.str(), log);
      continue;
    }
    run_task(t, o, cmd.str(), log);
  }
  return 0;
}

}  // namespace kbo::bench
