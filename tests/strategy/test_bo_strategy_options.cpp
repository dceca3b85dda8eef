// BOModelOptions (StrategyConfig::module_options["bo"]): parsing, validation, and that each knob reaches
// the fit; plus `kbo bench bo`'s variant switches (--seeds lists, --bo KEY=VALUE) end to end.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/problems.hpp"

using namespace kbo;
namespace fs = std::filesystem;

namespace {

// n points of pure noise on [0,1]^2: no structure, so an unconstrained fit puts most of the variance
// into the noise term.
void noise_data(int n, Mat& X, Vec& y) {
  Rng rng = make_rng(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  X = BoxSpace(Box::unit(2)).sample(n, SamplingMethod::Uniform, rng);
  y.resize(n);
  for (int i = 0; i < n; ++i) y(i) = normal(rng);
}

// The mechanisms tested here were measured with the near-exact noise model: on these tests' pure-noise
// data the default ("infer") would spend the step on a replicate (noise_inference_test.cpp tests that).
StrategyConfig with_bo(nlohmann::json bo) {
  StrategyConfig c;
  c.seed = 4;
  if (bo.is_object() && !bo.contains("noise") && !bo.contains("bogus")) bo["noise"] = "exact";
  c.module_options["bo"] = bo;
  return c;
}

double fitted_noise(const nlohmann::json& bo) {
  Mat X;
  Vec y;
  noise_data(30, X, y);
  BOStrategy s(with_bo(bo), std::make_shared<BoxSpace>(Box::unit(2)));
  s.suggest(X, y, Mat(0, 2), 30);
  return s.model()->noise_variance();
}

int run_kbo(const std::string& args) {
  std::string command = KBO_BINARY " ";  // appended, not a chain of operator+ temporaries (GCC 12
  command += args;                        // -Warray-bounds false positive)
  command += " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(BOModelOptions, DefaultsRoundTripAndMissingKeyIsDefault) {
  const BOModelOptions d;
  EXPECT_EQ(BOModelOptions::from_json(nlohmann::json()).to_json(), d.to_json());
  EXPECT_EQ(BOModelOptions::from_json(nlohmann::json::object()).to_json(), d.to_json());
  EXPECT_EQ(BOModelOptions::from_json(d.to_json()).to_json(), d.to_json());
  const auto o = BOModelOptions::from_json({{"noise", "free"}, {"fixed_start_lengthscale", 1.0}, {"warm_start", false}});
  EXPECT_EQ(o.noise, NoiseModel::Free);
  EXPECT_EQ(o.fixed_start_lengthscale, 1.0);
  EXPECT_FALSE(o.warm_start);
  EXPECT_EQ(o.alt_kernel, d.alt_kernel);
  // A strategy built without module_options["bo"] uses the defaults.
  BOStrategy s(StrategyConfig{}, std::make_shared<BoxSpace>(Box::unit(2)));
  EXPECT_EQ(s.model_options().to_json(), d.to_json());
}

TEST(BOModelOptions, BadKeysAndValuesAreInputErrors) {
  EXPECT_THROW(BOModelOptions::from_json({{"noise_flor", 1e-4}}), InputError);  // typo: unknown key
  EXPECT_THROW(BOModelOptions::from_json(nlohmann::json::array()), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"noise", "loud"}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"noise", 1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"restart_lengthscale_min", 2.0}, {"restart_lengthscale_max", 1.0}}),
               InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"lengthscale_prior_rate", -1.0}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"warm_start", 1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"fit_evaluations", 0}}), InputError);
  EXPECT_THROW(BOStrategy(with_bo({{"bogus", 1}}), std::make_shared<BoxSpace>(Box::unit(2))), InputError);
  try {
    BOModelOptions::from_json({{"bogus", 1}});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("warm_start"), std::string::npos) << "the message lists the allowed keys";
  }
}

TEST(BOModelOptions, NoiseBoundsBindTheFit) {
  // On pure noise the free model explains most of the variance as noise (> 0.3 of the standardised
  // variance); the near-exact model's noise is at most its cap (0.01): the bounds reach the optimiser.
  EXPECT_GT(fitted_noise({{"noise", "free"}}), 0.3);
  EXPECT_LE(fitted_noise({{"noise", "exact"}}), NoiseLevels::exact_cap * (1 + 1e-9));
}

