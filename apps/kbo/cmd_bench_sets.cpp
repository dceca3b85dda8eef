// kbo bench sets: paper 001's experiments (Table 1 kernel approximation, Table 2 synthetic functions,
// Table 3 clustering initialisation) and the set-kernel performance study. Writes
// <out>/results.json, <out>/results.md and SVG plots.
#include <algorithm>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench_support.hpp"
#include "command.hpp"
#include "report.hpp"
#include "sets_bench.hpp"

namespace {

using kbo::cli::split_list;

int run_bench_sets(int argc, char** argv) {
  CLI::App app{"Reproduce Kim et al. (BO over sets): Tables 1-3 and the set-kernel performance study"};
  kbo::bench::SetsBenchOptions o;
  std::string parts = "table1,synthetic,clustering,perf", methods, cmethods, ctasks;
  app.add_option("--out", o.out_dir, "output directory (results.json, results.md, *.svg)");
  app.add_option("--parts", parts, "comma list of table1,synthetic,clustering,perf");
  app.add_option("--seeds", o.seeds, "repetitions of every BO run (paper: 10)")->check(CLI::Range(1, 1000));
  app.add_option("--budget", o.budget, "evaluations per synthetic BO run, initial design included")->check(CLI::Range(2, 100000));
  app.add_option("--clustering-budget", o.clustering_budget, "evaluations per clustering BO run")->check(CLI::Range(2, 100000));
  app.add_option("--n-init", o.n_init, "initial design size (paper: 5)")->check(CLI::Range(1, 1000));
  app.add_option("--table1-draws", o.table1_draws, "draws per L in Table 1 (paper: 10)")->check(CLI::Range(1, 100000));
  app.add_option("--baseline-runs", o.baseline_runs, "single runs of each clustering baseline (paper: 1000)")->check(CLI::Range(1, 1000000));
  app.add_option("--perf-n", o.perf_n, "sets in the performance Gram matrix")->check(CLI::Range(1, 100000));
  app.add_option("--perf-m", o.perf_m, "elements per set in the performance Gram matrix")->check(CLI::Range(1, 100000));
  app.add_option("--perf-d", o.perf_d, "element dimension in the performance Gram matrix")->check(CLI::Range(1, 100000));
  app.add_option("--methods", methods, "synthetic methods: comma list of vector,split,set,approx-L,default (kbo optimize --space set defaults)");
  app.add_option("--clustering-methods", cmethods, "clustering BO methods: comma list of vector,split,set,approx-L,default");
  app.add_option("--clustering-tasks", ctasks, "clustering tasks: comma list of blobs_kmeans,blobs_gmm,digits_kmeans (default: all)");
  app.add_option("--seed", o.seed, "base seed");
  std::string options;
  app.add_option("--options", options,
                 "module options as `kbo optimize --options` takes them, for every BO method, e.g. "
                 "'{\"bo\": {\"avoid_coincident\": true}}'");
  kbo::cli::parse(app, argc, argv);
  if (!options.empty()) {
    o.module_options = nlohmann::json::parse(options, nullptr, /*allow_exceptions=*/false);
    if (!o.module_options.is_object())
      throw kbo::InputError("--options must be a JSON object of sections, e.g. '{\"bo\": {\"avoid_coincident\": true}}'");
  }
  o.parts = split_list(parts);
  for (const auto& p : o.parts)
    if (p != "table1" && p != "synthetic" && p != "clustering" && p != "perf")
      throw kbo::InputError("--parts: unknown part '" + p + "' (allowed: table1, synthetic, clustering, perf)");
  if (!methods.empty()) o.synthetic_methods = split_list(methods);
  if (!cmethods.empty()) o.clustering_methods = split_list(cmethods);
  for (const auto& t : split_list(ctasks)) {
    if (t != "blobs_kmeans" && t != "blobs_gmm" && t != "digits_kmeans")
      throw kbo::InputError("--clustering-tasks: unknown task '" + t + "' (allowed: blobs_kmeans, blobs_gmm, digits_kmeans)");
    o.clustering_tasks.push_back(t);
  }

  nlohmann::json all = nlohmann::json::object();
  std::string md;
  auto has = [&](const char* p) { return std::find(o.parts.begin(), o.parts.end(), p) != o.parts.end(); };
  if (has("table1")) all["table1"] = kbo::bench::run_sets_table1(o, md), std::cerr << "table1 done\n";
  if (has("perf")) all["perf"] = kbo::bench::run_sets_perf(o, md), std::cerr << "perf done\n";
  if (has("synthetic")) all["synthetic"] = kbo::bench::run_sets_synthetic(o, md), std::cerr << "synthetic done\n";
  if (has("clustering")) all["clustering"] = kbo::bench::run_sets_clustering(o, md), std::cerr << "clustering done\n";
  all["options"] = {{"seeds", o.seeds}, {"budget", o.budget}, {"clustering_budget", o.clustering_budget},
                    {"n_init", o.n_init}, {"table1_draws", o.table1_draws}, {"baseline_runs", o.baseline_runs},
                    {"seed", o.seed}, {"clustering_tasks", o.clustering_tasks}, {"module_options", o.module_options}};
  all["machine"] = kbo::bench::machine_description();
  kbo::bench::write_text(o.out_dir + "/results.json", all.dump(1) + "\n");
  kbo::bench::write_text(o.out_dir + "/results.md", md);
  std::cout << md;
  return 0;
}

}  // namespace

KBO_COMMAND("bench sets", "set kernels: approximation error and cost, BO on synthetic and clustering tasks",
            run_bench_sets);
