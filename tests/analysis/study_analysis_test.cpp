// The study views' GP analysis (kbo/analysis/study_analysis.hpp) against closed-form truths: an additive
// function has no interactions, a pure product has no main effects, a coordinate the function ignores has no
// importance, and in one dimension the partial dependence is the slice.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "kbo/analysis/study_analysis.hpp"
#include "kbo/core/space.hpp"
#include "kbo/strategy/config.hpp"

using namespace kbo;

namespace {

StudyRecord box_record(int dim) {
  StudyRecord r;
  r.name = "s";
  r.space = box_space_json(Box(Vec::Zero(dim), Vec::Ones(dim)));
  r.config = to_json(StrategyConfig{});
  return r;
}

// n uniform random points with values f(x), ids 0..n-1, all complete.
std::vector<Trial> complete_trials(int n, int dim, const std::function<double(const Vec&)>& f, unsigned seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Trial> trials;
  for (int i = 0; i < n; ++i) {
    Trial t;
    t.id = i;
    t.x = Vec(dim);
    for (int j = 0; j < dim; ++j) t.x[j] = u(rng);
    t.value = f(t.x);
    t.state = TrialState::Complete;
    trials.push_back(t);
  }
  return trials;
}

double fanova(const nlohmann::json& a, int j) { return a["importance"][j]["fanova"].get<double>(); }

}  // namespace

TEST(CoordinateNames, BoxSetAndParamsSpaces) {
  EXPECT_EQ(coordinate_names(box_space_json(Box(Vec::Zero(2), Vec::Ones(2))), 2),
            (std::vector<std::string>{"x0", "x1"}));
  nlohmann::json set = box_space_json(Box(Vec::Zero(2), Vec::Ones(2)));
  set["type"] = "set";
  set["set_size"] = 3;
  EXPECT_EQ(coordinate_names(set, 6), (std::vector<std::string>{"e0.x0", "e0.x1", "e1.x0", "e1.x1", "e2.x0", "e2.x1"}));
  // Typed parameters (their stored form): a categorical gives one coordinate per choice, a fixed one none.
  const nlohmann::json params = {
      {"type", "params"},
      {"params",
       {{{"name", "lr"}, {"type", "float"}, {"low", 1e-5}, {"high", 0.1}, {"log", true}},
        {{"name", "layers"}, {"type", "int"}, {"low", 1}, {"high", 8}, {"log", false}},
        {{"name", "opt"}, {"type", "categorical"}, {"choices", {"adam", "sgd"}}},
        {{"name", "seed"}, {"type", "fixed"}, {"value", 3}}}}};
  EXPECT_EQ(coordinate_names(params, 4), (std::vector<std::string>{"log lr", "layers", "opt=adam", "opt=sgd"}));
  // A space that does not account for the dimension falls back to positions.
  EXPECT_EQ(coordinate_names(params, 3), (std::vector<std::string>{"x0", "x1", "x2"}));
}