TEST(BOModelOptions, TheLateNoiseFloorBindsOnceTheDataAreMany) {
  // A smooth noise-free function: the MAP noise falls to whichever floor binds. With 30 observations the
  // floor (1e-6) binds; with 200 (NoiseLevels::late_floor_from) the late floor (1e-8) does, so the fitted
  // noise lies below the early floor and not below the late one.
  auto noise = [&](int n) {
    Rng rng = make_rng(11);
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    Mat X(n, 2);
    Vec y(n);
    for (int i = 0; i < n; ++i) {
      X(i, 0) = unif(rng), X(i, 1) = unif(rng);
      y[i] = std::sin(3.0 * X(i, 0)) + std::cos(2.0 * X(i, 1));
    }
    // No target warp: the half-rank warp bends the lower half, which the fit partly calls noise.
    BOStrategy s(with_bo({{"output_warp", "none"}}), std::make_shared<BoxSpace>(Box::unit(2)));
    s.suggest(X, y, Mat(0, 2), n);
    return s.model()->noise_variance();
  };
  static_assert(NoiseLevels::late_floor_from == 200);
  const double early = noise(30);
  EXPECT_GE(early, NoiseLevels::floor * (1 - 1e-9));
  EXPECT_LT(early, 1e-5) << "the early floor binds on noise-free data";
  const double late = noise(200);
  EXPECT_GE(late, NoiseLevels::late_floor * (1 - 1e-9));
  EXPECT_LT(late, NoiseLevels::floor);
}

