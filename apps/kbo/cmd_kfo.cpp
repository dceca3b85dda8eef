// kbo kfo: learn a kernel for a data set with Kernel Functional Optimisation (Kumar et al., NeurIPS 2021) and
// compare its held-out error / NLL with standard kernels.
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "kbo/kfo/kfo.hpp"

namespace {

using namespace kbo::kfo;
using kbo::Mat;
using kbo::Vec;

int run_kfo(int argc, char** argv) {
  CLI::App app{"Learn a kernel with KFO on CSV data (last column = target; features scaled to [0,1] on the training "
               "part) and report held-out performance against standard kernels (SE, ARD Matérn, MKL; libsvm RBF-SVM)"};
  std::string data, task_name, input_scaling = "ard", convention = "paper", svm_fix = "clip", gp_psd = "alpha-clip", save_kernel;
  bool ml_ii = false;
  double test_fraction = 0.2;
  std::uint64_t seed = 0;
  bool json = false, no_tune = false, reset_gp = false, start_from_baseline = false, no_fallback = false;
  ExperimentOptions o;
  // Default budget: 5 hyperkernel settings (3 + 2 outer BO steps) × 5 subspaces × (4 + 8) evaluations = 300
  // SVM cross-validations (sonar: ≈ 18 s on 2 shared cores, the same test error as 8 × 5 × 24 = 960 on the
  // measured splits, docs/bench/kfo.md); the paper's T = 20 and the outer BO's 5 steps are options.
  o.search.iterations = 8;
  o.outer.iterations = 2;
  app.add_option("--data", data, "CSV file: numeric, optional header, target in the last column")->required();
  app.add_option("--task", task_name, "classification (C-SVM, test error) | regression (GP, test NLL)")->required();
  app.add_option("--test-fraction", test_fraction, "held-out fraction (random split)")->capture_default_str();
  app.add_option("--seed", seed, "seed of the split and of the search")->capture_default_str();
  app.add_flag("--json", json, "print one JSON object");
  app.add_option("--subspaces", o.search.subspaces, "S, random subspaces")->capture_default_str();
  app.add_option("--iterations", o.search.iterations, "T, GP-UCB steps per subspace")->capture_default_str();
  app.add_option("--basis", o.search.basis_per_subspace, "d, basis functionals per subspace")->capture_default_str();
  app.add_option("--init", o.search.n_init_per_subspace, "random observations per subspace")->capture_default_str();
  app.add_option("--lambda-lo", o.search.lambda_lo, "lower bound of λ (authors' code: 0.1)")->capture_default_str();
  app.add_flag("--reset-gp-per-subspace", reset_gp, "outer GP sees only the current subspace (authors' code)");
  app.add_option("--base-points", o.basis.base_points, "m base grid points, Ng = m² (0: paper default)")->capture_default_str();
  app.add_option("--components", o.basis.components, "N principal components")->capture_default_str();
  app.add_option("--input-scaling", input_scaling, "ard | none: learn the functional on ARD-scaled inputs (scales from an "
                 "ARD Matérn-5/2 GP fit on the search's points) or on plain distances (the paper)")->capture_default_str();
  app.add_option("--convention", convention, "paper | code (authors' mixed grid convention, 4-point 1-D grid)")->capture_default_str();
  app.add_flag("--no-tune", no_tune, "do not tune Θ = (λh, l) by the outer BO; use --lambda-h/--hyper-l");
  app.add_option("--lambda-h", o.basis.hyper.lambda_h, "λh when not tuned")->capture_default_str();
  app.add_option("--hyper-l", o.basis.hyper.lengthscale, "hyperkernel lengthscale l when not tuned")->capture_default_str();
  app.add_option("--outer-init", o.outer.n_init, "outer BO initial points")->capture_default_str();
  app.add_option("--outer-iterations", o.outer.iterations, "outer BO steps")->capture_default_str();
  app.add_option("--cv-folds", o.cv_folds, "SVM cross-validation folds on the training part")->capture_default_str();
  app.add_option("--svm-fix", svm_fix, "clip | flip | none (Kreĭn → PSD for the SVM Gram)")->capture_default_str();
  app.add_option("--gp-psd", gp_psd, "alpha-clip | flip | none (Kreĭn → PSD for the GP kernel; flip = the authors' "
                 "regression code)")->capture_default_str();
  app.add_flag("--ml-ii", ml_ii, "plain ML-II GP fits (default: MAP with kbo's default priors, see docs/bench/kfo.md)");
  app.add_flag("--start-from-baseline", start_from_baseline, "regression: start the search at the best baseline kernel");
  app.add_flag("--no-fallback", no_fallback, "report the learned kernel even when it does not validate better than the "
               "RBF baseline on the training part (default: the kfo row is then the RBF baseline; the learned kernel's "
               "own row is kfo_learned)");
  app.add_option("--max-search-points", o.max_search_points, "training points used by the search objective")->capture_default_str();
  app.add_option("--save-kernel", save_kernel, "write the learned kernel as JSON (loadable by `kbo gp --kernel-file`; "
                 "acts on raw features: the [0,1] scaling is stored in it)");
  kbo::cli::parse(app, argc, argv);

  const Task task = parse_task(task_name);
  if (convention == "paper") o.basis.convention = GridConvention::Paper;
  else if (convention == "code") o.basis.convention = GridConvention::CodeCompat;
  else throw kbo::InputError("--convention must be paper or code (got '" + convention + "')");
  o.input_scaling = parse_input_scaling(input_scaling);
  o.svm_fix = parse_spectrum_fix(svm_fix);
  o.gp_psd = parse_gp_psd(gp_psd);
  o.gp_map = !ml_ii;
  if (o.search.subspaces < 1 || o.search.iterations < 0 || o.search.basis_per_subspace < 1 || o.search.n_init_per_subspace < 1)
    throw kbo::InputError("--subspaces, --basis and --init must be >= 1 and --iterations >= 0");
  if (o.cv_folds < 2) throw kbo::InputError("--cv-folds must be >= 2");
  if (o.basis.components < 1) throw kbo::InputError("--components must be >= 1");
  if (o.max_search_points < 10) throw kbo::InputError("--max-search-points must be >= 10");
  validate(o.basis.hyper);
  o.tune_hyperkernel = !no_tune;
  o.search.reset_gp_per_subspace = reset_gp;
  o.start_from_baseline = start_from_baseline;
  o.fallback_to_rbf = !no_fallback;
  o.seed = seed;

  // Progress on stderr: the phase, for the search Θ k of K and evaluation j of J, the best value so far and
  // the elapsed time (search lines at most every 0.5 s).
  const auto started = std::chrono::steady_clock::now();
  double last_line = -1.0;
  o.progress = [&](const ExperimentOptions::Progress& p) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const bool search_step = p.evaluations > 0;
    if (search_step && p.evaluation < p.evaluations && t - last_line < 0.5) return;
    last_line = t;
    std::fprintf(stderr, "kfo: %s", p.phase.c_str());
    if (search_step)
      std::fprintf(stderr, ", hyperkernel setting %d of %d, evaluation %d of %d, best %s %.4g", p.theta, p.thetas,
                   p.evaluation, p.evaluations,
                   task == Task::Classification ? "CV accuracy" : "log marginal likelihood", p.best);
    std::fprintf(stderr, ", %.1f s\n", t);
  };