TEST(StudyAnalysis, AdditiveFunctionHasItsVarianceInTheMainEffects) {
  // f = sin(6 x0) + 0.3 x1: additive, so Σ main effects = 1; Var sin(6u) ≈ 0.5·(1 − sin 12/12) ≈ 0.52 against
  // Var 0.3u = 0.0075, so x0 explains ~98.6 % and x1 ~1.4 %.
  const auto trials = complete_trials(60, 2, [](const Vec& x) { return std::sin(6 * x[0]) + 0.3 * x[1]; });
  const nlohmann::json a = analyze_study(box_record(2), trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  EXPECT_NEAR(fanova(a, 0), 0.986, 0.03);
  EXPECT_NEAR(fanova(a, 1), 0.014, 0.02);
  EXPECT_LT(a["interactions"].get<double>(), 0.03);
  // ARD relevance follows: the fast coordinate has the shorter lengthscale.
  EXPECT_GT(a["importance"][0]["lengthscale"].get<double>(), a["importance"][1]["lengthscale"].get<double>());
}

TEST(StudyAnalysis, PureInteractionHasNoMainEffects) {
  // f = (x0 − ½)(x1 − ½): E[f | x0] = 0 for every x0, so both main effects vanish and all is interaction.
  const auto trials = complete_trials(80, 2, [](const Vec& x) { return (x[0] - 0.5) * (x[1] - 0.5); });
  const nlohmann::json a = analyze_study(box_record(2), trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  EXPECT_LT(fanova(a, 0), 0.05);
  EXPECT_LT(fanova(a, 1), 0.05);
  EXPECT_GT(a["interactions"].get<double>(), 0.9);
}

TEST(StudyAnalysis, IgnoredCoordinateHasNoImportance) {
  const auto trials = complete_trials(40, 3, [](const Vec& x) { return std::pow(x[0] - 0.3, 2) + std::pow(x[2] - 0.7, 2); });
  const nlohmann::json a = analyze_study(box_record(3), trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  EXPECT_LT(fanova(a, 1), 0.02);
  EXPECT_GT(fanova(a, 0), 0.3);
  EXPECT_GT(fanova(a, 2), 0.3);
}

TEST(StudyAnalysis, OneDimensionalPartialDependenceIsTheSliceAndInterpolatesTheData) {
  auto f = [](const Vec& x) { return std::cos(4 * x[0]); };
  StudyRecord r = box_record(1);
  r.space = box_space_json(Box(Vec::Constant(1, -2.0), Vec::Constant(1, 3.0)));
  // Points spread over [-2, 3], with f read on the unit cube (so the function is the same smooth one).
  std::vector<Trial> trials;
  for (int i = 0; i < 12; ++i) {
    Trial t;
    t.id = i;
    const double u = (i + 0.5) / 12.0;
    t.x = Vec::Constant(1, -2.0 + 5.0 * u);
    t.value = f(Vec::Constant(1, u));
    t.state = TrialState::Complete;
    trials.push_back(t);
  }
  const nlohmann::json a = analyze_study(r, trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  const auto& s = a["slices"][0];
  ASSERT_EQ(s["x"].size(), static_cast<size_t>(kGridPoints));
  EXPECT_DOUBLE_EQ(s["x"][0].get<double>(), -2.0);
  EXPECT_DOUBLE_EQ(s["x"][kGridPoints - 1].get<double>(), 3.0);
  for (int g = 0; g < kGridPoints; ++g) {
    // With one coordinate there is nothing to average over: PD(t) = m(t) exactly (up to rounding).
    EXPECT_NEAR(s["partial_dependence"][g].get<double>(), s["mean"][g].get<double>(), 1e-9);
    // The GP interpolates a smooth function sampled densely: mean ≈ f, within its own 3 std + a small slack.
    const double u = static_cast<double>(g) / (kGridPoints - 1);
    EXPECT_NEAR(s["mean"][g].get<double>(), f(Vec::Constant(1, u)), 3 * s["std"][g].get<double>() + 0.05) << "g=" << g;
  }
  EXPECT_NEAR(fanova(a, 0), 1.0, 1e-9);  // all of the variance is the one coordinate's
}

TEST(StudyAnalysis, FailedAndPendingTrialsAreNotModelled) {
  auto trials = complete_trials(1, 2, [](const Vec& x) { return x.sum(); });
  Trial failed;
  failed.id = 1;
  failed.x = Vec::Constant(2, 0.5);
  failed.state = TrialState::Failed;
  failed.reason = "crashed";
  Trial pending = failed;
  pending.id = 2;
  pending.state = TrialState::Pending;
  trials.push_back(failed);
  trials.push_back(pending);
  const nlohmann::json a = analyze_study(box_record(2), trials);
  EXPECT_FALSE(a["model"]["ok"].get<bool>());
  EXPECT_NE(a["model"]["reason"].get<std::string>().find("at least 2 complete trials (1 so far)"), std::string::npos);
  EXPECT_TRUE(a["slices"].empty());
  EXPECT_EQ(a["best"]["trial"].get<int>(), 0);
  ASSERT_EQ(a["parameters"].size(), 2u);
  EXPECT_EQ(a["parameters"][1]["name"], "x1");
}

TEST(StudyAnalysis, SlicesPassThroughTheBestTrialOfTheStudysDirection) {
  auto trials = complete_trials(15, 2, [](const Vec& x) { return x[0] + 2 * x[1]; });
  StudyRecord r = box_record(2);
  r.minimize = false;
  const nlohmann::json a = analyze_study(r, trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>());
  int best = 0;
  for (const Trial& t : trials)
    if (*t.value > *trials[best].value) best = t.id;
  EXPECT_EQ(a["best"]["trial"].get<int>(), best);
  // The slice along x0 holds x1 at the best trial's: its mean at the grid point nearest the best x0 is close
  // to the best value (a linear function the GP fits well).
  const auto& s = a["slices"][0];
  const double x0 = trials[best].x[0];
  const int g = static_cast<int>(std::lround(x0 * (kGridPoints - 1)));
  EXPECT_NEAR(s["mean"][g].get<double>(), *trials[best].value + (g / double(kGridPoints - 1) - x0), 0.05);
}

TEST(StudyAnalysis, PermutationInvariantKernelGivesEqualImportances) {
  // The study's invariant kernel makes the GP mean symmetric in (x0, x1, x2), so the three shares agree up to
  // the Monte-Carlo error of the background sample.
  StudyRecord r = box_record(3);
  StrategyConfig c;
  c.invariance = "permutation";
  r.config = to_json(c);
  const auto trials = complete_trials(30, 3, [](const Vec& x) { return (x.array() - 0.3).square().sum(); });
  const nlohmann::json a = analyze_study(r, trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  EXPECT_NE(a["model"]["kernel"].get<std::string>().find("permutation"), std::string::npos);
  EXPECT_TRUE(a["model"]["lengthscales"].is_null());  // one shared lengthscale: no ARD relevance
  EXPECT_TRUE(a["importance"][0]["lengthscale"].is_null());
  EXPECT_GT(fanova(a, 0), 0.15);
  EXPECT_NEAR(fanova(a, 1), fanova(a, 0), 0.03);
  EXPECT_NEAR(fanova(a, 2), fanova(a, 0), 0.03);
}

TEST(StudyAnalysis, SetSpaceUsesTheSetKernelAndElementNames) {
  StudyRecord r;
  r.name = "sets";
  r.space = box_space_json(Box(Vec::Zero(2), Vec::Ones(2)));
  r.space["type"] = "set";
  r.space["set_size"] = 2;
  StrategyConfig config;
  config.set_kernel = SetKernelType::Normalized;  // auto (the default) may model with the flat ARD candidate
  r.config = to_json(config);
  const auto trials = complete_trials(12, 4, [](const Vec& x) { return (x.array() - 0.3).square().sum(); });
  const nlohmann::json a = analyze_study(r, trials);
  ASSERT_TRUE(a["model"]["ok"].get<bool>()) << a["model"].dump();
  EXPECT_NE(a["model"]["kernel"].get<std::string>().find("set("), std::string::npos) << a["model"]["kernel"];
  ASSERT_EQ(a["slices"].size(), 4u);
  EXPECT_EQ(a["slices"][3]["name"], "e1.x1");
}