TEST(BOModelOptions, RetiredNoiseKeysTranslateOrNameTheirReplacement) {
  // The README once told noisy users to set noise_cap 1: it still means the free noise level.
  EXPECT_EQ(BOModelOptions::from_json({{"noise_cap", 1}}).noise, NoiseModel::Free);
  EXPECT_EQ(BOModelOptions::from_json({{"noise_cap", 0.01}}).noise, NoiseModel::Exact);
  EXPECT_EQ(BOModelOptions::from_json({{"noise_cap", 1}, {"noise", "infer"}}).noise, NoiseModel::Infer);
  // A stored study's old default values are the fixed levels of today: accepted.
  EXPECT_EQ(BOModelOptions::from_json({{"noise_floor", 1e-6}, {"late_noise_floor_from", 200}}).to_json(),
            BOModelOptions{}.to_json());
  for (const nlohmann::json& bad : {nlohmann::json{{"noise_cap", 0.5}}, nlohmann::json{{"noise_floor", 1e-4}},
                                    nlohmann::json{{"local_noise_cap", 2}}, nlohmann::json{{"noise_floor", "x"}}}) {
    try {
      BOModelOptions::from_json(bad);
      ADD_FAILURE() << bad.dump();
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("options.bo." + bad.begin().key() + " was removed; use "), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(BOModelOptions, FixedStartWithoutOtherStartsIsWhereTheFitStarts) {
  // Only the fixed start (no warm start, no random restarts) and one objective evaluation: the fit
  // cannot move, so the model's lengthscales are exactly the fixed start's.
  Mat X;
  Vec y;
  noise_data(12, X, y);
  StrategyConfig c = with_bo({{"fixed_start_lengthscale", 0.7}, {"noise", "exact"}, {"warm_start", false},
                              {"fit_evaluations", 1}});
  c.fit_restarts = 0;
  BOStrategy s(c, std::make_shared<BoxSpace>(Box::unit(2)));
  s.suggest(X, y, Mat(0, 2), 12);
  const Vec theta = s.model()->hyperparameters();
  ASSERT_EQ(theta.size(), 4);  // 2 lengthscales, variance, noise
  EXPECT_NEAR(theta[0], std::log(0.7), 1e-12);
  EXPECT_NEAR(theta[1], std::log(0.7), 1e-12);
  EXPECT_NEAR(theta[2], 0.0, 1e-12);
  EXPECT_NEAR(theta[3], std::log(NoiseLevels::fixed_start), 1e-12);
}

TEST(BOModelOptions, PriorMeanChoosesHowTheGpSeesTheTargets) {
  Mat X;
  Vec y;
  noise_data(8, X, y);
  const double sd = std::sqrt((y.array() - y.mean()).square().sum() / 7.0);
  // "worst" (the default) without a target warp: a zero-mean GP (no standardisation, no constant term)
  // on (y − min y) / std(y).
  BOStrategy worst(with_bo({{"output_warp", "none"}}), std::make_shared<BoxSpace>(Box::unit(2)));
  worst.suggest(X, y, Mat(0, 2), 8);
  EXPECT_FALSE(worst.model()->normalizes());
  EXPECT_EQ(worst.model()->kernel().describe().find("constant mean"), std::string::npos);
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(worst.model()->y()[i], (y[i] - y.minCoeff()) / sd, 1e-12);
  // The default adds the half-rank warp: the values above the median keep their relative gaps (only the
  // lower half is rank-warped), so on the upper half the default's targets are an increasing affine map
  // of the unwarped model's: every gap ratio is the same positive constant.
  BOStrategy dflt(StrategyConfig{}, std::make_shared<BoxSpace>(Box::unit(2)));
  dflt.suggest(X, y, Mat(0, 2), 8);
  EXPECT_EQ(dflt.model_options().output_warp, OutputWarp::HalfRank);
  const double med = quantile_of(y, 0.5);
  std::vector<int> upper;
  for (int i = 0; i < 8; ++i)
    if (y[i] > med) upper.push_back(i);
  ASSERT_GE(upper.size(), 3u);
  auto gap_ratio = [&](int i, int j) {
    return (dflt.model()->y()[i] - dflt.model()->y()[j]) / (worst.model()->y()[i] - worst.model()->y()[j]);
  };
  const double r0 = gap_ratio(upper[0], upper[1]);
  EXPECT_GT(r0, 0.0);
  for (std::size_t k = 2; k < upper.size(); ++k) EXPECT_NEAR(gap_ratio(upper[0], upper[k]), r0, 1e-9 * r0);
  // … and the lower half is not (its values are rank-warped): the affine map of the upper half fails there.
  const int low = static_cast<int>(std::min_element(y.data(), y.data() + 8) - y.data());
  EXPECT_GT(std::abs(gap_ratio(upper[0], low) - r0), 1e-6 * r0);
  // "quantile" 1: the prior mean is the best value seen, so every target is ≤ 0.
  BOStrategy top(with_bo({{"prior_mean", "quantile"}, {"mean_quantile", 1.0}}), std::make_shared<BoxSpace>(Box::unit(2)));
  top.suggest(X, y, Mat(0, 2), 8);
  EXPECT_NEAR(top.model()->y().maxCoeff(), 0.0, 1e-15);
  // "gls": the standardising GP with the kernel + c term; "sample": standardising, no term.
  BOStrategy gls(with_bo({{"prior_mean", "gls"}}), std::make_shared<BoxSpace>(Box::unit(2)));
  gls.suggest(X, y, Mat(0, 2), 8);
  EXPECT_TRUE(gls.model()->normalizes());
  EXPECT_NE(gls.model()->kernel().describe().find("constant mean"), std::string::npos);
  BOStrategy sample(with_bo({{"prior_mean", "sample"}}), std::make_shared<BoxSpace>(Box::unit(2)));
  sample.suggest(X, y, Mat(0, 2), 8);
  EXPECT_TRUE(sample.model()->normalizes());
  EXPECT_EQ(sample.model()->kernel().describe().find("constant mean"), std::string::npos);
  EXPECT_THROW(BOModelOptions::from_json({{"prior_mean", "best"}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"mean_quantile", 1.5}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"output_warp", "sqrt"}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"alt_kernel", "matern72"}}), InputError);
}

TEST(BOModelOptions, ConstantObjectiveValuesStillGiveASuggestion) {
  // A constant objective: the worst-seen prior mean makes every target exactly 0, which has no scale of
  // its own; the fit must still work (it once failed from every start: the raw-target bounds collapsed).
  auto space = std::make_shared<BoxSpace>(Box::unit(3));
  Rng rng = make_rng(1);
  const Mat X = space->sample(4, SamplingMethod::Uniform, rng);
  for (const char* mean : {"worst", "quantile", "gls", "sample"}) {
    BOStrategy s(with_bo({{"prior_mean", mean}}), space);
    for (int n : {2, 4}) {
      const Vec x = s.suggest(X.topRows(n), Vec::Constant(n, 3.5), Mat(0, 3), 10 + n);  // past the design
      EXPECT_TRUE(space->bounds().contains(x)) << mean << " n=" << n;
      EXPECT_EQ(s.last_info()["phase"], "bo");
    }
  }
}

