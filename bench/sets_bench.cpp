#include "sets_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <numeric>
#include <random>
#include <sstream>

#include "clustering.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "report.hpp"
#include "sets_problems.hpp"

namespace kbo::bench {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
// Process CPU seconds: on a shared, oversubscribed machine wall time mostly measures waiting for a core;
// with OPENBLAS_NUM_THREADS=1 the Gram computation is single-threaded, so CPU time is its cost.
double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

std::string sci(double v, int p = 3) {
  std::ostringstream os;
  os << std::scientific << std::setprecision(p) << v;
  return os.str();
}
std::string fix(double v, int p = 3) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(p) << v;
  return os.str();
}
std::string pm_sci(const std::vector<double>& v) {
  const MeanStd s = mean_std(v);
  return sci(s.mean) + " ± " + sci(s.std);
}

Mat standard_normal(int rows, int cols, Rng& rng) {
  std::normal_distribution<double> nd;
  Mat M(rows, cols);
  for (int i = 0; i < M.size(); ++i) M(i) = nd(rng);
  return M;
}

StrategyConfig bo_config(const SetsBenchOptions& o, std::uint64_t seed) {
  StrategyConfig c;
  c.seed = seed;
  c.n_init = o.n_init;
  c.fit_restarts = 1;
  c.acquisition = "ucb";
  c.beta = 4.0;
  c.acq_optimizer.type = AcqOptimizerType::Cmaes;
  c.acq_optimizer.num_starts = 4;
  c.acq_optimizer.raw_samples = 256;
  c.module_options = o.module_options;
  return c;
}
}  // namespace

// ---------------------------------------------------------------- Table 1
nlohmann::json run_sets_table1(const SetsBenchOptions& o, std::string& md) {
  const int m = 1000, d = 50;
  Rng rng = make_rng(o.seed + 1);
  const Mat X = standard_normal(1, m * d, rng), Y = standard_normal(1, m * d, rng);
  const StationaryKernel base(StationaryType::Matern52, d, false, 1.0, 1.0);
  SetKernel full(base, m, d);
  const double c0 = cpu_now();
  const double exact = full.cross(X, Y)(0, 0);
  const double exact_seconds = cpu_now() - c0;
  nlohmann::json rows = nlohmann::json::array();
  md += "### Table 1 — approximation of k_set (two sets of 1000 standard-normal 50-d points, Matérn-5/2, ℓ = 1)\n\n";
  md += "Exact k_set = " + sci(exact) + " (" + fix(exact_seconds * 1e3, 1) + " ms CPU). " +
        std::to_string(o.table1_draws) + " draws per L.\n\n";
  md += "| L | k̃_set, Algorithm 1 (shared w, π) | k_set of independent random subsets (Thm 1's assumption) | CPU time per evaluation (s) |\n";
  md += "|---|---|---|---|\n";
  std::vector<double> Ls, mean_alg, std_alg, times;
  for (int L : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}) {
    SetKernel approx(base, m, d, SetKernelMode::Approx, L, 0);
    std::vector<double> vals, indep, secs;
    for (int t = 0; t < o.table1_draws; ++t) {
      approx.reseed(o.seed * 1000 + 17 * L + t);
      const double c0 = cpu_now();
      vals.push_back(approx.cross(X, Y)(0, 0));  // includes projection, sorting and selection
      secs.push_back(cpu_now() - c0);
      // Independent uniform L-subsets of the two sets (what Theorem 1's proof assumes).
      Rng r2 = make_rng(o.seed * 7777 + 31 * L + t);
      std::vector<int> ia(m), ib(m);
      std::iota(ia.begin(), ia.end(), 0);
      std::iota(ib.begin(), ib.end(), 0);
      std::shuffle(ia.begin(), ia.end(), r2);
      std::shuffle(ib.begin(), ib.end(), r2);
      Mat xs(1, L * d), ys(1, L * d);
      for (int j = 0; j < L; ++j) {
        xs.block(0, j * d, 1, d) = X.block(0, ia[j] * d, 1, d);
        ys.block(0, j * d, 1, d) = Y.block(0, ib[j] * d, 1, d);
      }
      SetKernel sub(base, L, d);
      indep.push_back(sub.cross(xs, ys)(0, 0));
    }
    const MeanStd ms = mean_std(vals), ts = mean_std(secs);
    md += "| " + std::to_string(L) + " | " + pm_sci(vals) + " | " + pm_sci(indep) + " | " + pm_sci(secs) + " |\n";
    rows.push_back({{"L", L}, {"values", vals}, {"independent_subsets", indep}, {"seconds", secs}});
    Ls.push_back(L);
    mean_alg.push_back(ms.mean);
    std_alg.push_back(ms.std);
    times.push_back(ts.mean);
  }
  md += "\n";
  write_line_plot_svg(o.out_dir + "/table1_kernel.svg", "Approximate set kernel vs L (m=1000, d=50)", "L",
                      "k̃_set", {{"Algorithm 1", Ls, mean_alg, std_alg}, {"exact", Ls, std::vector<double>(Ls.size(), exact), {}}});
  write_line_plot_svg(o.out_dir + "/table1_time.svg", "CPU time per k̃_set evaluation", "L", "CPU seconds (log10)",
                      {{"time", Ls, times, {}}}, true);
  return {{"exact", exact}, {"exact_seconds", exact_seconds}, {"rows", rows}};
}

