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
  const auto o = BOModelOptions::from_json({{"noise", "free"}, {"prior_mean", "gls"}});
  EXPECT_EQ(o.noise, NoiseModel::Free);
  EXPECT_EQ(o.prior_mean, PriorMean::Gls);
  EXPECT_EQ(o.alt_kernel, d.alt_kernel);
  // A strategy built without module_options["bo"] uses the defaults (in 3-d: no preset applies).
  BOStrategy s(StrategyConfig{}, std::make_shared<BoxSpace>(Box::unit(3)));
  EXPECT_EQ(s.model_options().to_json(), d.to_json());
}

TEST(BOModelOptions, BadKeysAndValuesAreInputErrors) {
  EXPECT_THROW(BOModelOptions::from_json({{"noise_flor", 1e-4}}), InputError);  // typo: unknown key
  EXPECT_THROW(BOModelOptions::from_json(nlohmann::json::array()), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"noise", "loud"}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"noise", 1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"fit_subset", 5}}), InputError);
  EXPECT_THROW(BOStrategy(with_bo({{"bogus", 1}}), std::make_shared<BoxSpace>(Box::unit(2))), InputError);
  try {
    BOModelOptions::from_json({{"bogus", 1}});
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("noise"), std::string::npos) << "the message lists the allowed keys";
  }
}

TEST(BOModelOptions, RemovedKeysAreAcceptedAtTheirOldDefaultAndRefusedOtherwise) {
  // Every removed key at its old default parses to the default model (a stored study that carries it
  // resumes unchanged) …
  nlohmann::json old = nlohmann::json::object();
  for (const RemovedBoOptionKey& r : removed_bo_option_keys()) old[r.key] = r.old_default;
  EXPECT_EQ(BOModelOptions::from_json(old), BOModelOptions{});
  BOStrategy s(with_bo(old), std::make_shared<BoxSpace>(Box::unit(3)));
  BOStrategy plain(with_bo(nlohmann::json::object()), std::make_shared<BoxSpace>(Box::unit(3)));
  EXPECT_EQ(s.model_options(), plain.model_options());
  // … no removed key is a key of the model any more …
  const nlohmann::json keys = BOModelOptions{}.to_json();
  for (const RemovedBoOptionKey& r : removed_bo_option_keys()) EXPECT_FALSE(keys.contains(r.key)) << r.key;
  // … and any other value is refused with one line naming the key and what replaced it.
  for (const auto& [key, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"hmc_max_n", 12}, {"local_radius", 0.2}, {"fit_evaluations", 30}, {"endgame", "decay"}, {"local_fail_2d", 4}}) {
    try {
      BOModelOptions::from_json({{key, value}});
      ADD_FAILURE() << key << " accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_NE(what.find("options.bo." + key + " was removed"), std::string::npos) << what;
    }
  }
  // As a user meets it: exit 2 for another value, 0 at the old default.
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 2 --options '{\"bo\": {\"local_radius\": 0.2}}'"), 2);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 2 --options '{\"bo\": {\"local_radius\": 0.1}}'"), 0);
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
  EXPECT_EQ(BOModelOptions::from_json({{"noise_cap", 0.01}}).noise, NoiseModel::Infer);  // its old default
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
      EXPECT_NE(what.find("options.bo." + bad.begin().key() + " was removed: "), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
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
  // "quantile": the prior mean is the median of the values seen, so without a warp the targets' median is 0.
  BOStrategy median(with_bo({{"prior_mean", "quantile"}, {"output_warp", "none"}}), std::make_shared<BoxSpace>(Box::unit(2)));
  median.suggest(X, y, Mat(0, 2), 8);
  EXPECT_NEAR(quantile_of(median.model()->y(), 0.5), 0.0, 1e-12);
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
  // The end-game's only step (⌈0.05 · 16⌉ = 1 of a 21-trial budget): a fresh trust region of half width 0.1
  // around the best grid point, which holds u*.
  BOStrategy s(with_bo({{"endgame_fraction", 0.05}}), space);
  s.set_budget(21);
  const Vec u = s.suggest(X, y, Mat(0, 2), 20);
  const nlohmann::json info = s.last_info();
  ASSERT_TRUE(info.contains("local"));
  EXPECT_EQ(info["local"]["model"], "quadratic");
  EXPECT_TRUE(info["local"]["fitted"].get<bool>());
  EXPECT_NEAR(u[0], 0.41, 1e-6);
  EXPECT_NEAR(u[1], 0.57, 1e-6);
  // A linear trend (no curvature, rising towards x = y = 1, where the far point (0.98, 0.98) is best): the
  // maximiser is the trust region's corner, clipped to the box.
  for (int i = 0; i < 20; ++i) y[i] = X(i, 0) + 2.0 * X(i, 1);
  BOStrategy lin(with_bo({{"endgame_fraction", 0.05}}), space);
  lin.set_budget(21);
  Eigen::Index best;
  y.maxCoeff(&best);
  const Vec v = lin.suggest(X, y, Mat(0, 2), 20);
  ASSERT_EQ(lin.last_info()["local"]["model"], "quadratic");
  const double radius = lin.last_info()["local"]["radius_used"];
  EXPECT_NEAR(v[0], std::min(1.0, X(best, 0) + radius), 1e-9);
  EXPECT_NEAR(v[1], std::min(1.0, X(best, 1) + radius), 1e-9);
}

TEST(BOStrategyOptions, EndgameTakesItsStepsOnlyInTheLastShareOfAKnownBudget) {
  // Budget 20 with 5 initial points: 15 BO steps, endgame_fraction 0.4 ⇒ the last ⌈0.4 · 15⌉ = 6 trials
  // (indices 14…19) are the end-game.
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  Mat X(14, 2);
  Vec y(14);
  Rng rng = make_rng(3);
  X = BoxSpace(Box::unit(2)).sample(14, SamplingMethod::Uniform, rng);
  for (int i = 0; i < 14; ++i) y[i] = -std::pow(X(i, 0) - 0.3, 2) - std::pow(X(i, 1) - 0.6, 2);
  // Without a budget (open-ended ask/tell) there is no end-game.
  BOStrategy open(with_bo({{"endgame_fraction", 0.4}}), space);
  open.suggest(X, y, Mat(0, 2), 19);
  EXPECT_FALSE(open.last_info().contains("endgame"));
  EXPECT_FALSE(open.last_info().contains("local"));
  // endgame local: the end-game steps are local steps, the others are not.
  BOStrategy local(with_bo({{"endgame_fraction", 0.4}}), space);
  local.set_budget(20);
  local.suggest(X.topRows(13), y.head(13), Mat(0, 2), 13);
  EXPECT_FALSE(local.last_info().contains("local"));
  local.suggest(X, y, Mat(0, 2), 14);
  EXPECT_TRUE(local.last_info().contains("local"));
  EXPECT_THROW(BOModelOptions::from_json({{"endgame_fraction", -0.1}}), InputError);
  EXPECT_THROW(BOModelOptions::from_json({{"endgame_fraction", 1.5}}), InputError);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 8 --options '{\"bo\": {\"endgame_fraction\": 0.5}}'"), 0);
  EXPECT_EQ(run_kbo("optimize --problem branin --iters 4 --options '{\"bo\": {\"endgame_fraction\": 2}}'"), 2);
}