TEST(BOModelOptions, AlternativeKernelIsKeptOnlyWhenItsFitObjectiveIsHigher) {
  // Independent truth: the same strategy with each kernel alone (alt_kernel none). The two-kernel
  // strategy must report the larger of the two fit objectives and that kernel, on a smooth objective
  // (a draw from an RBF GP) and a rough one (a draw from a Matérn-1/2 GP: continuous, nowhere
  // differentiable); each single-kernel run fits from the same starts.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Rng rng = make_rng(3);
  const int n = 60;
  const Mat X = space->sample(n, SamplingMethod::Uniform, rng);
  std::normal_distribution<double> normal(0.0, 1.0);
  Vec e(n);
  for (int i = 0; i < n; ++i) e[i] = normal(rng);
  auto gp_draw = [&](const std::string& kernel) {
    Mat K = make_stationary(kernel, 2, false, 0.3, 1.0)->gram(X);
    K.diagonal().array() += 1e-8;
    return Vec(Eigen::LLT<Mat>(K).matrixL() * e);
  };
  auto objective_of = [&](const std::string& kernel, const std::string& alt, const Vec& y, std::string* chosen) {
    StrategyConfig c = with_bo({{"alt_kernel", alt}});
    c.kernel = kernel;
    BOStrategy s(c, space);
    s.suggest(X, y, Mat(0, 2), n);
    if (chosen) *chosen = s.last_info()["kernel"].get<std::string>();
    return s.last_info()["fit_objective"].get<double>();
  };
  std::vector<std::string> picked;
  for (int rough = 0; rough < 2; ++rough) {
    const Vec y = gp_draw(rough ? "matern12" : "rbf");
    const double m52 = objective_of("matern52", "none", y, nullptr);
    const double m32 = objective_of("matern32", "none", y, nullptr);
    std::string chosen;
    const double both = objective_of("matern52", "matern32", y, &chosen);
    EXPECT_DOUBLE_EQ(both, std::max(m52, m32));
    EXPECT_EQ(chosen.rfind(m32 > m52 ? "matern32" : "matern52", 0), 0u) << chosen;
    picked.push_back(chosen.substr(0, 8));
  }
  // The evidence separates the two cases: the smooth draw keeps 5/2, the rough one picks 3/2.
  EXPECT_EQ(picked[0], "matern52");
  EXPECT_EQ(picked[1], "matern32");
}

TEST(BenchBoCli, SeedListsAndVariantOptionsReachTheJson) {
  const fs::path dir = fs::temp_directory_path() / ("kbo_bench_bo_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_EQ(run_kbo("bench bo --only quality --problems branin --methods gpucb --seeds 7,9-10 --init 3 --iters 2 "
                    "--bo noise=exact --fit-restarts 1 --trace --out " + dir.string()),
            0);
  std::ifstream in(dir / "quality.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["seeds"], nlohmann::json({7, 9, 10}));
  EXPECT_EQ(j["methods"], nlohmann::json({"gpucb"}));
  EXPECT_EQ(j["gpucb_config"]["bo"]["noise"], "exact");
  EXPECT_EQ(j["gpucb_config"]["fit_restarts"], 1);
  const auto& m = j["problems"]["branin"]["gpucb"];
  EXPECT_EQ(m["final"].size(), 3u);
  EXPECT_EQ(m["curves"][0].size(), 5u);     // 3 initial + 2 iterations
  EXPECT_EQ(m["trace"][0].size(), 2u);      // one entry per BO iteration
  EXPECT_FALSE(j["problems"]["branin"].contains("random"));
  fs::remove_all(dir);
  // Bad seed lists and unknown variant options: exit code 2, before any run.
  EXPECT_EQ(run_kbo("bench bo --only quality --seeds 5-3 --out " + dir.string()), 2);
  EXPECT_EQ(run_kbo("bench bo --only quality --seeds 1,,2 --out " + dir.string()), 2);
  EXPECT_EQ(run_kbo("bench bo --only quality --seeds x --out " + dir.string()), 2);
  EXPECT_EQ(run_kbo("bench bo --only quality --bo nosuchkey=1 --out " + dir.string()), 2);
  EXPECT_EQ(run_kbo("bench bo --only quality --bo noise --out " + dir.string()), 2);
  EXPECT_FALSE(fs::exists(dir / "quality.json"));
}