// ---------------------------------------------------------------- Table 2 / Fig. 4
nlohmann::json run_sets_synthetic(const SetsBenchOptions& o, std::string& md) {
  nlohmann::json out = nlohmann::json::object();
  for (const SetProblem& p : {synthetic1(20), synthetic2(20)}) {
    md += "### " + p.name + " (m = " + std::to_string(p.m) + ", d = " + std::to_string(p.d) + ", global min " +
          fix(p.optimum, 4) + ")\n\n";
    md += "Best value after " + std::to_string(o.budget) + " evaluations (" + std::to_string(o.n_init) +
          " initial), mean ± std over " + std::to_string(o.seeds) + " seeds; time per run (s).\n\n";
    md += "| method | best f | wall time per run (s) | CPU time per run (s) |\n|---|---|---|---|\n";
    nlohmann::json pj = nlohmann::json::object();
    std::vector<Series> curves;
    for (const std::string& method : o.synthetic_methods) {
      std::vector<double> finals, secs, model_secs, cpu_secs;
      std::vector<std::vector<double>> traj;
      for (int s = 0; s < o.seeds; ++s) {
        auto strat = make_set_method(method, p, bo_config(o, o.seed + 101 * s + 1));
        const SetRunResult r = run_set_bo(*strat, p, o.budget);
        finals.push_back(r.best_so_far.back());
        secs.push_back(r.seconds);
        model_secs.push_back(r.model_seconds);
        cpu_secs.push_back(r.cpu_seconds);
        traj.push_back(r.best_so_far);
        // Partial results after every run: a run cut short by the CPU budget keeps what finished.
        pj[method] = {{"final_best", finals}, {"seconds", secs}, {"model_seconds", model_secs},
                      {"cpu_seconds", cpu_secs}, {"curves", traj}};
        out[p.name] = pj;
        write_text(o.out_dir + "/partial.json", out.dump(1) + "\n");
      }
      Series sr{method, {}, {}, {}};
      for (int t = 0; t < o.budget; ++t) {
        std::vector<double> col;
        for (auto& tr : traj) col.push_back(tr[t]);
        const MeanStd ms = mean_std(col);
        sr.x.push_back(t + 1);
        sr.mean.push_back(ms.mean);
        sr.std.push_back(ms.std);
      }
      curves.push_back(sr);
      md += "| " + method + " | " + fmt_mean_std(finals, 3) + " | " + fmt_mean_std(secs, 1) + " | " +
            fmt_mean_std(cpu_secs, 1) + " |\n";
      pj[method] = {{"final_best", finals}, {"seconds", secs}, {"model_seconds", model_secs},
                    {"cpu_seconds", cpu_secs}, {"curves", traj}};
    }
    md += "\n![" + p.name + "](" + p.name + ".svg)\n\n";
    write_line_plot_svg(o.out_dir + "/" + p.name + ".svg", p.name + ": best f vs evaluations (mean ± std)",
                        "evaluations", "best f", curves);
    out[p.name] = pj;
  }
  return out;
}

