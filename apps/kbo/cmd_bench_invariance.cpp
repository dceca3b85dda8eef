// `kbo bench invariance`: paper 003's Table 2 / Figure 4 protocol (see bench/invariance_bench.hpp).
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "bench_support.hpp"
#include "command.hpp"
#include "invariance_bench.hpp"
#include "report.hpp"

namespace {
using namespace kbo;
using namespace kbo::bench;
using kbo::cli::split_list;

struct Job {
  std::string task, variant;
  int seed;
  BoTrace trace;
};

// Runs every job on `jobs` worker threads (each run is single-threaded), in a fixed job order.
void run_jobs(std::vector<Job>& jobs, const std::map<std::string, InvarianceTask>& tasks, const BoProtocol& p,
              int workers) {
  std::mutex mu;
  std::size_t next = 0, done = 0;
  auto work = [&] {
    for (;;) {
      std::size_t i;
      {
        std::lock_guard<std::mutex> lk(mu);
        if (next >= jobs.size()) return;
        i = next++;
      }
      Job& j = jobs[i];
      j.trace = run_invariant_bo(tasks.at(j.task), kernel_variant(j.variant), static_cast<std::uint64_t>(j.seed), p);
      std::lock_guard<std::mutex> lk(mu);
      ++done;
      std::cerr << "[" << done << "/" << jobs.size() << "] " << j.task << " " << j.variant << " seed " << j.seed
                << ": " << std::fixed << std::setprecision(1) << j.trace.seconds << " s, final "
                << std::setprecision(2) << j.trace.cumulative.back() << "\n";
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

std::string fmt(double v, int prec = 1) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(prec) << v;
  return s.str();
}

int run(int argc, char** argv) {
  CLI::App app{"Symmetry-aware BO (Bardou et al.): base vs averaged vs max kernel under GP-UCB"};
  std::string tasks_arg = "ackley2d,griewank6d,rastrigin5d,radial2d,scaling2d,wlan8d,ackley2d-fpf,griewank6d-fpf,rastrigin5d-fpf";
  std::string variants_arg = "base,avg,avg-norm,max,max-proj";
  std::string sweep_arg = "2,3,4,5,6";
  std::string sweep_variants_arg = "base,avg,max";
  std::string out = "docs/bench/invariance";
  int seeds = 10, sweep_seeds = 5, iters = 50, n_init = 5, jobs = 2;
  double sweep_avg_max_order = 5000;
  bool no_perf = false, no_sweep = false;
  BoProtocol p;
  p.acq.raw_samples = 256;
  p.acq.num_starts = 4;
  p.acq.max_evaluations = 60;
  app.add_option("--tasks", tasks_arg, "comma-separated tasks: " + invariance_task_names());
  app.add_option("--variants", variants_arg, "kernels: base, avg, avg-norm, max, max-proj, default (kbo optimize --invariance G with the product defaults)");
  app.add_option("--seeds", seeds, "seeds per task and kernel (seeds 0..N-1)");
  app.add_option("--iters", iters, "GP-UCB iterations after the initial design");
  app.add_option("--n-init", n_init, "uniform initial points");
  app.add_option("--sweep", sweep_arg, "dimensions of the Ackley/Rastrigin group-size sweep ('' to skip)");
  app.add_option("--sweep-seeds", sweep_seeds, "seeds per sweep cell");
  app.add_option("--sweep-variants", sweep_variants_arg, "kernels of the sweep");
  app.add_option("--sweep-avg-max-order", sweep_avg_max_order,
                 "skip the averaged kernel in the sweep above this group order (its cost is O(|G|) per entry)");
  app.add_flag("--no-sweep", no_sweep, "skip the group-size sweep");
  app.add_flag("--no-perf", no_perf, "skip the timing figures");
  app.add_option("--raw-samples", p.acq.raw_samples, "acquisition optimiser: Sobol candidates");
  app.add_option("--starts", p.acq.num_starts, "acquisition optimiser: L-BFGS starts");
  app.add_option("--acq-evals", p.acq.max_evaluations, "acquisition optimiser: evaluations per L-BFGS run");
  app.add_option("--fit-restarts", p.fit_restarts, "GP fit: random restarts besides the warm start");
  app.add_option("--jobs", jobs, "BO runs in parallel (each single-threaded)");
  app.add_option("--out", out, "output directory (results.json, tables.md, *.svg)");
  cli::parse(app, argc, argv);
  if (seeds < 1 || iters < 1 || n_init < 1 || jobs < 1) throw InputError("--seeds, --iters, --n-init, --jobs must be >= 1");
  p.iterations = iters;
  p.n_init = n_init;
  p.acq.threads = 1;

  const auto t_start = std::chrono::steady_clock::now();
  std::map<std::string, InvarianceTask> tasks;
  const auto task_names = split_list(tasks_arg);
  const auto variants = split_list(variants_arg);
  for (const auto& v : variants) kernel_variant(v);  // validate
  for (const auto& t : task_names) tasks.emplace(t, make_invariance_task(t));

  nlohmann::json result;
  result["protocol"] = {{"n_init", n_init},
                        {"iterations", iters},
                        {"seeds", seeds},
                        {"beta", "0.5*d*log(2t)"},
                        {"noise", "1% of the function variance over the box"},
                        {"fit", "MAP on the base kernel (every variant)"},
                        {"acq", {{"raw_samples", p.acq.raw_samples}, {"starts", p.acq.num_starts},
                                 {"evaluations", p.acq.max_evaluations}}},
                        {"fit_restarts", p.fit_restarts}};
  std::ostringstream md;
  md << "# kbo bench invariance — generated tables\n\nProtocol: GP-UCB, " << n_init << " uniform initial points, " << iters
     << " iterations, seeds 0.." << seeds - 1 << ", β_t = 0.5·d·log(2t), noise variance 1% of the function variance, "
     << "hyperparameters MAP-fitted on the base kernel. Cumulative regret over the BO iterations (lower is better); WLAN: best throughput found, initial design included (Mbps, HIGHER is better; the paper plots its negation). Mean ± std over seeds.\n\n";

  // ---- main table
  std::vector<Job> jobs_v;
  if (!task_names.empty()) {
  for (const auto& t : task_names)
    for (const auto& v : variants)
      for (int s = 0; s < seeds; ++s) jobs_v.push_back({t, v, s, {}});
  run_jobs(jobs_v, tasks, p, jobs);
  md << "| task | |G| |";
  for (const auto& v : variants) md << " " << v << " |";
  md << "\n|---|---|";
  for (std::size_t i = 0; i < variants.size(); ++i) md << "---|";
  md << "\n";
  nlohmann::json jt = nlohmann::json::object();
  for (const auto& t : task_names) {
    const auto& task = tasks.at(t);
    std::vector<Series> series;
    md << "| " << t << " | " << task.group << " |";
    for (const auto& v : variants) {
      std::vector<double> finals, secs;
      std::vector<std::vector<double>> curves;
      for (const auto& j : jobs_v)
        if (j.task == t && j.variant == v) {
          finals.push_back(task.has_fmin ? j.trace.cumulative.back() : -j.trace.cumulative.back());
          curves.push_back(j.trace.cumulative);
          secs.push_back(j.trace.seconds);
        }
      md << " " << fmt_mean_std(finals, task.has_fmin ? 1 : 1) << " |";
      Series s{v, {}, {}, {}};
      for (int i = 0; i < iters; ++i) {
        std::vector<double> col;
        for (const auto& c : curves) col.push_back(task.has_fmin ? c[i] : -c[i]);
        const auto ms = mean_std(col);
        s.x.push_back(i + 1);
        s.mean.push_back(ms.mean);
        s.std.push_back(ms.std);
      }
      series.push_back(s);
      jt[t][v] = {{"final", finals}, {"mean_curve", s.mean}, {"std_curve", s.std}, {"seconds", secs}};
    }
    md << "\n";
    jt[t]["description"] = task.description;
    jt[t]["noise_variance"] = task.noise_variance;
    write_line_plot_svg(out + "/" + t + ".svg", t + " (" + task.group + ")", "iteration",
                        task.has_fmin ? "cumulative regret" : "best throughput so far (Mbps, higher is better)", series, false);
  }
  result["tasks"] = jt;
  md << "\nWall time per run (s, mean): ";
  for (const auto& t : task_names)
    for (const auto& v : variants) {
      std::vector<double> secs;
      for (const auto& j : jobs_v)
        if (j.task == t && j.variant == v) secs.push_back(j.trace.seconds);
      md << t << "/" << v << " " << fmt(mean_std(secs).mean, 1) << "; ";
    }
  md << "\n";
  }  // main table

  // ---- group-size sweep
  const auto dims = split_list(sweep_arg);
  if (!no_sweep && !dims.empty()) {
    const auto sv = split_list(sweep_variants_arg);
    std::map<std::string, InvarianceTask> st;
    std::vector<Job> sj;
    std::vector<std::string> skipped;
    for (const std::string fn : {"ackley", "rastrigin"})
      for (const auto& d : dims) {
        const std::string name = fn + d + "d";
        st.emplace(name, make_invariance_task(name));
        const double order = std::ldexp(1.0, std::stoi(d)) * std::tgamma(std::stoi(d) + 1.0);
        for (const auto& v : sv) {
          if (v.rfind("avg", 0) == 0 && order > sweep_avg_max_order) {
            skipped.push_back(name + "/" + v);
            continue;
          }
          for (int s = 0; s < sweep_seeds; ++s) sj.push_back({name, v, s, {}});
        }
      }
    run_jobs(sj, st, p, jobs);
    md << "\n## Group-size sweep (average regret after " << iters << " iterations, " << sweep_seeds << " seeds)\n\n| task | |G| |";
    for (const auto& v : sv) md << " " << v << " |";
    md << "\n|---|---|";
    for (std::size_t i = 0; i < sv.size(); ++i) md << "---|";
    md << "\n";
    nlohmann::json js = nlohmann::json::object();
    for (const std::string fn : {"ackley", "rastrigin"}) {
      std::vector<Series> series;
      for (const auto& v : sv) series.push_back({v, {}, {}, {}});
      for (const auto& d : dims) {
        const std::string name = fn + d + "d";
        const int di = std::stoi(d);
        md << "| " << name << " | " << fmt(std::ldexp(1.0, di) * std::tgamma(di + 1.0), 0) << " |";
        for (std::size_t k = 0; k < sv.size(); ++k) {
          std::vector<double> avg;
          for (const auto& j : sj)
            if (j.task == name && j.variant == sv[k]) avg.push_back(j.trace.cumulative.back() / iters);
          if (avg.empty()) {
            md << " skipped |";
            continue;
          }
          md << " " << fmt_mean_std(avg, 2) << " |";
          const auto ms = mean_std(avg);
          series[k].x.push_back(di);
          series[k].mean.push_back(ms.mean);
          series[k].std.push_back(ms.std);
          js[name][sv[k]] = avg;
        }
        md << "\n";
      }
      write_line_plot_svg(out + "/sweep_" + fn + ".svg", fn + ": average regret after " + std::to_string(iters) +
                          " iterations vs d (G = B_d)", "d", "average regret", series, false);
    }
    if (!skipped.empty()) {
      md << "\nSkipped (averaged kernel, |G| > " << sweep_avg_max_order << "): ";
      for (const auto& s : skipped) md << s << " ";
      md << "\n";
    }
    js["skipped"] = skipped;
    result["sweep"] = js;
  }

  // ---- timing
  if (!no_perf) {
    BoProtocol pp = p;
    pp.acq.threads = 1;
    const auto perf = invariance_performance(pp);
    result["performance"] = perf;
    const auto& g = perf["gram_n200_rastrigin5d"];
    const auto& h = perf["hyperoctahedral_d10_per_entry"];
    md << "\n## Performance (process CPU time)\n\n| figure | value |\n|---|---|\n";
    md << "| max-kernel Gram n=200, B_5 (3840): fast path | " << fmt(g["fast_seconds"].get<double>() * 1e3, 2) << " ms |\n";
    md << "| same, brute-force enumeration | " << fmt(g["brute_seconds"].get<double>(), 2) << " s |\n";
    md << "| ratio brute/fast | " << fmt(g["ratio"].get<double>(), 0) << "x (max |diff| "
       << g["max_abs_difference"].get<double>() << ") |\n";
    md << "| B_10 (3.7e9) fast path per entry | " << fmt(h["fast_path_ns"].get<double>(), 0) << " ns |\n";
    md << "| plain Matérn-5/2 entry (d=10) | " << fmt(h["plain_matern_ns"].get<double>(), 1) << " ns (ratio "
       << fmt(h["ratio"].get<double>(), 1) << ") |\n";
    for (const auto& r : perf["bo_iteration_rastrigin5d"])
      md << "| BO iteration n=" << r["n"].get<int>() << ": base / max / max-proj | "
         << fmt(r["base_seconds"].get<double>(), 3) << " / " << fmt(r["max_seconds"].get<double>(), 3) << " / "
         << fmt(r["max-proj_seconds"].get<double>(), 3) << " CPU s |\n";
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  result["wall_seconds"] = wall;
  md << "\nTotal wall time: " << fmt(wall, 0) << " s.\n";
  write_text(out + "/tables.md", md.str());
  result["machine"] = kbo::bench::machine_description();
  write_text(out + "/results.json", result.dump(1));
  std::cout << md.str();
  return 0;
}

KBO_COMMAND("bench invariance", "regret of BO with the orbit-averaged and max invariant kernels vs the plain kernel", run);
}  // namespace