TEST(BOModelOptions, HmcMarginalisedUcbWhileDataAreFew) {
  // hmc_max_n = 12: with 12 observations the UCB averages hmc_keep = 4 HMC draws (reported in
  // last_info), with 13 it is the MAP model's; both give a point in the box.
  Mat X;
  Vec y;
  noise_data(13, X, y);
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  StrategyConfig c = with_bo({{"hmc_max_n", 12}, {"hmc_warmup", 60}, {"hmc_samples", 20}, {"hmc_keep", 4}});
  BOStrategy s(c, space);
  const Vec a = s.suggest(X.topRows(12), y.head(12), Mat(0, 2), 12);
  EXPECT_TRUE(space->bounds().contains(a));
  EXPECT_EQ(s.last_info()["hmc_draws"], 4);
  const Vec b = s.suggest(X, y, Mat(0, 2), 13);
  EXPECT_TRUE(space->bounds().contains(b));
  EXPECT_FALSE(s.last_info().contains("hmc_draws"));
  EXPECT_THROW(BOModelOptions::from_json({{"hmc_keep", 50}, {"hmc_samples", 40}}), InputError);
}

TEST(BOModelOptions, ExploitStepsTakeTheModelsBestGuess) {
  // exploit_every = 2 with the default 5 initial points: BO steps 2, 4, … (trial indices 6, 8, …) maximise
  // the posterior mean (exploit_beta 0). Independent truth: a 101 × 101 grid of the same posterior mean;
  // the suggestion's mean is at least the grid's best (up to the grid's own resolution on a smooth mean).
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Rng rng = make_rng(3);
  const Mat X = space->sample(12, SamplingMethod::Uniform, rng);
  Vec y(12);
  for (int i = 0; i < 12; ++i) y[i] = -std::pow(X(i, 0) - 0.3, 2) - 2.0 * std::pow(X(i, 1) - 0.6, 2);
  BOStrategy s(with_bo({{"exploit_every", 2}}), space);
  const Vec greedy = s.suggest(X, y, Mat(0, 2), 6);
  EXPECT_EQ(s.last_info().value("exploit", false), true);
  EXPECT_EQ(s.last_info()["beta"], 0.0);
  Mat grid(101 * 101, 2);
  for (int i = 0; i <= 100; ++i)
    for (int j = 0; j <= 100; ++j) grid.row(i * 101 + j) << i / 100.0, j / 100.0;
  const double grid_best = s.model()->predict(grid).mean.maxCoeff();
  const double at_greedy = s.model()->predict(greedy.transpose()).mean[0];
  EXPECT_GE(at_greedy, grid_best - 1e-9);
  // The greedy point is near the quadratic's maximum (0.3, 0.6), the data's best guess.
  EXPECT_LT(std::hypot(greedy[0] - 0.3, greedy[1] - 0.6), 0.1);
  // The other steps are UCB with the configured beta (default 4).
  s.suggest(X, y, Mat(0, 2), 7);
  EXPECT_FALSE(s.last_info().contains("exploit"));
  EXPECT_EQ(s.last_info()["beta"], 4.0);
  EXPECT_THROW(BOModelOptions::from_json({{"exploit_every", -1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"exploit_beta", -0.5}}), InputError);
  // As a user runs it: `kbo optimize ... --options` with the option, and a bad value is exit 2.
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"exploit_every\": 2}}'"), 0);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"exploit_every\": -2}}'"), 2);
}

