// kbo bench scale: ask latency (suggestion + storage) and peak memory as a study grows to n = 10,000
// trials, with the default (incremental) model, beside the refit-every-ask path and one Cholesky at n.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench_support.hpp"
#include "command.hpp"
#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/core/error.hpp"
#include "kbo/strategy/bo_model_options.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"
#include "report.hpp"

namespace kbo::cli {
namespace {

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

/// A study on `problem` whose config is the default model, plus `bo` overrides (module_options.bo).
Study open_study(const std::string& url, const std::string& name, const Problem& p, const nlohmann::json& bo, int seed) {
  StudyRecord r;
  r.name = name;
  r.space = box_space_json(p.bounds);
  StrategyConfig config;
  config.seed = static_cast<std::uint64_t>(seed);
  if (!bo.is_null()) config.module_options = {{"bo", bo}};
  r.config = to_json(config);
  return Study::create_or_open(open_storage(url), r);
}

/// Tells uniform random points of `p` until the study has n complete trials (one transaction each, as
/// `kbo tell` would; the points are fixed, not suggested).
void fill(Study& s, const Problem& p, int n, Rng& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int D = p.bounds.dim();
  for (int i = static_cast<int>(s.trials().size()); i < n; ++i) {
    Vec x(D);
    for (int d = 0; d < D; ++d) x(d) = p.bounds.lower(d) + u(rng) * (p.bounds.upper(d) - p.bounds.lower(d));
    const Trial t = s.storage().ask(s.name(), [&](const std::vector<Trial>&) { return x; }, "bench");
    s.tell(t.id, p.f(x));
  }
}

struct Timings {
  double first = 0;                    // first ask of a new strategy object (fit or stored-state restore)
  std::vector<double> steady, fresh;   // asks of a long-running worker / of a new process (`kbo ask`)
};

/// `reps` rounds of: ask with the long-running strategy (timed), tell its point; then `reps` asks by a
/// new strategy object each (a fresh `kbo ask`: it restores the stored state), each told.
Timings time_asks(Study& s, const Problem& p, int reps, bool fresh, const nlohmann::json& bo_override = nullptr) {
  Timings t;
  StrategyConfig config = s.strategy_config();
  if (!bo_override.is_null()) {
    if (!config.module_options.is_object()) config.module_options = nlohmann::json::object();
    if (!config.module_options["bo"].is_object()) config.module_options["bo"] = nlohmann::json::object();
    config.module_options["bo"].update(bo_override);
  }
  auto worker = make_strategy(config, s.space());
  auto t0 = Clock::now();
  Trial a = s.ask(*worker, "bench");
  t.first = seconds_since(t0);
  s.tell(a.id, p.f(a.x));
  for (int k = 0; k < reps; ++k) {
    t0 = Clock::now();
    a = s.ask(*worker, "bench");
    t.steady.push_back(seconds_since(t0));
    s.tell(a.id, p.f(a.x));
  }
  for (int k = 0; fresh && k < reps; ++k) {
    auto process = make_strategy(config, s.space());
    t0 = Clock::now();
    a = s.ask(*process, "bench");
    t.fresh.push_back(seconds_since(t0));
    s.tell(a.id, p.f(a.x));
  }
  return t;
}

/// Median seconds of one Cholesky factorisation of the Matérn-5/2 Gram matrix of the study's first n points.
double cholesky_seconds(const Study& s, int n, int reps) {
  Mat Xall, pending, failed;
  Vec y;
  Study::strategy_data(s.trials(), s.minimize(), Xall, y, pending, failed, s.space()->dim());
  Mat X = Xall.topRows(std::min<Eigen::Index>(n, Xall.rows()));
  const Box& b = s.space()->bounds();
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    X.row(i) = (X.row(i) - b.lower.transpose()).cwiseQuotient((b.upper - b.lower).transpose());
  KernelPtr k = make_stationary("matern52", static_cast<int>(X.cols()), true, 0.3, 1.0);
  Mat K = k->gram(X);
  K.diagonal().array() += 1e-4;
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    Cholesky c(K);
    times.push_back(seconds_since(t0));
  }
  return median(times);
}

/// The quality of θ fitted on a subset (options.bo.fit_subset): per n and cap, one cold refit of the
/// default model (Matérn-5/2 vs 3/2, MAP) on n uniform random points of `p`, then the log marginal
/// likelihood per point of the model on ALL n rows at that θ (higher is better; the cap 0 row is the
/// fit on every row), and the refit's seconds.
void fit_quality(const Problem& p, const std::vector<int>& sizes, const std::vector<int>& caps, int seeds,
                 const std::string& out) {
  std::ostringstream md;
  md << "| n | fit_subset | seed | LML / n on all rows | kernel | refit (s) | load |\n|---|---|---|---|---|---|---|\n";
  nlohmann::json rows = nlohmann::json::array();
  auto space = std::make_shared<BoxSpace>(p.bounds);
  const int D = p.bounds.dim();
  for (int n : sizes)
    for (int seed = 1; seed <= seeds; ++seed) {
      Rng rng = make_rng(static_cast<std::uint64_t>(1000 + seed));
      std::uniform_real_distribution<double> u(0.0, 1.0);
      Mat X(n, D);
      Vec y(n);
      for (int i = 0; i < n; ++i) {
        for (int d = 0; d < D; ++d) X(i, d) = p.bounds.lower(d) + u(rng) * (p.bounds.upper(d) - p.bounds.lower(d));
        y(i) = -p.f(X.row(i).transpose());
      }
      for (int cap : caps) {
        if (cap != 0 && cap >= n) continue;
        StrategyConfig c;
        c.seed = static_cast<std::uint64_t>(seed);
        c.module_options = {{"bo", {{"fit_subset", cap}, {"model", "exact"}}}};
        BOStrategy s(c, space);
        const auto t0 = Clock::now();
        s.suggest(X, y, Mat(0, D), n);
        const double secs = seconds_since(t0);
        const double lml = s.model()->log_marginal_likelihood() / n;
        const std::string kernel = s.last_info()["kernel"].get<std::string>();
        rows.push_back({{"n", n}, {"fit_subset", cap}, {"seed", seed}, {"lml_per_point", lml}, {"kernel", kernel},
                        {"seconds", secs}, {"load", load_average()}});
        char line[512];
        std::snprintf(line, sizeof(line), "| %d | %s | %d | %.4f | %s | %.2f | %s |\n", n,
                      cap == 0 ? "all" : std::to_string(cap).c_str(), seed, lml, kernel.substr(0, 40).c_str(), secs,
                      load_average().c_str());
        md << line;
        std::cout << line << std::flush;
        kbo::bench::write_text(out + "/fit_quality.json", rows.dump(2) + "\n");
        kbo::bench::write_text(out + "/fit_quality_table.md", md.str());
      }
    }
}

int run_bench_scale(int argc, char** argv) {
  CLI::App app{"Ask latency and peak memory as a study grows: for each n, a SQLite study of n trials told from a "
               "known function (uniform random points), then asks by a long-running worker (its strategy object "
               "kept: the incremental model) and by fresh processes (a new strategy object each, warm-started from "
               "the stored model state), each ask told before the next; beside it the subset-of-data model forced "
               "(up to --subset-max) and the refit-every-ask path (every row, exact model) up to --legacy-max; "
               "after all sizes, one Cholesky of the n x n Gram matrix at each n (after, so that its memory does "
               "not enter the asks' peak RSS)."};
  std::string out = "docs/bench/scale", tmp = "/tmp", problem = "hartmann6", bo_text;
  std::vector<int> sizes = {100, 500, 1000, 2000, 5000, 10000};
  int reps = 3, seed = 1, legacy_max = 1000, subset_max = 2000;
  app.add_option("--out", out, "output directory for JSON and the table (default docs/bench/scale)");
  app.add_option("--tmp", tmp, "directory for the SQLite files (default /tmp)");
  app.add_option("--problem", problem, "built-in problem the trials are told from (default hartmann6)");
  app.add_option("--sizes", sizes, "complete-trial counts n (default 100 500 1000 2000 5000 10000)");
  app.add_option("--reps", reps, "timed asks per kind and n (median reported; default 3)")->check(CLI::Range(1, 100));
  app.add_option("--legacy-max", legacy_max, "largest n timed with refit-every-ask (default 1000; 0 = none)");
  app.add_option("--subset-max", subset_max, "largest n timed with the subset-of-data model forced (default 2000; 0 = none)");
  app.add_option("--bo", bo_text, "JSON object of options.bo for the main study (default: the default model)");
  app.add_option("--seed", seed, "seed of the points and of the strategy");
  std::vector<int> quality_sizes, quality_caps = {0, 250, 500, 1000};
  int quality_seeds = 2;
  app.add_option("--fit-quality", quality_sizes,
                 "instead of the latency table: θ fitted on subsets (options.bo.fit_subset) at these n, LML per "
                 "point on all rows and refit seconds");
  app.add_option("--fit-caps", quality_caps, "fit_subset values compared by --fit-quality (0 = all rows; default 0 250 500 1000)");
  app.add_option("--fit-seeds", quality_seeds, "data seeds per n for --fit-quality (default 2)")->check(CLI::Range(1, 100));
  parse(app, argc, argv);
  if (!quality_sizes.empty()) {
    fit_quality(make_problem(problem, 0), quality_sizes, quality_caps, quality_seeds, out);
    return 0;
  }
  nlohmann::json bo = nullptr;
  if (!bo_text.empty()) {
    bo = nlohmann::json::parse(bo_text, nullptr, /*allow_exceptions=*/false);
    if (!bo.is_object()) throw InputError("--bo must be a JSON object of options.bo keys (got '" + bo_text + "')");
    BOModelOptions::from_json(bo);  // InputError naming a bad key or value
  }
  const Problem p = make_problem(problem, 0);
  std::sort(sizes.begin(), sizes.end());
  const std::string tag = std::to_string(getpid());
  const std::string url = "sqlite:" + tmp + "/kbo_bench_scale_" + tag + ".db";
  // The reference path: θ refitted at every ask on every row, exact model.
  const nlohmann::json legacy_bo = {{"full_refit_below", 1000000000}, {"fit_subset", 0}, {"model", "exact"}};
  nlohmann::json result = {{"problem", problem}, {"reps", reps}, {"bo", bo}, {"rows", nlohmann::json::array()},
                           {"machine", kbo::bench::machine_description()}};
  Rng rng = make_rng(static_cast<std::uint64_t>(seed));
  Study s = open_study(url, "scale", p, bo, seed);
  Study legacy = open_study(url, "legacy", p, legacy_bo, seed);
  Rng legacy_rng = make_rng(static_cast<std::uint64_t>(seed));
  auto cell = [](double v, const char* fmt) {
    if (v < 0.0) return std::string("–");
    char b[32];
    std::snprintf(b, sizeof(b), fmt, v);
    return std::string(b);
  };
  for (int n : sizes) {
    std::cerr << "n = " << n << ": filling …" << std::endl;
    fill(s, p, n, rng);
    std::cerr << "n = " << n << ": timing asks …" << std::endl;
    const Timings t = time_asks(s, p, reps, /*fresh=*/true);
    nlohmann::json row = {{"n", n},
                          {"ask_worker_s", median(t.steady)},
                          {"ask_fresh_s", median(t.fresh)},
                          {"first_ask_s", t.first},
                          {"peak_rss_mb", peak_rss_mb()},
                          {"load", load_average()}};
    if (n <= subset_max) {
      const Timings ts = time_asks(s, p, reps, /*fresh=*/false, {{"model", "subset"}});
      row["ask_worker_subset_s"] = median(ts.steady);
    }
    if (n <= legacy_max) {
      fill(legacy, p, n, legacy_rng);
      row["refit_every_ask_s"] = median(time_asks(legacy, p, reps, /*fresh=*/false).steady);
    }
    result["rows"].push_back(row);
    std::cerr << row.dump() << std::endl;
    kbo::bench::write_text(out + "/scale.json", result.dump(2) + "\n");
  }
  // The reference: one factorisation at each n, in the same run (after the asks: its n x n matrices
  // would otherwise count in the asks' peak memory).
  std::ostringstream md;
  md << "| n | ask, worker (s) | ask, fresh process (s) | first ask of a worker (s) | subset model forced (s) | "
        "refit every ask (s) | Cholesky (s) | ask / Cholesky | peak RSS (MB) | load (1/5/15 min) |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  for (auto& row : result["rows"]) {
    const int n = row["n"].get<int>();
    std::cerr << "n = " << n << ": Cholesky …" << std::endl;
    const double chol = cholesky_seconds(s, n, n >= 5000 ? 1 : 3);
    row["cholesky_s"] = chol;
    const double worker = row["ask_worker_s"].get<double>();
    md << "| " << n << " | " << cell(worker, "%.3f") << " | " << cell(row["ask_fresh_s"].get<double>(), "%.3f") << " | "
       << cell(row["first_ask_s"].get<double>(), "%.2f") << " | " << cell(row.value("ask_worker_subset_s", -1.0), "%.3f")
       << " | " << cell(row.value("refit_every_ask_s", -1.0), "%.2f") << " | " << cell(chol, "%.3f") << " | "
       << cell(chol > 0.0 ? worker / chol : -1.0, "%.3g") << " | " << cell(row["peak_rss_mb"].get<double>(), "%.0f")
       << " | " << row["load"].get<std::string>() << " |\n";
    kbo::bench::write_text(out + "/scale.json", result.dump(2) + "\n");
  }
  kbo::bench::write_text(out + "/scale_table.md", md.str());
  std::cout << md.str() << std::flush;
  std::remove((tmp + "/kbo_bench_scale_" + tag + ".db").c_str());
  return 0;
}

}  // namespace
KBO_COMMAND("bench scale", "ask latency and peak memory at n = 100 … 10,000 trials (incremental vs refit every ask)",
            run_bench_scale);
}  // namespace kbo::cli
