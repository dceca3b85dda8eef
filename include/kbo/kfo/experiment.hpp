#pragma once
// KFO end to end on a data set (used by `kbo kfo` and `kbo bench kfo`): the outer BO over Θ = (λh, l), the
// inner Algorithm-1 search over kernel functionals, the objectives (SVM k-fold CV accuracy on the training
// part / GP log marginal likelihood on the training part — never the test set), and the baselines.
#include <functional>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kbo/model/gp.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/hyperkernel.hpp"
#include "kbo/kfo/input_scales.hpp"
#include "kbo/kfo/outer.hpp"
#include "kbo/kfo/psd.hpp"
#include "kbo/kfo/search.hpp"
#include "kbo/kfo/svm.hpp"

namespace kbo::kfo {

enum class Task { Classification, Regression };
Task parse_task(const std::string& name);  // "classification" | "regression"

/// Kreĭn → PSD for GP kernels (docs/papers.md#kfo-krein-fixes): α-clipping (the paper; default), the spectrum
/// flip of the training Gram extended consistently to test points (the authors' regression code;
/// SpectrumFlipKernel), or none.
enum class GpPsdFix { AlphaClip, Flip, None };
GpPsdFix parse_gp_psd(const std::string& name);  // "alpha-clip" | "flip" | "none"
std::string to_string(GpPsdFix fix);

struct ExperimentOptions {
  BasisOptions basis;              // basis.hyper is used as Θ when tune_hyperkernel is false
  SearchOptions search;
  bool tune_hyperkernel = true;    // outer BO over Θ (Γ = the training-part objective of the best kernel found)
  OuterOptions outer;              // l bounds in units of √D when scale_l_by_dim (data distances span [0, √D])
  bool scale_l_by_dim = true;
  /// Per-dimension scales of the functional's inputs (kfo/input_scales.hpp): Ard (default, kbo's addition) fits
  /// an ARD Matérn-5/2 GP on the search's points first and learns the functional on ||s ⊙ (x − x')||; None is the
  /// paper's isotropic functional of ||x − x'||.
  InputScalingMode input_scaling = InputScalingMode::Ard;
  /// kbo extension: the search starts at the best baseline kernel (K = v·(K_base + functional)); the paper
  /// starts from K# = 0.
  bool start_from_baseline = false;
  /// The "kfo" result keeps the learned kernel only when it validates strictly better than the RBF baseline on
  /// the training part (regression: 5-fold predictive NLL with each GP's fitted hyperparameters; classification:
  /// the cross-validated accuracy on the same folds as RBF-SVM's (ℓ, C) choice), else it is the RBF baseline;
  /// the learned kernel's own result is then the "kfo_learned" row. false: always the learned kernel (the paper).
  bool fallback_to_rbf = true;
  int cv_folds = 5;                // SVM CV folds on the training part (paper: 10)
  std::vector<double> c_grid = default_c_grid();
  SpectrumFix svm_fix = SpectrumFix::Clip;   // Kreĭn → PSD for SVMs (train and test)
  GpPsdFix gp_psd = GpPsdFix::AlphaClip;           // for GPs
  int max_search_points = 300;     // the search objectives use at most this many training points
  int gp_fit_restarts = 4;
  /// Every GP fit (baselines, the search objective, the final KFO GP) is MAP with kbo's default priors
  /// (GP::default_priors; none on a functional's variance). Plain ML-II (false) is degenerate on data with
  /// repeated inputs and equal targets: the likelihood grows without bound as the noise goes to 0 and a test point
  /// near a training input of the other label costs 1e4–1e8 nats (Fertility). The search objective and the
  /// reported train score stay the log marginal likelihood.
  bool gp_map = true;
  std::uint64_t seed = 0;
  /// Progress of a run, for long runs (the CLI prints it on stderr): a phase ("baselines", "search",
  /// "final fit"), for the search the hyperkernel setting Θ k of K and evaluation j of J inside it, and
  /// the best objective value so far (CV accuracy or log marginal likelihood).
  struct Progress {
    std::string phase;
    int theta = 0, thetas = 0, evaluation = 0, evaluations = 0;
    double best = 0.0;
  };
  std::function<void(const Progress&)> progress;
};

struct MethodResult {
  std::string name;
  double test_metric = 0.0;        // classification: test error fraction; regression: test NLL (sum)
  double train_score = 0.0;        // classification: CV accuracy; regression: log marginal likelihood
  double time_s = 0.0;
  double seconds_optimising = 0.0; // KFO only: search bookkeeping (outer GPs, acquisitions)
  double seconds_evaluating = 0.0; // KFO only: inside the objective (kernel evaluation + model fitting)
  std::string kernel;
  std::shared_ptr<const FunctionalKernel> learned;  // KFO only: the learned functional (SVM: before the spectrum
                                                    // clip; GP: inside the spectrum flip when gp_psd = Flip)
  std::shared_ptr<const GP> gp;    // regression: the fitted GP (its kernel, noise and training data)
  std::string base_name;           // KFO regression from a baseline: the baseline's name (make_gp_baseline)
  double worst_point_nll = 0.0;    // regression: the largest per-point test NLL term (a diagnostic)
  /// KFO with fallback_to_rbf: "kfo" or "rbf" (which kernel the row reports), and the two validated scores
  /// the choice compared (regression: cross-validated NLL, summed; classification: CV accuracy).
  std::string selected;
  double validated_kfo = 0.0, validated_rbf = 0.0;
};

/// The kernel KFO learned and how.
struct LearnedKernel {
  HyperkernelParams theta;
  std::shared_ptr<FunctionalBasis> basis;
  Vec z;
  Vec input_scales;                // s of the functional's distance ||s ⊙ (x − x')|| (empty: isotropic)
  double train_score = 0.0;
  SearchResult search;             // of the best Θ
  OuterResult outer;               // empty when Θ was not tuned
  double seconds_optimising = 0.0, seconds_evaluating = 0.0;  // summed over all Θ evaluated
};

// ---- GP regression ----
/// Fit (noise learned, targets normalised) of kernel on (X, y): MAP with kbo's default priors when map (see
/// ExperimentOptions::gp_map), else ML-II.
GP fit_gp(KernelPtr kernel, const Mat& X, const Vec& y, int restarts, std::uint64_t seed, bool map = true);
/// Baseline kernels on D inputs: "rbf" (isotropic SE), "rbf_ard", "matern32" (isotropic), "matern32_ard",
/// "matern52_ard",
/// "mkl" (SE + Matérn-3/2 + linear, each with its own variance).
KernelPtr make_gp_baseline(const std::string& name, int dim);
/// Σ_test [½ log(2πσ²) + (y − μ)²/(2σ²)], σ² = latent variance + noise (paper eq. 1, summed as the authors do).
double test_nll(const GP& gp, const Mat& Xte, const Vec& yte);
/// The per-point terms of test_nll.
Vec test_nll_points(const GP& gp, const Mat& Xte, const Vec& yte);
/// KFO with the training log marginal likelihood as objective; base (may be null) as in start_from_baseline,
/// base_noise its fitted noise variance (start value of the noise).
LearnedKernel learn_gp_kernel(const Mat& X, const Vec& y, const ExperimentOptions& options, const Kernel* base,
                              double base_noise);
/// The GP kernel for the functional z in basis, with options.gp_psd applied (a FunctionalKernel, or a
/// SpectrumFlipKernel around one), scaled to unit prior variance at r = 0 when there is no base.
KernelPtr make_gp_functional(const FunctionalBasis& basis, const Vec& z, const ExperimentOptions& options, const Kernel* base,
                             const Vec& input_scales = Vec());
/// The GP kernel for a learned functional.
KernelPtr make_functional_kernel(const LearnedKernel& learned, const ExperimentOptions& options, const Kernel* base);

// ---- SVM classification ----
/// KFO with the k-fold CV accuracy (C tuned on the grid) of a spectrum-fixed SVM as objective.
LearnedKernel learn_svm_kernel(const Mat& X, const Labels& y, const ExperimentOptions& options);

/// All methods of the task: kfo, rbf, matern32, mkl (+ rbf_svm for classification; + rbf_ard, matern52_ard for
/// regression, where matern32 is ARD). Training data only is
/// used for every choice; the test part is used once per method for the reported metric.
std::vector<MethodResult> run_classification(const Mat& Xtr, const Labels& ytr, const Mat& Xte, const Labels& yte,
                                             const ExperimentOptions& options, const std::vector<std::string>& methods = {});
std::vector<MethodResult> run_regression(const Mat& Xtr, const Vec& ytr, const Mat& Xte, const Vec& yte,
                                         const ExperimentOptions& options, const std::vector<std::string>& methods = {});

}  // namespace kbo::kfo