TEST(BOStrategyOptions, LocalStepStaysInTheIncumbentsNeighbourhoodAndFindsItsMinimum) {
  // local_every = 1: every BO step is a local step. Data: a 3 × 3 grid (spacing 0.06) on a bowl with its
  // maximum at (0.3, 0.6), plus points far away with values 1e6 lower (the global targets' range dwarfs the
  // bowl's). With local_points 9 the trust region is the box the 9 grid points span around the incumbent;
  // the suggestion must lie in it and, the local model being a fit of the bowl alone, near its maximum.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Mat X(15, 2);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) X.row(3 * a + b) << 0.28 + 0.06 * (a - 1), 0.62 + 0.06 * (b - 1);
  X.bottomRows(6) << 0.9, 0.1, 0.95, 0.95, 0.05, 0.05, 0.8, 0.9, 0.05, 0.95, 0.7, 0.2;  // far away, far worse
  Vec y(15);
  for (int i = 0; i < 15; ++i) {
    const double bowl = -std::pow(X(i, 0) - 0.3, 2) - 2.0 * std::pow(X(i, 1) - 0.6, 2);
    y[i] = i < 9 ? bowl : bowl - 1e6;
  }
  Eigen::Index best;
  y.maxCoeff(&best);
  BOStrategy s(with_bo({{"local_every", 1}, {"local_points", 9}, {"local_beta", 0.0}, {"local_radius", 0.0}, {"local_model", "gp"}}), space);
  const Vec u = s.suggest(X, y, Mat(0, 2), 5);
  const nlohmann::json info = s.last_info();
  ASSERT_TRUE(info.contains("local"));
  EXPECT_EQ(info["local"]["points"], 9);
  const std::vector<double> half = info["local"]["half_width"];
  for (int j = 0; j < 2; ++j) EXPECT_LE(std::abs(u[j] - X(best, j)), half[j] + 1e-12);
  // Independent truth: the half widths are the largest coordinate offsets of the 9 grid points from the
  // incumbent (they are its 9 nearest: every far point is further in both coordinates).
  for (int j = 0; j < 2; ++j) {
    double h = 0.0;
    for (int i = 0; i < 9; ++i) h = std::max(h, std::abs(X(i, j) - X(best, j)));
    EXPECT_NEAR(half[j], h, 1e-12);
  }
  EXPECT_LT(std::hypot(u[0] - 0.3, u[1] - 0.6), std::hypot(X(best, 0) - 0.3, X(best, 1) - 0.6));
  // Without the option no local step is taken.
  BOStrategy plain(with_bo({}), space);
  plain.suggest(X, y, Mat(0, 2), 5);
  EXPECT_FALSE(plain.last_info().contains("local"));
  EXPECT_THROW(BOModelOptions::from_json({{"local_every", -1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"local_points", 2}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"local_beta", -1.0}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"local_warp", "cubic"}}), InputError);
  // As a user runs it; a bad value is exit 2.
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"local_every\": 2}}'"), 0);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"local_every\": -2}}'"), 2);
}

TEST(BOStrategyOptions, LocalAboveDelaysTheLocalStepsUntilThatTrial) {
  // local_every = 1 with local_above = 16: trial 15 (15 observations of a bowl) takes a global step,
  // trial 16 (one more observation) a local step.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Mat X(16, 2);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) X.row(4 * a + b) << 0.2 + 0.2 * a, 0.2 + 0.2 * b;
  Vec y(16);
  for (int i = 0; i < 16; ++i) y[i] = -std::pow(X(i, 0) - 0.3, 2) - 2.0 * std::pow(X(i, 1) - 0.6, 2);
  const nlohmann::json opts = {{"local_every", 1}, {"local_above", 16}};
  BOStrategy below(with_bo(opts), space);
  below.suggest(X.topRows(15), y.head(15), Mat(0, 2), 15);
  EXPECT_FALSE(below.last_info().contains("local"));
  BOStrategy at(with_bo(opts), space);
  at.suggest(X, y, Mat(0, 2), 16);
  EXPECT_TRUE(at.last_info().contains("local"));
  EXPECT_THROW(BOModelOptions::from_json({{"local_above", -1}}), InputError);
}