  Dataset d = load_csv(data);
  const Split split = random_split(static_cast<int>(d.X.rows()), test_fraction, seed);
  Mat Xtr = take_rows(d.X, split.train), Xte = take_rows(d.X, split.test);
  const InputScaling scaling = fit_input_scaling(Xtr);
  minmax_scale(Xtr, Xte);
  std::pair<double, double> target_range{0.0, 1.0};
  std::vector<MethodResult> results;
  if (task == Task::Classification) {
    const Labels y = to_labels(d.y);
    results = run_classification(Xtr, take(y, split.train), Xte, take(y, split.test), o);
  } else {
    Vec ytr = take(d.y, split.train), yte = take(d.y, split.test);
    target_range = minmax_scale(ytr, yte);  // targets to [0,1] on the training part (the authors scale targets too)
    results = run_regression(Xtr, ytr, Xte, yte, o);
  }
  if (!save_kernel.empty()) {
    const MethodResult* kfo = nullptr;
    for (const auto& r : results)  // the learned kernel: its own row when the kfo row fell back to RBF
      if (r.name == "kfo_learned" || (r.name == "kfo" && !kfo)) kfo = &r;
    if (!kfo || !kfo->learned) throw kbo::InputError("--save-kernel: no KFO kernel was learned");
    nlohmann::json kj;
    if (task == Task::Regression) {
      // The fitted GP's kernel (variance included; spectrum flip when --gp-psd flip) on raw features.
      kj = kernel_to_json(kfo->gp->kernel(), kfo->base_name, scaling, kfo->gp->noise_variance());
      kj["target_range"] = {target_range.first, target_range.second};
      kj["note"] = "GP kernel on raw features; noise_variance is in standardised-target units (kbo gp --noise)";
    } else {
      kj = kernel_to_json(*kfo->learned, "", scaling);
      kj["note"] = "SVM: the raw functional; its Gram matrices are spectrum-fixed (--svm-fix) on the training part";
    }
    kj["task"] = task_name;
    kj["gp_psd"] = to_string(o.gp_psd);
    std::ofstream f(save_kernel);
    if (!f) throw kbo::InputError("cannot write --save-kernel file '" + save_kernel + "'");
    f << kj.dump(2) << "\n";
  }
  const std::string metric = task == Task::Classification ? "test_error" : "test_nll";
  if (json) {
    nlohmann::json out;
    out["task"] = task_name;
    out["data"] = data;
    out["n_train"] = split.train.size();
    out["n_test"] = split.test.size();
    out["seed"] = seed;
    for (const auto& r : results) {
      nlohmann::json m;
      m[metric] = r.test_metric;
      m["time_s"] = r.time_s;
      m[task == Task::Classification ? "cv_accuracy" : "train_lml"] = r.train_score;
      m["kernel"] = r.kernel;
      if (!r.selected.empty()) {
        m["selected"] = r.selected;
        m[task == Task::Classification ? "validated_cv_accuracy" : "validated_cv_nll"] = {{"kfo", r.validated_kfo},
                                                                                           {"rbf", r.validated_rbf}};
      }
      if (r.name == "kfo") {
        m["time_optimising_s"] = r.seconds_optimising;
        m["time_evaluating_s"] = r.seconds_evaluating;
      }
      out["methods"][r.name] = m;
    }
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "data " << data << " (" << split.train.size() << " train / " << split.test.size() << " test), task "
              << task_name << "\n";
    std::cout << std::left << std::setw(10) << "method" << std::setw(14) << metric << std::setw(10) << "time_s" << "kernel\n";
    for (const auto& r : results)
      std::cout << std::left << std::setw(10) << r.name << std::setw(14) << r.test_metric << std::setw(10)
                << std::setprecision(3) << r.time_s << std::setprecision(6) << r.kernel << "\n";
  }
  return 0;
}

}  // namespace

KBO_COMMAND("kfo", "learn a kernel with Kernel Functional Optimisation and compare with standard kernels", run_kfo);
