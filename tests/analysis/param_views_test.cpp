// The views' model fit and their decoded parameters: the closed-form leave-one-out predictions against n
// brute-force refits at the same hyperparameters, and a params space (log float, int, categorical) analysed
// per parameter in the user's units.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kbo/analysis/model_fit.hpp"
#include "kbo/analysis/study_analysis.hpp"
#include "kbo/core/params.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/strategy/config.hpp"

using namespace kbo;

namespace {

// n points in [0,1]^2 with a smooth function plus a little noise.
void data(int n, Mat& X, Vec& y, unsigned seed = 3) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, 0.05);
  X.resize(n, 2);
  y.resize(n);
  for (int i = 0; i < n; ++i) {
    X(i, 0) = u(rng);
    X(i, 1) = u(rng);
    y[i] = 5.0 + 3.0 * std::sin(4 * X(i, 0)) + X(i, 1) + noise(rng);
  }
}

// Brute force: a GP without point i at the same θ predicts y_i (noise added to the latent variance). With
// `standardise`, the targets are first standardised by the full data's mean and std, as leave_one_out keeps them.
void brute_force_matches(bool normalize) {
  Mat X;
  Vec y;
  data(25, X, y);
  GP gp(make_stationary("matern52", 2, true, 0.3), 0.01, normalize);
  gp.set_data(X, y);
  gp.fit(FitOptions{});
  const LeaveOneOut loo = leave_one_out(gp);
  ASSERT_EQ(loo.mean.size(), 25);
  const Vec theta = gp.hyperparameters();
  const Vec t = gp.targets();  // standardised when normalising
  for (int i = 0; i < 25; ++i) {
    Mat Xi(24, 2);
    Vec yi(24);
    for (int r = 0, k = 0; r < 25; ++r)
      if (r != i) {
        Xi.row(k) = X.row(r);
        yi[k++] = t[r];
      }
    GP refit(gp.kernel().clone(), gp.noise_variance(), /*normalize=*/false, true);
    refit.set_data(Xi, yi);
    refit.set_hyperparameters(theta);
    const GP::Prediction p = refit.predict(X.row(i));
    const double mean = p.mean[0] * gp.y_scale() + gp.y_mean();
    const double sd = std::sqrt(p.variance[0] + refit.noise_variance()) * gp.y_scale();
    EXPECT_NEAR(loo.mean[i], mean, 1e-6 * (1 + std::abs(mean))) << "i=" << i;
    EXPECT_NEAR(loo.std[i], sd, 1e-6 * (1 + sd)) << "i=" << i;
  }
}

}  // namespace

TEST(LeaveOneOut, ClosedFormEqualsRefitsWithoutEachPoint) { brute_force_matches(false); }

TEST(LeaveOneOut, ClosedFormEqualsRefitsWithStandardisedTargets) { brute_force_matches(true); }

TEST(LeaveOneOut, PredictsASmoothFunctionWithCalibratedBars) {
  // A well-specified smooth function: LOO errors are small and about 95 % fall within ±2 std.
  Mat X;
  Vec y;
  data(60, X, y, 7);
  GP gp(make_stationary("matern52", 2, true, 0.3), 0.01);
  gp.set_data(X, y);
  gp.fit(FitOptions{});
  const LeaveOneOut loo = leave_one_out(gp);
  int inside = 0;
  for (int i = 0; i < 60; ++i) inside += std::abs(loo.mean[i] - y[i]) <= 2 * loo.std[i];
  EXPECT_GE(inside, 51);  // ≥ 85 % (binomial(60, 0.95) is below 52 with probability < 1 %)
  const double rmse = std::sqrt((loo.mean - y).squaredNorm() / 60);
  EXPECT_LT(rmse, 0.25);  // the function spans about 6 units
}

namespace {

// lr log float in [1e-3, 10], depth int in [1, 6], kernel one of three choices (the third is much worse).
// f = (ln lr − ln 0.5)² + 0.05 (depth − 3)² + {0, 0.2, 3}[kernel].
StudyRecord params_record() {
  StudyRecord r;
  r.name = "p";
  r.space = {{"type", "params"},
             {"params",
              {{{"name", "lr"}, {"type", "float"}, {"low", 1e-3}, {"high", 10.0}, {"log", true}},
               {{"name", "depth"}, {"type", "int"}, {"low", 1}, {"high", 6}, {"log", false}},
               {{"name", "kernel"}, {"type", "categorical"}, {"choices", {"rbf", "poly", "linear"}}},
               {{"name", "seed"}, {"type", "fixed"}, {"value", 0}}}}};
  r.config = to_json(StrategyConfig{});
  return r;
}

std::vector<Trial> params_trials(const ParamsSpace& space, int n) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Trial> trials;
  for (int i = 0; i < n; ++i) {
    const double lr = std::exp(std::log(1e-3) + u(rng) * std::log(1e4));
    const int depth = 1 + static_cast<int>(u(rng) * 6);
    const int k = i % 3;
    const char* kernels[] = {"rbf", "poly", "linear"};
    Trial t;
    t.id = i;
    t.x = space.from_named({{"lr", lr}, {"depth", depth}, {"kernel", kernels[k]}, {"seed", 0}});
    t.value = std::pow(std::log(lr) - std::log(0.5), 2) + 0.05 * (depth - 3) * (depth - 3) + (k == 0 ? 0.0 : k == 1 ? 0.2 : 3.0);
    t.state = TrialState::Complete;
    trials.push_back(t);
  }
  return trials;
}

}  // namespace

