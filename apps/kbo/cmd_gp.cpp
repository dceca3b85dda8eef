// kbo gp: fit a GP on CSV data (last column = target) and predict at test rows.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "kbo/core/csv.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/kfo/kernel_io.hpp"

namespace {

// Features further apart than this make squared distances overflow (r² > 1e300 → inf, and the kernels'
// inf·0 → NaN); the GP models features as given, so such data is refused.
constexpr double kMaxFeatureSpan = 1e150;

/// InputError naming the file and column if a feature column spans more than kMaxFeatureSpan.
void require_modellable_features(const kbo::Mat& X, const std::string& file) {
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const double lo = X.col(j).minCoeff(), hi = X.col(j).maxCoeff();
    if (!(hi - lo <= kMaxFeatureSpan)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "feature column %ld spans %.3g to %.3g", static_cast<long>(j + 1), lo, hi);
      throw kbo::InputError("'" + file + "': " + buf +
                            ": squared distances overflow a double (at most 1e150 apart); rescale the column");
    }
  }
}

/// A power of two near max|y| (1 for all-zero targets): dividing by it is exact, and leaves the
/// standardised GP unchanged while keeping the mean and variance of the targets finite at any magnitude.
double power_of_two_scale(const kbo::Vec& y) {
  const double m = y.cwiseAbs().maxCoeff();
  return m > 0.0 ? std::ldexp(1.0, std::ilogb(m)) : 1.0;
}