TEST(BOStrategyOptions, QuadraticLocalStepLandsOnARotatedIllConditionedBowlsMaximum) {
  // A rotated valley (condition 1e4, axes at 30°) with its maximum at u* = (0.41, 0.57): an exact quadratic,
  // so the least-squares quadratic of any 12 of its points is the function itself and its maximiser in the
  // trust region (which contains u*) is u* — the closed form, whatever the GP would make of the valley.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  const double c = std::cos(M_PI / 6), sn = std::sin(M_PI / 6);
  auto f = [&](double a, double b) {
    const double z1 = c * (a - 0.41) + sn * (b - 0.57), z2 = -sn * (a - 0.41) + c * (b - 0.57);
    return -(z1 * z1 + 1e4 * z2 * z2);
  };
  Mat X(20, 2);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) X.row(4 * i + j) << 0.3 + 0.07 * i, 0.45 + 0.07 * j;
  X.bottomRows(4) << 0.95, 0.05, 0.02, 0.98, 0.98, 0.98, 0.02, 0.02;  // further in both coordinates than any grid point
  Vec y(20);
  for (int i = 0; i < 20; ++i) y[i] = f(X(i, 0), X(i, 1));
  BOStrategy s(with_bo({{"local_every", 1}, {"local_model", "quadratic"}, {"local_points", 16}, {"local_radius", 0.0}}), space);
  const Vec u = s.suggest(X, y, Mat(0, 2), 20);
  const nlohmann::json info = s.last_info();
  ASSERT_TRUE(info.contains("local"));
  EXPECT_EQ(info["local"]["model"], "quadratic");
  EXPECT_TRUE(info["local"]["fitted"].get<bool>());
  EXPECT_NEAR(u[0], 0.41, 1e-6);
  EXPECT_NEAR(u[1], 0.57, 1e-6);
  // A linear trend (no curvature, rising to the upper right): the maximiser is the trust region's corner.
  for (int i = 0; i < 20; ++i) y[i] = X(i, 0) + 2.0 * X(i, 1);
  BOStrategy lin(with_bo({{"local_every", 1}, {"local_model", "quadratic"}, {"local_points", 16}, {"local_radius", 0.0}}), space);
  Eigen::Index best;
  y.maxCoeff(&best);
  const Vec v = lin.suggest(X, y, Mat(0, 2), 20);
  const std::vector<double> half = lin.last_info()["local"]["half_width"];
  EXPECT_NEAR(v[0], std::min(1.0, X(best, 0) + half[0]), 1e-9);
  EXPECT_NEAR(v[1], std::min(1.0, X(best, 1) + half[1]), 1e-9);
  EXPECT_THROW(BOModelOptions::from_json({{"local_model", "cubic"}}), InputError);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 10 --options '{\"bo\": {\"local_every\": 2, \"local_model\": \"quadratic\"}}'"), 0);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"local_model\": \"cubic\"}}'"), 2);
}

TEST(BOStrategyOptions, EndgameTakesItsStepsOnlyInTheLastShareOfAKnownBudget) {
  // Budget 20 with 5 initial points: 15 BO steps, endgame_fraction 0.4 ⇒ the last ⌈0.4 · 15⌉ = 6 trials
  // (indices 14…19) are the end-game; the share still to come after trial i is (19 − i) / 6.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Mat X(14, 2);
  Vec y(14);
  Rng rng = make_rng(3);
  X = BoxSpace(Box::unit(2)).sample(14, SamplingMethod::Uniform, rng);
  for (int i = 0; i < 14; ++i) y[i] = -std::pow(X(i, 0) - 0.3, 2) - std::pow(X(i, 1) - 0.6, 2);
  BOStrategy decay(with_bo({{"endgame_fraction", 0.4}, {"endgame", "decay"}}), space);
  decay.set_budget(20);
  decay.suggest(X.topRows(13), y.head(13), Mat(0, 2), 13);  // not yet the end-game: UCB β = 4
  EXPECT_FALSE(decay.last_info().contains("endgame"));
  EXPECT_EQ(decay.last_info()["beta"], 4.0);
  for (int i : {14, 17, 19}) {
    decay.suggest(X, y, Mat(0, 2), i);
    const nlohmann::json info = decay.last_info();
    ASSERT_TRUE(info.contains("endgame")) << i;
    EXPECT_NEAR(info["endgame"]["remaining_share"].get<double>(), (19 - i) / 6.0, 1e-12);
    EXPECT_NEAR(info["beta"].get<double>(), 4.0 * (19 - i) / 6.0, 1e-12);
  }
  // Without a budget (open-ended ask/tell) there is no end-game.
  BOStrategy open(with_bo({{"endgame_fraction", 0.4}, {"endgame", "decay"}}), space);
  open.suggest(X, y, Mat(0, 2), 19);
  EXPECT_FALSE(open.last_info().contains("endgame"));
  EXPECT_EQ(open.last_info()["beta"], 4.0);
  // endgame local: the end-game steps are local steps, the others are not.
  BOStrategy local(with_bo({{"endgame_fraction", 0.4}}), space);
  local.set_budget(20);
  local.suggest(X.topRows(13), y.head(13), Mat(0, 2), 13);
  EXPECT_FALSE(local.last_info().contains("local"));
  local.suggest(X, y, Mat(0, 2), 14);
  EXPECT_TRUE(local.last_info().contains("local"));
  EXPECT_THROW(BOModelOptions::from_json({{"endgame_fraction", -0.1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"endgame_fraction", 1.5}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"endgame", "greedy"}}), InputError);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 8 --options '{\"bo\": {\"endgame_fraction\": 0.5}}'"), 0);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"endgame_fraction\": 2}}'"), 2);
}