// ---------------------------------------------------------------- Table 3 / Fig. 5–6
namespace {
struct ClusterTask {
  std::string name, algo;  // algo: kmeans | gmm
  Split split;
  int k;
  Box box;
};

double cluster_objective(const ClusterTask& t, const Mat& centres) {
  std::vector<int> pred;
  if (t.algo == "kmeans") {
    pred = nearest_centre(t.split.test.X, kmeans(t.split.train.X, centres));
  } else {
    try {
      pred = gmm_predict(fit_gmm(t.split.train.X, centres), t.split.test.X);
    } catch (const NumericalError&) {
      return 1.0;  // degenerate mixture: as bad as a random labelling
    }
  }
  return 1.0 - adjusted_rand_index(pred, t.split.test.labels);
}

Box data_box(const Mat& X) {
  Vec lo = X.colwise().minCoeff().transpose(), hi = X.colwise().maxCoeff().transpose();
  for (int k = 0; k < lo.size(); ++k)
    if (hi(k) - lo(k) < 1e-9) lo(k) -= 0.5, hi(k) += 0.5;  // constant pixels of digits
  return Box(lo, hi);
}
}  // namespace

nlohmann::json run_sets_clustering(const SetsBenchOptions& o, std::string& md) {
  std::vector<ClusterTask> tasks;
  {
    auto wanted = [&](const std::string& key) {
      return o.clustering_tasks.empty() ||
             std::find(o.clustering_tasks.begin(), o.clustering_tasks.end(), key) != o.clustering_tasks.end();
    };
    const LabeledData blobs = make_blobs(500, 5, 10, o.seed + 5);
    const Split s = train_test_split(blobs, 0.7, o.seed + 6);
    if (wanted("blobs_kmeans")) tasks.push_back({"blobs", "kmeans", s, 10, data_box(blobs.X)});
    if (wanted("blobs_gmm")) tasks.push_back({"blobs", "gmm", s, 10, data_box(blobs.X)});
    if (wanted("digits_kmeans")) {
      const LabeledData digits = load_labeled_csv("data/digits.csv");
      const Split sd = train_test_split(digits, 0.7, o.seed + 7);
      tasks.push_back({"digits", "kmeans", sd, 10, data_box(digits.X)});
    }
  }
  nlohmann::json out = nlohmann::json::object();
  for (const ClusterTask& t : tasks) {
    const std::string key = t.name + "_" + t.algo;
    md += "### Clustering initialisation: " + t.algo + " on " + t.name + " (N = " +
          std::to_string(t.split.train.X.rows() + t.split.test.X.rows()) + ", d = " +
          std::to_string(t.split.train.X.cols()) + ", k = " + std::to_string(t.k) + ")\n\n";
    md += "Objective 1 − ARI on the 30% test part after fitting on the 70% train part (minimised). BO: best after " +
          std::to_string(o.clustering_budget) + " evaluations, " + std::to_string(o.seeds) +
          " seeds. Baselines: " + std::to_string(o.baseline_runs) +
          " single runs (mean ± std) and, comparable to BO, the best of " + std::to_string(o.clustering_budget) +
          " runs (mean ± std over " + std::to_string(o.seeds) + " groups).\n\n";
    md += "| method | 1 − ARI (single run) | 1 − ARI (best of budget) | time (s) |\n|---|---|---|---|\n";
    nlohmann::json tj = nlohmann::json::object();
    // Baselines.
    std::vector<std::string> baselines = {"random", "data", t.algo == "kmeans" ? "kmeans++" : "kmeans"};
    for (const std::string& b : baselines) {
      const auto t0 = Clock::now();
      Rng rng = make_rng(o.seed + std::hash<std::string>{}(key + b));
      auto init = [&]() -> Mat {
        const Mat& X = t.split.train.X;
        if (b == "random") {
          Mat C(t.k, X.cols());
          for (int j = 0; j < t.k; ++j)
            for (int c = 0; c < X.cols(); ++c)
              C(j, c) = std::uniform_real_distribution<double>(t.box.lower(c), t.box.upper(c))(rng);
          return C;
        }
        if (b == "data") {
          Mat C(t.k, X.cols());
          std::vector<int> idx(X.rows());
          std::iota(idx.begin(), idx.end(), 0);
          std::shuffle(idx.begin(), idx.end(), rng);
          for (int j = 0; j < t.k; ++j) C.row(j) = X.row(idx[j]);
          return C;
        }
        const Mat pp = kmeans_pp_init(X, t.k, rng);
        return b == "kmeans" ? kmeans(X, pp) : pp;  // GMM's "k-means" baseline: k-means++ then k-means
      };
      const int total = std::max(o.baseline_runs, o.seeds * o.clustering_budget);
      std::vector<double> vals;
      for (int r = 0; r < total; ++r) vals.push_back(cluster_objective(t, init()));
      const double secs = since(t0) / total;
      std::vector<double> single(vals.begin(), vals.begin() + o.baseline_runs), best_of;
      for (int s = 0; s < o.seeds; ++s)
        best_of.push_back(*std::min_element(vals.begin() + s * o.clustering_budget,
                                            vals.begin() + (s + 1) * o.clustering_budget));
      md += "| " + b + " | " + fmt_mean_std(single, 3) + " | " + fmt_mean_std(best_of, 3) + " | " +
            sci(secs, 2) + " per run |\n";
      tj[b] = {{"single", single}, {"best_of_budget", best_of}, {"seconds_per_run", secs}};
    }
    out[key] = tj;
    // BO over sets of k centres.
    SetProblem p;
    p.name = key;
    p.m = t.k;
    p.d = static_cast<int>(t.split.train.X.cols());
    p.element_box = t.box;
    p.f = [&t](const Vec& x) { return cluster_objective(t, SetSpace::to_elements(x, t.k, static_cast<int>(x.size() / t.k))); };
    std::vector<Series> curves;
    for (const std::string& method : o.clustering_methods) {
      std::vector<double> finals, secs, cpu_secs;
      std::vector<std::vector<double>> traj;
      for (int s = 0; s < o.seeds; ++s) {
        StrategyConfig c = bo_config(o, o.seed + 211 * s + 3);
        if (p.d > 20) c.acq_optimizer.num_starts = 2;  // digits: 640-d CMA-ES runs are the cost
        auto strat = make_set_method(method, p, c);
        const SetRunResult r = run_set_bo(*strat, p, o.clustering_budget);
        finals.push_back(r.best_so_far.back());
        secs.push_back(r.seconds);
        cpu_secs.push_back(r.cpu_seconds);
        traj.push_back(r.best_so_far);
        // Partial results after every run: a run cut short by the CPU budget keeps what finished.
        tj[method] = {{"final_best", finals}, {"seconds", secs}, {"cpu_seconds", cpu_secs}, {"curves", traj}};
        out[key] = tj;
        write_text(o.out_dir + "/partial.json", out.dump(1) + "\n");
      }
      Series sr{method, {}, {}, {}};
      for (int i = 0; i < o.clustering_budget; ++i) {
        std::vector<double> col;
        for (auto& tr : traj) col.push_back(tr[i]);
        const MeanStd ms = mean_std(col);
        sr.x.push_back(i + 1);
        sr.mean.push_back(ms.mean);
        sr.std.push_back(ms.std);
      }
      curves.push_back(sr);
      md += "| BO " + method + " | — | " + fmt_mean_std(finals, 3) + " | " + fmt_mean_std(secs, 1) + " wall, " +
            fmt_mean_std(cpu_secs, 1) + " CPU per run |\n";
      tj[method] = {{"final_best", finals}, {"seconds", secs}, {"cpu_seconds", cpu_secs}, {"curves", traj}};
    }
    md += "\n![" + key + "](" + key + ".svg)\n\n";
    write_line_plot_svg(o.out_dir + "/" + key + ".svg", key + ": best 1 − ARI vs evaluations", "evaluations",
                        "best 1 − ARI", curves);
    out[key] = tj;
  }
  return out;
}