int run_gp(int argc, char** argv) {
  CLI::App app{"Fit a Gaussian process on CSV data (last column = target) and predict at test rows"};
  std::string train, test, kernel = "matern52", kernel_file;
  std::optional<double> lengthscale, variance, noise;
  int restarts = 5, polish = 0;
  bool ard = false, map = false, ml = false, no_normalize = false, json = false;
  std::uint64_t seed = 0;
  app.add_option("--train", train, "training CSV (features..., target)")->required();
  app.add_option("--test", test, "test CSV (features, optionally with a target column: then RMSE is reported)");
  auto* kernel_opt = app.add_option("--kernel", kernel, "rbf | matern12 | matern32 | matern52")->capture_default_str();
  auto* ls_opt = app.add_option("--lengthscale", lengthscale, "fix the lengthscale (all dimensions)");
  // A kernel learned by `kbo kfo --save-kernel` (JSON): used as is on the raw features; --variance fixes its
  // variance, otherwise it is fitted with the noise as for the other kernels.
  auto* kf_opt = app.add_option("--kernel-file", kernel_file, "kernel JSON written by `kbo kfo --save-kernel`");
  kf_opt->excludes(kernel_opt)->excludes(ls_opt);
  app.add_option("--variance", variance, "fix the signal variance");
  app.add_option("--noise", noise, "fix the noise variance");
  app.add_option("--restarts", restarts, "random restarts of the hyperparameter fit")->capture_default_str();
  app.add_option("--polish", polish, "best starting points polished by L-BFGS (0 = automatic: 3 below 200 rows, else 1)")->capture_default_str();
  app.add_flag("--ard", ard, "one lengthscale per input dimension")->excludes(kf_opt);
  // MAP is the default: at small n ML-II lands on degenerate lengthscales (Ackley-6, n = 50: RMSE 0.67 ML-II
  // vs 0.59 MAP over five data sets; equal from n = 500 on; docs/bench/gp.md).
  auto* map_opt = app.add_flag("--map", map, "MAP with the default priors (the default)");
  app.add_flag("--ml", ml, "ML-II (maximum marginal likelihood, no priors) instead of MAP")->excludes(map_opt);
  app.add_flag("--no-normalize", no_normalize, "raw targets, zero prior mean (no standardisation)");
  app.add_option("--seed", seed, "seed of the random restarts");
  app.add_flag("--json", json, "print one JSON object");
  kbo::cli::parse(app, argc, argv);
  if (restarts < 0) throw kbo::InputError("--restarts must be >= 0");
  if (polish < 0) throw kbo::InputError("--polish must be >= 0");
  for (auto [name, v] : {std::pair{"--lengthscale", lengthscale}, {"--variance", variance}, {"--noise", noise}})
    if (v && !(*v > 0 && std::isfinite(*v))) throw kbo::InputError(std::string(name) + " must be a positive number");

  kbo::Mat X;
  kbo::Vec y;
  kbo::split_target(kbo::read_csv(train), X, y);
  if (X.rows() < 2) throw kbo::InputError("'" + train + "' has " + std::to_string(X.rows()) + " data row(s); need at least 2");
  require_modellable_features(X, train);
  if (no_normalize && !(y.cwiseAbs().maxCoeff() <= kMaxFeatureSpan))
    throw kbo::InputError("'" + train + "': with --no-normalize the targets must stay below 1e150 in magnitude (the "
                          "kernel variance would overflow); drop --no-normalize to standardise them");
  kbo::Mat Xs;
  std::optional<kbo::Vec> ys;
  if (!test.empty()) {
    kbo::Mat T = kbo::read_csv(test).values;
    if (T.cols() == X.cols()) {
      Xs = T;
    } else if (T.cols() == X.cols() + 1) {
      Xs = T.leftCols(X.cols());
      ys = T.col(X.cols());
    } else {
      throw kbo::InputError("'" + test + "' has " + std::to_string(T.cols()) + " columns; the training data has " +
                            std::to_string(X.cols()) + " features (test needs " + std::to_string(X.cols()) +
                            " columns, or " + std::to_string(X.cols() + 1) + " with a target)");
    }
    kbo::Mat both(X.rows() + Xs.rows(), X.cols());
    both << X, Xs;
    require_modellable_features(both, test);
  }

  const int dim = static_cast<int>(X.cols());
  kbo::KernelPtr k;
  if (!kernel_file.empty()) {
    k = kbo::kfo::load_kernel_file(kernel_file);
    const auto pn = k->param_names();
    if (pn.size() != 1 || pn[0] != "variance")
      throw kbo::InputError("--kernel-file: expected a kernel with one hyperparameter 'variance'");
    if (variance) k->set_log_params(kbo::Vec::Constant(1, std::log(*variance)));
    // Fail early (and name the problem) when the data has another number of features than the kernel.
    k->diag(X.topRows(1));
  } else {
    k = kbo::make_stationary(kernel, dim, ard, lengthscale.value_or(1.0), variance.value_or(1.0));
  }
  auto t0 = std::chrono::steady_clock::now();
  kbo::GP gp(std::move(k), noise.value_or(1e-2), !no_normalize, !noise.has_value());
  // Standardised targets are fitted in units of a power of two (exact), so 1e300 or 1e-300 work as 1 does.
  const double y_unit = no_normalize ? 1.0 : power_of_two_scale(y);
  gp.set_data(X, y / y_unit);
  const int P = static_cast<int>(gp.hyperparameters().size());
  kbo::FitOptions opt;
  opt.restarts = restarts;
  opt.polish = polish;
  opt.map = !ml;
  opt.seed = seed;
  opt.fit_mask.assign(P, true);
  for (int p = 0; p < P - 2; ++p) opt.fit_mask[p] = !lengthscale.has_value();
  opt.fit_mask[P - 2] = !variance.has_value();
  opt.fit_mask[P - 1] = !noise.has_value();
  bool fitted = false;
  for (bool m : opt.fit_mask) fitted = fitted || m;
  if (fitted) gp.fit(opt);
  kbo::GP::Prediction pred;
  kbo::Vec sd;
  if (Xs.rows() > 0) {
    pred = gp.predict(Xs);
    sd = pred.variance.cwiseMax(0.0).cwiseSqrt() * y_unit;
    pred.mean *= y_unit;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::optional<double> rmse;
  if (ys) rmse = y_unit * std::sqrt((pred.mean / y_unit - *ys / y_unit).squaredNorm() / static_cast<double>(ys->size()));
  // Never print NaN or inf as a result: name what could not be modelled instead.
  if (!pred.mean.allFinite() || !sd.allFinite() || !std::isfinite(gp.log_marginal_likelihood()) ||
      (rmse && !std::isfinite(*rmse))) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", y.cwiseAbs().maxCoeff());
    throw kbo::NumericalError(std::string("the fitted GP gives non-finite predictions, likelihood or RMSE for this data "
                                          "(training targets up to ") + buf + "); rescale the features or targets");
  }

  kbo::Vec theta = gp.hyperparameters();
  auto names = gp.hyperparameter_names();
  if (json) {
    nlohmann::json out;
    out["kernel"] = gp.kernel().describe();
    out["log_marginal_likelihood"] = gp.log_marginal_likelihood();
    nlohmann::json hp = nlohmann::json::object();
    for (int p = 0; p < P; ++p) hp[names[p]] = std::exp(theta[p]);
    out["hyperparameters"] = hp;
    out["mean"] = std::vector<double>(pred.mean.data(), pred.mean.data() + pred.mean.size());
    out["std"] = std::vector<double>(sd.data(), sd.data() + sd.size());
    if (rmse) out["rmse"] = *rmse;
    out["time_s"] = seconds;
    std::cout << out.dump() << "\n";
    return 0;
  }
  std::printf("kernel: %s\nnoise variance: %g%s\nlog marginal likelihood: %.6f\n", gp.kernel().describe().c_str(),
              gp.noise_variance(), no_normalize ? "" : " (standardised units)", gp.log_marginal_likelihood());
  if (Xs.rows() > 0) {
    std::printf("%6s %14s %14s\n", "row", "mean", "std");
    for (Eigen::Index i = 0; i < Xs.rows(); ++i)
      std::printf("%6ld %14.6g %14.6g\n", static_cast<long>(i + 1), pred.mean[i], sd[i]);
  }
  if (rmse) std::printf("test RMSE: %.6g\n", *rmse);
  std::printf("time: %.3f s\n", seconds);
  return 0;
}

KBO_COMMAND("gp", "fit a GP on CSV data and predict (ML-II/MAP or fixed hyperparameters)", run_gp);

}  // namespace
