// kbo bench scale: ask latency (suggestion + storage) and peak memory as a study grows to n = 10,000
// trials, with the default (incremental) model, beside the refit-every-ask path and one Cholesky at n.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "command.hpp"
#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"
#include "report.hpp"

namespace kbo::cli {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

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
Timings time_asks(Study& s, const Problem& p, int reps, bool fresh) {
  Timings t;
  auto worker = make_strategy(s.strategy_config(), s.space());
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
    auto process = make_strategy(s.strategy_config(), s.space());
    t0 = Clock::now();
    a = s.ask(*process, "bench");
    t.fresh.push_back(seconds_since(t0));
    s.tell(a.id, p.f(a.x));
  }
  return t;
}

/// Median seconds of one Cholesky factorisation of the Matérn-5/2 Gram matrix of the study's points.
double cholesky_seconds(const Study& s, int reps) {
  Mat X, pending, failed;
  Vec y;
  Study::strategy_data(s.trials(), s.minimize(), X, y, pending, failed, s.space()->dim());
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

int run_bench_scale(int argc, char** argv) {
  CLI::App app{"Ask latency and peak memory as a study grows: for each n, a SQLite study of n trials told from a "
               "known function (uniform random points), then asks by a long-running worker (its strategy object "
               "kept: the incremental model) and by fresh processes (a new strategy object each, warm-started from "
               "the stored model state), each ask told before the next; beside it the refit-every-ask path "
               "(options.bo.full_refit_below huge) up to --legacy-max, and one Cholesky of an n x n Gram matrix."};
  std::string out = "docs/bench/scale", tmp = "/tmp", problem = "hartmann6";
  std::vector<int> sizes = {100, 500, 1000, 2000, 5000, 10000};
  int reps = 3, seed = 1, legacy_max = 1000;
  app.add_option("--out", out, "output directory for JSON and the table (default docs/bench/scale)");
  app.add_option("--tmp", tmp, "directory for the SQLite files (default /tmp)");
  app.add_option("--problem", problem, "built-in problem the trials are told from (default hartmann6)");
  app.add_option("--sizes", sizes, "complete-trial counts n (default 100 500 1000 2000 5000 10000)");
  app.add_option("--reps", reps, "timed asks per kind and n (median reported; default 3)")->check(CLI::Range(1, 100));
  app.add_option("--legacy-max", legacy_max, "largest n timed with refit-every-ask (default 1000; 0 = none)");
  app.add_option("--seed", seed, "seed of the points and of the strategy");
  parse(app, argc, argv);
  const Problem p = make_problem(problem, 0);
  std::sort(sizes.begin(), sizes.end());
  const std::string tag = std::to_string(getpid());
  const std::string url = "sqlite:" + tmp + "/kbo_bench_scale_" + tag + ".db";
  const nlohmann::json legacy_bo = {{"full_refit_below", 1000000000}};
  nlohmann::json result = {{"problem", problem}, {"reps", reps}, {"rows", nlohmann::json::array()}};
  std::ostringstream md;
  md << "| n | ask, worker (s) | ask, fresh process (s) | first ask of a worker (s) | refit every ask (s) | "
        "Cholesky (s) | peak RSS (MB) | load (1/5/15 min) |\n|---|---|---|---|---|---|---|---|\n";
  std::cout << md.str() << std::flush;
  Rng rng = make_rng(static_cast<std::uint64_t>(seed));
  Study s = open_study(url, "scale", p, nullptr, seed);
  Study legacy = open_study(url, "legacy", p, legacy_bo, seed);
  Rng legacy_rng = make_rng(static_cast<std::uint64_t>(seed));
  for (int n : sizes) {
    std::cerr << "n = " << n << ": filling …" << std::endl;
    fill(s, p, n, rng);
    std::cerr << "n = " << n << ": timing asks …" << std::endl;
    const Timings t = time_asks(s, p, reps, /*fresh=*/true);
    double legacy_s = -1.0;
    if (n <= legacy_max) {
      fill(legacy, p, n, legacy_rng);
      legacy_s = median(time_asks(legacy, p, reps, /*fresh=*/false).steady);
    }
    const double chol = cholesky_seconds(s, n >= 5000 ? 1 : 3);
    nlohmann::json row = {{"n", n},
                          {"ask_worker_s", median(t.steady)},
                          {"ask_fresh_s", median(t.fresh)},
                          {"first_ask_s", t.first},
                          {"cholesky_s", chol},
                          {"peak_rss_mb", peak_rss_mb()},
                          {"load", load_average()}};
    if (legacy_s >= 0.0) row["refit_every_ask_s"] = legacy_s;
    result["rows"].push_back(row);
    char line[512];
    std::snprintf(line, sizeof(line), "| %d | %.3f | %.3f | %.2f | %s | %.3f | %.0f | %s |\n", n, median(t.steady),
                  median(t.fresh), t.first, legacy_s >= 0.0 ? std::to_string(legacy_s).substr(0, 5).c_str() : "–", chol,
                  peak_rss_mb(), load_average().c_str());
    md << line;
    std::cout << line << std::flush;
    kbo::bench::write_text(out + "/scale.json", result.dump(2) + "\n");
    kbo::bench::write_text(out + "/scale_table.md", md.str());
  }
  std::remove((tmp + "/kbo_bench_scale_" + tag + ".db").c_str());
  return 0;
}

}  // namespace
KBO_COMMAND("bench scale", "ask latency and peak memory at n = 100 … 10,000 trials (incremental vs refit every ask)",
            run_bench_scale);
}  // namespace kbo::cli