TEST(ParamsViews, OneEntryPerParameterInTheUsersUnits) {
  const StudyRecord r = params_record();
  const ParamsSpace space(params_from_json(r.space["params"]));
  const auto trials = params_trials(space, 45);
  const nlohmann::json a = analyze_study(r, trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  // Three parameters (the fixed one has no axis), not five coordinates.
  ASSERT_EQ(a["parameters"].size(), 3u);
  ASSERT_EQ(a["slices"].size(), 3u);
  ASSERT_EQ(a["importance"].size(), 3u);
  EXPECT_EQ(a["parameters"][0]["name"], "lr");
  EXPECT_TRUE(a["parameters"][0]["log"].get<bool>());
  EXPECT_DOUBLE_EQ(a["parameters"][0]["lower"].get<double>(), 1e-3);
  EXPECT_EQ(a["parameters"][1]["type"], "int");
  EXPECT_EQ(a["parameters"][2]["coordinates"], nlohmann::json({2, 3, 4}));
  // The log float's slice is a geometric grid from low to high in lr itself.
  const auto& lr = a["slices"][0]["x"];
  ASSERT_EQ(lr.size(), static_cast<size_t>(kGridPoints));
  EXPECT_NEAR(lr[0].get<double>(), 1e-3, 1e-12);
  EXPECT_NEAR(lr[kGridPoints - 1].get<double>(), 10.0, 1e-9);
  const double ratio = lr[1].get<double>() / lr[0].get<double>();
  for (int g = 1; g < kGridPoints; ++g) EXPECT_NEAR(lr[g].get<double>() / lr[g - 1].get<double>(), ratio, 1e-9);
  // The int at its integers, the categorical at its choices.
  EXPECT_EQ(a["slices"][1]["x"], nlohmann::json({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(a["slices"][2]["x"], nlohmann::json({"rbf", "poly", "linear"}));
  // The slice along the categorical ranks its choices as the function does (linear much worse).
  const auto& km = a["slices"][2]["mean"];
  EXPECT_LT(km[0].get<double>(), km[2].get<double>() - 1.5);
  EXPECT_LT(km[1].get<double>(), km[2].get<double>() - 1.5);
  // The best point in the user's values.
  int best = 0;
  for (const Trial& t : trials)
    if (*t.value < *trials[best].value) best = t.id;
  EXPECT_EQ(a["best"]["trial"].get<int>(), best);
  EXPECT_EQ(a["best"]["values"][2], space.named(trials[best].x)["kernel"]);
  EXPECT_EQ(a["best"]["values"][1], space.named(trials[best].x)["depth"]);
  // Importances: one per parameter; lr (a spread of (ln 1e4)²/… ) and kernel matter, depth (0.05·9) much less.
  const double imp_lr = a["importance"][0]["fanova"].get<double>();
  const double imp_depth = a["importance"][1]["fanova"].get<double>();
  const double imp_kernel = a["importance"][2]["fanova"].get<double>();
  EXPECT_GT(imp_lr, imp_depth);
  EXPECT_GT(imp_kernel, imp_depth);
  // f is additive in the three parameters, so their main effects carry all of the variance (up to the
  // Monte-Carlo error of the 256-point background): the categorical's one-hot block counts as one parameter.
  EXPECT_NEAR(imp_lr + imp_depth + imp_kernel, 1.0, 0.05);
  // Contours: every pair of the three parameters, on their levels.
  ASSERT_EQ(a["contours"].size(), 3u);
  for (const auto& c : a["contours"]) {
    ASSERT_EQ(c["mean"].size(), c["y"].size());
    for (const auto& row : c["mean"]) ASSERT_EQ(row.size(), c["x"].size());
  }
  // The model fit covers every modelled trial.
  EXPECT_EQ(a["model_fit"]["trials"].size(), trials.size());
  EXPECT_EQ(a["model_fit"]["predicted"].size(), trials.size());
}

TEST(ParamsViews, ContourThroughTheBestPointEqualsTheSlicesOnItsLines) {
  // The contour and a slice hold the other parameters at the same best point, so where the contour's second
  // parameter takes the best trial's level, its row is the first parameter's slice (same GP, same points).
  const StudyRecord r = params_record();
  const ParamsSpace space(params_from_json(r.space["params"]));
  const auto trials = params_trials(space, 30);
  const nlohmann::json a = analyze_study(r, trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>());
  bool checked = false;
  for (const auto& c : a["contours"]) {
    const int pa = c["params"][0], pb = c["params"][1];
    if (a["parameters"][pa]["type"] == "float") continue;  // a float's contour grid is coarser than its slice
    const nlohmann::json best_b = a["best"]["values"][pb];
    for (size_t r2 = 0; r2 < c["y"].size(); ++r2) {
      if (c["y"][r2] != best_b) continue;
      const auto& slice = a["slices"][pa];
      ASSERT_EQ(slice["x"], c["x"]);
      for (size_t k = 0; k < c["x"].size(); ++k)
        EXPECT_NEAR(c["mean"][r2][k].get<double>(), slice["mean"][k].get<double>(), 1e-9);
      checked = true;
    }
  }
  EXPECT_TRUE(checked);
}
