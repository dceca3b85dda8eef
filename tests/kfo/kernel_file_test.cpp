// The learned kernel is a Kernel like any other: saved as JSON (kernel_to_json) and loaded by
// `kbo gp --kernel-file`, it reproduces the in-process KFO GP's predictions on the raw (unscaled) data.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <random>

#include "cli/cli_support.hpp"
#include "kbo/kfo/data.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/flip_kernel.hpp"
#include "kbo/kfo/kernel_io.hpp"

using namespace kbo;
using namespace kbo::kfo;
using kbo::test::TempDir;

namespace {

void write_csv(const std::string& path, const Mat& X, const Vec* y) {
  std::ofstream f(path);
  f << std::setprecision(17);
  for (int j = 0; j < X.cols(); ++j) f << "x" << j << (j + 1 < X.cols() || y ? "," : "");
  f << (y ? "y" : "") << "\n";
  for (int i = 0; i < X.rows(); ++i) {
    for (int j = 0; j < X.cols(); ++j) f << X(i, j) << (j + 1 < X.cols() || y ? "," : "");
    if (y) f << (*y)(i);
    f << "\n";
  }
}

struct Variant {
  const char* name;
  GpPsdFix psd;
  bool from_baseline;
};

}  // namespace

class KfoKernelFile : public ::testing::TestWithParam<Variant> {};

TEST_P(KfoKernelFile, KboGpReproducesTheInProcessKfoGp) {
  const Variant v = GetParam();
  // Raw features on very different scales and offsets: the file must carry the [0,1] scaling.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int n = 50;
  Mat X(n, 2);
  Vec y(n);
  for (int i = 0; i < n; ++i) {
    X(i, 0) = -5.0 + 10.0 * u(rng);
    X(i, 1) = 100.0 + 50.0 * u(rng);
    y(i) = 20.0 + 3.0 * std::sin(X(i, 0)) + 0.05 * (X(i, 1) - 100.0) + 0.2 * (u(rng) - 0.5);
  }
  const Split split = random_split(n, 0.2, 4);
  const Mat Xtr_raw = take_rows(X, split.train), Xte_raw = take_rows(X, split.test);
  Mat Xtr = Xtr_raw, Xte = Xte_raw;
  const InputScaling scaling = fit_input_scaling(Xtr);
  minmax_scale(Xtr, Xte);
  const Vec ytr_raw = take(y, split.train);
  Vec ytr = ytr_raw, yte = take(y, split.test);
  const auto [lo, hi] = minmax_scale(ytr, yte);

  ExperimentOptions o;
  o.tune_hyperkernel = false;
  o.basis.hyper = {0.5, 0.4};
  o.search.subspaces = 1;
  o.search.iterations = 2;
  o.search.n_init_per_subspace = 2;
  o.gp_fit_restarts = 1;
  o.gp_psd = v.psd;
  o.start_from_baseline = v.from_baseline;
  o.fallback_to_rbf = false;  // the saved kernel is the learned one; compare with its own GP
  o.seed = 2;
  const auto res = run_regression(Xtr, ytr, Xte, yte, o, v.from_baseline ? std::vector<std::string>{"rbf", "kfo"}
                                                                          : std::vector<std::string>{"kfo"});
  const MethodResult& kfo = res.back();
  ASSERT_EQ(kfo.name, "kfo");
  ASSERT_TRUE(kfo.gp);
  EXPECT_EQ(v.from_baseline, !kfo.base_name.empty());
  EXPECT_EQ(v.psd == GpPsdFix::Flip, dynamic_cast<const SpectrumFlipKernel*>(&kfo.gp->kernel()) != nullptr);
  const GP::Prediction ref = kfo.gp->predict(Xte);  // [0,1]-scaled targets

  TempDir dir(std::string("kfo_kernel_file_") + v.name);
  const nlohmann::json kj = kernel_to_json(kfo.gp->kernel(), kfo.base_name, scaling, kfo.gp->noise_variance());
  {
    std::ofstream f(dir / "k.json");
    f << std::setprecision(17) << kj.dump(2);
  }
  // The library loader gives the same kernel values on raw inputs as the fitted kernel on scaled ones.
  KernelPtr loaded = load_kernel_file(dir / "k.json");
  loaded->condition_on(Xtr_raw);
  const Mat K0 = kfo.gp->kernel().cross(Xte, Xtr), K1 = loaded->cross(Xte_raw, Xtr_raw);
  EXPECT_LT((K0 - K1).cwiseAbs().maxCoeff(), 1e-9 * K0.cwiseAbs().maxCoeff());

  write_csv(dir / "train.csv", Xtr_raw, &ytr_raw);
  write_csv(dir / "test.csv", Xte_raw, nullptr);
  std::ostringstream args;
  args << std::setprecision(17) << "gp --train " << kbo::test::quote(dir / "train.csv") << " --test "
       << kbo::test::quote(dir / "test.csv") << " --kernel-file " << kbo::test::quote(dir / "k.json") << " --variance "
       << kj["variance"].get<double>() << " --noise " << kfo.gp->noise_variance() << " --json";
  const auto r = kbo::test::run_kbo(args.str(), dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = r.json();
  ASSERT_EQ(j["mean"].size(), static_cast<std::size_t>(Xte.rows()));
  const double span = hi - lo;
  for (int i = 0; i < Xte.rows(); ++i) {
    // kbo gp predicts raw targets: the same GP up to the affine target map (the GP standardises targets).
    EXPECT_NEAR(j["mean"][i].get<double>(), lo + span * ref.mean(i), 1e-6 * span) << i;
    EXPECT_NEAR(j["std"][i].get<double>(), span * std::sqrt(std::max(ref.variance(i), 0.0)), 1e-6 * span) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, KfoKernelFile,
                         ::testing::Values(Variant{"alpha_clip", GpPsdFix::AlphaClip, false},
                                           Variant{"flip", GpPsdFix::Flip, false},
                                           Variant{"from_baseline", GpPsdFix::AlphaClip, true}),
                         [](const auto& info) { return std::string(info.param.name); });
