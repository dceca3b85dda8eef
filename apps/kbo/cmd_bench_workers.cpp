// kbo bench workers: throughput of N local workers on one study, and ask latency as the study grows.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench_support.hpp"
#include "command.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/core/random.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/study.hpp"
#include "kbo/study/worker_processes.hpp"
#include "kbo/strategy/registry.hpp"
#include "report.hpp"

namespace kbo::cli {
namespace {

/// Storage URL of `backend` for a fresh data set named `tag` (SQLite: a new file under `dir`;
/// PostgreSQL: the given server URL, studies distinguished by name).
std::string storage_url(const std::string& backend, const std::string& dir, const std::string& pg, const std::string& tag) {
  if (backend == "sqlite") return "sqlite:" + dir + "/" + tag + ".db";
  if (backend == "postgresql") {
    if (pg.empty()) throw InputError("--backends postgresql needs --pg URL (scripts/bench_workers.sh starts a throw-away server)");
    return pg;
  }
  throw InputError("unknown backend '" + backend + "' (allowed: sqlite, postgresql)");
}

/// Runs `kbo optimize --workers W` (W = 1: in one process) on a 4-d box with an objective that sleeps
/// `sleep_s` seconds; returns the wall time of the whole run.
double run_throughput(const std::string& url, const std::string& study, int workers, int trials, double sleep_s, int seed) {
  std::ostringstream obj;
  obj << "sleep " << sleep_s << "; echo {x} | awk '{print ($1-0.3)^2+($2-0.6)^2+($3-0.2)^2+($4-0.5)^2}'";
  const std::vector<std::string> args = {
      "optimize", "--objective", obj.str(), "--bounds", "0:1,0:1,0:1,0:1", "--init", "8", "--iters", std::to_string(trials - 8),
      "--seed", std::to_string(seed), "--workers", std::to_string(workers), "--storage", url, "--study", study, "--json"};
  const auto t0 = Clock::now();
  const pid_t pid = spawn_self(args);
  const int code = wait_process(pid);
  const double wall = seconds_since(t0);
  if (code != 0) throw std::runtime_error("kbo optimize --workers " + std::to_string(workers) + " failed (exit " + std::to_string(code) + ")");
  const auto s = Study::open(open_storage(url), study).to_json();
  if (s["n_complete"].get<int>() != trials)
    throw std::runtime_error("throughput run finished " + std::to_string(s["n_complete"].get<int>()) + " of " + std::to_string(trials));
  return wall;
}

struct Latency {
  double storage_only = 0;  // median seconds of an ask whose strategy returns a fixed point
  double full = 0;          // median seconds of a default GP-UCB ask
};

/// Fills a study with n complete trials of Hartmann-6 (uniform random points), then times asks.
Latency run_latency(const std::string& url, const std::string& study, int n, int reps, int seed) {
  auto storage = open_storage(url);
  StudyRecord r;
  r.name = study;
  const Problem h6 = make_problem("hartmann6");
  r.space = box_space_json(h6.bounds);
  StrategyConfig config;
  config.seed = static_cast<std::uint64_t>(seed);
  r.config = to_json(config);
  Study s = Study::create_or_open(storage, r);
  Rng rng = make_rng(static_cast<std::uint64_t>(seed));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = static_cast<int>(s.trials().size()); i < n; ++i) {
    Vec x(6);
    for (int d = 0; d < 6; ++d) x(d) = u(rng);
    const Trial t = storage->ask(study, [&](const std::vector<Trial>&) { return x; }, "bench");
    s.tell(t.id, h6.f(x));
  }
  Latency out;
  std::vector<double> plain, full;
  for (int k = 0; k < reps; ++k) {
    // Asks are failed right after, so every repetition sees n complete trials (+ k failed ones).
    auto t0 = Clock::now();
    Trial t = storage->ask(study, [](const std::vector<Trial>&) { return Vec::Constant(6, 0.5); }, "bench");
    plain.push_back(seconds_since(t0));
    s.fail(t.id, "latency probe");
    auto strategy = make_strategy(s.strategy_config(), s.space());
    t0 = Clock::now();
    t = s.ask(*strategy, "bench");
    full.push_back(seconds_since(t0));
    s.fail(t.id, "latency probe");
  }
  out.storage_only = median(plain);
  out.full = median(full);
  return out;
}

int run_bench_workers(int argc, char** argv) {
  CLI::App app{"Benchmark many workers on one study: wall time of --trials trials of an objective that sleeps "
               "--sleep seconds with 1, 2, 4, 8 local workers (kbo optimize --workers), and the latency of one ask "
               "at n completed trials, on SQLite and PostgreSQL."};
  std::string out = "docs/bench/workers", backends = "sqlite,postgresql", pg, workers_list = "1,2,4,8", only = "all";
  std::string tmp = "/tmp";
  int trials = 64, reps = 5, seed = 1;
  double sleep_s = 1.0;
  std::vector<int> sizes = {100, 500};
  app.add_option("--out", out, "output directory for JSON (default docs/bench/workers)");
  app.add_option("--only", only, "all | throughput | latency")->check(CLI::IsMember({"all", "throughput", "latency"}));
  app.add_option("--backends", backends, "comma-separated: sqlite, postgresql (default both)");
  app.add_option("--pg", pg, "PostgreSQL URL for the postgresql backend");
  app.add_option("--tmp", tmp, "directory for the SQLite files (default /tmp)");
  app.add_option("--workers", workers_list, "comma-separated worker counts (default 1,2,4,8)");
  app.add_option("--trials", trials, "trials per throughput run (default 64)")->check(CLI::Range(9, 100000));
  app.add_option("--sleep", sleep_s, "seconds the objective sleeps (default 1)");
  app.add_option("--sizes", sizes, "completed-trial counts of the latency figure (default 100 500)");
  app.add_option("--reps", reps, "timed asks per size (median reported; default 5)")->check(CLI::Range(1, 1000));
  app.add_option("--seed", seed, "seed");
  parse(app, argc, argv);
  const std::string run_tag = std::to_string(getpid());
  nlohmann::json result = {{"trials", trials}, {"sleep_s", sleep_s}, {"load_before", load_average()},
                           {"machine", kbo::bench::machine_description()}};
  std::ostringstream md;
  if (only != "latency") {
    md << "| backend | workers | wall (s) for " << trials << " trials | speed-up vs 1 worker | ideal wall (s) |\n|---|---|---|---|---|\n";
    for (const auto& backend : split_list(backends)) {
      double base = 0;
      for (const auto& w : split_list(workers_list)) {
        const int nw = std::stoi(w);
        const std::string study = "tp_" + run_tag + "_" + w;
        const std::string url = storage_url(backend, tmp, pg, "kbo_bench_workers_" + study);
        std::cerr << "throughput " << backend << " workers=" << nw << " …" << std::endl;
        const double wall = run_throughput(url, study, nw, trials, sleep_s, seed);
        if (nw == 1) base = wall;
        result["throughput"].push_back({{"backend", backend}, {"workers", nw}, {"wall_s", wall}});
        char row[256];
        std::snprintf(row, sizeof(row), "| %s | %d | %.1f | %s | %.1f |\n", backend.c_str(), nw, wall,
                      base > 0 ? (std::to_string(base / wall).substr(0, 4) + "×").c_str() : "–",
                      std::ceil(double(trials) / nw) * sleep_s);
        md << row;
        if (backend == "sqlite") std::remove(url.substr(7).c_str());
      }
    }
    md << "\n";
  }
  if (only != "throughput") {
    md << "| backend | completed trials n | ask, storage only (ms) | ask, GP-UCB default (ms) |\n|---|---|---|---|\n";
    for (const auto& backend : split_list(backends)) {
      for (int n : sizes) {
        const std::string study = "lat_" + run_tag + "_" + std::to_string(n);
        const std::string url = storage_url(backend, tmp, pg, "kbo_bench_workers_" + study);
        std::cerr << "latency " << backend << " n=" << n << " …" << std::endl;
        const Latency l = run_latency(url, study, n, reps, seed);
        result["latency"].push_back({{"backend", backend}, {"n", n}, {"storage_only_s", l.storage_only}, {"gpucb_s", l.full}});
        char row[256];
        std::snprintf(row, sizeof(row), "| %s | %d | %.2f | %.0f |\n", backend.c_str(), n, 1e3 * l.storage_only, 1e3 * l.full);
        md << row;
        if (backend == "sqlite") std::remove(url.substr(7).c_str());
      }
    }
  }
  result["load_after"] = load_average();
  md << "\nload average before / after: " << result["load_before"].get<std::string>() << " / "
     << result["load_after"].get<std::string>() << "\n";
  kbo::bench::write_text(out + "/workers.json", result.dump(2) + "\n");
  kbo::bench::write_text(out + "/workers_table.md", md.str());
  std::cout << md.str();
  return 0;
}

}  // namespace
KBO_COMMAND("bench workers", "throughput of 1-8 workers and ask latency on SQLite and PostgreSQL", run_bench_workers);
}  // namespace kbo::cli