// ---------------------------------------------------------------- performance
nlohmann::json run_sets_perf(const SetsBenchOptions& o, std::string& md) {
  const int n = o.perf_n, m = o.perf_m, d = o.perf_d;
  Rng rng = make_rng(o.seed + 9);
  const Mat X = standard_normal(n, m * d, rng);
  const StationaryKernel base(StationaryType::Matern52, d, false, 5.0);
  nlohmann::json out = nlohmann::json::object();

  // GEMM reference: square products through the same Eigen/BLAS path.
  const int g = 2000;
  const Mat A = standard_normal(g, g, rng), B = standard_normal(g, g, rng);
  Mat C = A * B;  // warm-up
  double best_gemm = 1e300, best_gemm_cpu = 1e300;
  for (int r = 0; r < 3; ++r) {
    const auto t0 = Clock::now();
    const double c0 = cpu_now();
    C.noalias() = A * B;
    best_gemm = std::min(best_gemm, since(t0));
    best_gemm_cpu = std::min(best_gemm_cpu, cpu_now() - c0);
  }
  const double gemm_flops = 2.0 * g * double(g) * g / best_gemm;
  const double gemm_flops_cpu = 2.0 * g * double(g) * g / best_gemm_cpu;

  // The distance GEMM alone, at the shapes the kernel uses (kChunkElements-sided chunks of the stacked, scaled
  // elements, chunks on or above the diagonal, the same BLAS call): the ceiling of the fraction the full
  // kernel can reach.
  double gemm_alone_cpu = 0, gemm_alone_pairs = 0;
  {
    Mat Z(static_cast<Eigen::Index>(n) * m, d);
    for (int s = 0; s < n; ++s)
      for (int i = 0; i < m; ++i) Z.row(static_cast<Eigen::Index>(s) * m + i) = X.row(s).segment(i * d, d) / 5.0;
    const double c0 = cpu_now();
    gemm_alone_pairs = set_kernel_distance_gemms(Z);
    gemm_alone_cpu = cpu_now() - c0;
  }
  const double gemm_alone_rate = 2.0 * d * gemm_alone_pairs / gemm_alone_cpu;

  md += "### Gram matrix of n = " + std::to_string(n) + " sets, m = " + std::to_string(m) + ", d = " +
        std::to_string(d) + " (Matérn-5/2)\n\n";
  const std::string auto_pass = set_kernel_pass_name();
  md += "Per-pair pass chosen on this CPU: " + auto_pass +
        (set_kernel_uses_avx512() ? " (intrinsics, own vector exp)"
                                  : set_kernel_uses_avx2() ? " (libmvec exp/sqrt)" : " (no AVX2+FMA on this CPU)") +
        ". GEMM reference (" + std::to_string(g) + "³, best of 3): " + fix(gemm_flops_cpu / 1e9, 2) +
        " GFLOP/s per CPU second (" + fix(gemm_flops / 1e9, 2) + " per wall second). The distance GEMMs alone, at the "
        "kernel's shapes (" + sci(gemm_alone_pairs, 2) + " element pairs in " +
        std::to_string(SetKernel::kChunkElements) + "-sided chunks): " + fix(gemm_alone_rate / 1e9, 2) +
        " GFLOP/s per CPU second = " + fix(gemm_alone_rate / gemm_flops_cpu, 3) + " of the reference (the ceiling of the "
        "fraction below). Flops counted: 2·d per element pair of the n(n+1)/2 set pairs (the distance GEMM only; "
        "the sqrt, exp and sums of the profile pass are not counted).\n\n";
  md += "| L | pass | CPU time (s) | wall time (s) | speed-up vs full (CPU) | (m/L)² | distance-GEMM GFLOP/s (CPU) | fraction of GEMM (CPU) |\n|---|---|---|---|---|---|---|---|\n";
  nlohmann::json rows = nlohmann::json::array();
  double full_time = 0, full_cpu = 0;
  std::vector<int> Ls = o.perf_L;
  std::sort(Ls.rbegin(), Ls.rend());  // full (L = m) first
  std::vector<double> xs, ts;
  auto run_one = [&](int L, SetKernelPath path) {
    const bool chosen = path == SetKernelPath::Auto;
    SetKernel k(base, m, d, L == m ? SetKernelMode::Full : SetKernelMode::Approx, L, 3);
    set_set_kernel_path(path);
    const std::string pass = set_kernel_pass_name();
    const auto t0 = Clock::now();
    const double c0 = cpu_now();
    const Mat K = k.gram(X);
    const double secs = since(t0), cpu = cpu_now() - c0;
    set_set_kernel_path(SetKernelPath::Auto);
    if (L == m && chosen) full_time = secs, full_cpu = cpu;
    // Element pairs a symmetric evaluation must process: n(n+1)/2 set pairs of L x L elements.
    const double pairs = 0.5 * n * (n + 1.0) * double(L) * L;
    const double flops = 2.0 * pairs * d;
    const double rate = flops / std::max(cpu, 1e-9);
    md += "| " + std::to_string(L) + " | " + pass + " | " + sci(cpu) + " | " + sci(secs) + " | " +
          fix(full_cpu / std::max(cpu, 1e-9), 1) + " | " + fix(std::pow(double(m) / L, 2), 1) + " | " +
          fix(rate / 1e9, 2) + " | " + fix(rate / gemm_flops_cpu, 3) + " |\n";
    rows.push_back({{"L", L}, {"pass", pass}, {"seconds", secs}, {"cpu_seconds", cpu}, {"pairs", pairs},
                    {"gflops_cpu", rate / 1e9}, {"fraction_of_gemm_cpu", rate / gemm_flops_cpu}, {"trace", K.trace()}});
    if (chosen) {
      xs.push_back(L);
      ts.push_back(cpu);
    }
  };
  for (int L : Ls) {
    if (L > m) continue;
    run_one(L, SetKernelPath::Auto);
    if (L == m) {  // the other passes this CPU runs, for comparison
      set_set_kernel_path(SetKernelPath::Avx2);
      const bool avx2_differs = set_kernel_uses_avx2() && auto_pass != "AVX2";
      set_set_kernel_path(SetKernelPath::Auto);
      if (avx2_differs) run_one(L, SetKernelPath::Avx2);
      if (auto_pass != "generic") run_one(L, SetKernelPath::Generic);
    }
  }
  md += "\n";
  write_line_plot_svg(o.out_dir + "/perf_gram.svg", "Gram CPU time vs L (n=100, m=1000, d=50)", "L",
                      "CPU seconds (log10)", {{"gram", xs, ts, {}}}, true);
  out["gram"] = rows;
  out["gemm_gflops"] = gemm_flops / 1e9;
  out["gemm_gflops_cpu"] = gemm_flops_cpu / 1e9;
  out["distance_gemm_alone"] = {{"cpu_seconds", gemm_alone_cpu}, {"pairs", gemm_alone_pairs},
                                {"gflops_cpu", gemm_alone_rate / 1e9},
                                {"fraction_of_gemm_cpu", gemm_alone_rate / gemm_flops_cpu}};
  out["pass"] = auto_pass;

  // Time per BO iteration on Synthetic 2 (m = 20, d = 2) with the full set kernel at n = 100.
  const SetProblem p = synthetic2(20);
  SetSpace space(p.m, p.element_box);
  Rng r2 = make_rng(o.seed + 11);
  const Mat Xs = space.sample(100, SamplingMethod::Uniform, r2);
  Vec y(100);
  for (int i = 0; i < 100; ++i) y(i) = -p.f(Xs.row(i).transpose());
  std::vector<double> iter, iter_cpu, fit, acq;
  for (int rep = 0; rep < 3; ++rep) {
    auto strat = make_set_method("set", p, bo_config(o, o.seed + rep));
    const auto t0 = Clock::now();
    const double c0 = cpu_now();
    strat->suggest(Xs, y, Mat(0, Xs.cols()), 100);
    iter.push_back(since(t0));
    iter_cpu.push_back(cpu_now() - c0);
    const auto info = strat->last_info();
    fit.push_back(info.value("fit_seconds", 0.0));
    acq.push_back(info.value("acq_seconds", 0.0));
  }
  md += "### Time per BO iteration, Synthetic 2 (m = 20, d = 2), full set kernel, n = 100 observed sets\n\n";
  md += "| total wall (s) | total CPU, all threads (s) | hyperparameter fit, wall (s) | acquisition (CMA-ES), wall (s) |\n|---|---|---|---|\n";
  md += "| " + fmt_mean_std(iter, 2) + " | " + fmt_mean_std(iter_cpu, 2) + " | " + fmt_mean_std(fit, 2) + " | " +
        fmt_mean_std(acq, 2) + " |\n\n";
  out["bo_iteration"] = {{"seconds", iter}, {"cpu_seconds", iter_cpu}, {"fit_seconds", fit}, {"acq_seconds", acq}};
  return out;
}

}  // namespace kbo::bench
