// The BO step: reproducibility, pending points, initial design, and BO beating random search.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"
#include "support/test_data.hpp"

using namespace kbo;

namespace {

/// Runs a study on a built-in problem in memory; returns the trials.
std::vector<Trial> run(const std::string& problem, const StrategyConfig& config, int n_total, int dim = 0) {
  Problem p = make_problem(problem, dim);
  StudyRecord rec;
  rec.name = "t";
  rec.space = box_space_json(p.bounds);
  rec.config = to_json(config);
  Study study = Study::create_or_open(std::make_shared<MemoryStorage>(), rec);
  auto strategy = make_strategy(config, study.space());
  study.optimize(*strategy, [&](const Trial& t) { return Evaluation::ok(p.f(t.x)); }, n_total, "test");
  return study.trials();
}

StrategyConfig config(const std::string& strategy, std::uint64_t seed) {
  StrategyConfig c;
  c.strategy = strategy;
  c.seed = seed;
  return c;
}

}  // namespace

TEST(BOStrategy, SameSeedSameTrialsDifferentSeedDifferentTrials) {
  const auto a = run("branin", config("gpucb", 3), 12);
  const auto b = run("branin", config("gpucb", 3), 12);
  const auto c = run("branin", config("gpucb", 4), 12);
  ASSERT_EQ(a.size(), 12u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].x, b[i].x) << "trial " << i;
    EXPECT_EQ(*a[i].value, *b[i].value);
  }
  EXPECT_NE(a[0].x, c[0].x);
}

TEST(BOStrategy, InitialDesignIsTheSeededDesignInsideTheBox) {
  auto space = std::make_shared<BoxSpace>(Box(Vec{{-5.0, 0.0}}, Vec{{10.0, 15.0}}));
  StrategyConfig c = config("gpucb", 9);
  c.n_init = 4;
  BOStrategy s(c, space);
  // Trials 0..3 come from the design whatever data is passed: concurrent askers get distinct points.
  std::vector<Vec> pts;
  for (int i = 0; i < 4; ++i) pts.push_back(s.suggest(Mat(0, 2), Vec(0), Mat(0, 2), i));
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(space->bounds().contains(pts[i]));
    for (int j = 0; j < i; ++j) EXPECT_GT((pts[i] - pts[j]).norm(), 1e-6);
  }
  EXPECT_EQ(s.last_info()["phase"], "init");
  EXPECT_EQ(s.model(), nullptr);
  // Too few completed trials after the design (failures): uniform random, reproducible per index.
  const Vec r1 = s.suggest(Mat(0, 2), Vec(0), Mat(0, 2), 6);
  EXPECT_EQ(s.last_info()["phase"], "random");
  EXPECT_EQ(r1, BOStrategy(c, space).suggest(Mat(0, 2), Vec(0), Mat(0, 2), 6));
}

TEST(BOStrategy, PendingPointsAreNotSuggestedAgain) {
  Problem p = make_problem("branin");
  auto space = std::make_shared<BoxSpace>(p.bounds);
  StrategyConfig c = config("gpucb", 1);
  BOStrategy s(c, space);
  Rng rng = make_rng(5);
  Mat X = space->sample(10, SamplingMethod::Uniform, rng);
  Vec y(10);
  for (int i = 0; i < 10; ++i) y(i) = -p.f(X.row(i).transpose());
  // Suggest, then pass the suggestion back as pending, several times: every new point is distinct.
  Mat pending(0, 2);
  for (int k = 0; k < 4; ++k) {
    const Vec x = s.suggest(X, y, pending, 10 + k);
    EXPECT_TRUE(space->bounds().contains(x, 1e-12));
    for (int i = 0; i < pending.rows(); ++i)
      EXPECT_GT((space->bounds().to_unit(x) - space->bounds().to_unit(pending.row(i).transpose())).norm(), 1e-3)
          << "suggestion " << k << " repeats pending point " << i;
    pending.conservativeResize(pending.rows() + 1, Eigen::NoChange);
    pending.row(pending.rows() - 1) = x.transpose();
  }
  EXPECT_EQ(s.last_info()["phase"], "bo");
  EXPECT_EQ(s.last_info()["n_fantasies"], 3);
  ASSERT_NE(s.model(), nullptr);
  EXPECT_EQ(s.model()->size(), 10);  // the model holds real observations only
}

TEST(BOStrategy, AcquisitionsAndSchedulesAllProduceValidPoints) {
  Problem p = make_problem("hartmann6");
  auto space = std::make_shared<BoxSpace>(p.bounds);
  Rng rng = make_rng(2);
  Mat X = space->sample(12, SamplingMethod::Uniform, rng);
  Vec y(12);
  for (int i = 0; i < 12; ++i) y(i) = -p.f(X.row(i).transpose());
  for (const char* acq : {"ucb", "ei", "pi"})
    for (const char* sched : {"constant", "srinivas", "chowdhury"}) {
      StrategyConfig c = config("gpucb", 1);
      c.acquisition = acq;
      c.beta_schedule = parse_enum<BetaSchedule>("beta_schedule", sched);
      BOStrategy s(c, space);
      const Vec x = s.suggest(X, y, Mat(0, 6), 12);
      EXPECT_TRUE(x.allFinite());
      EXPECT_TRUE(space->bounds().contains(x, 1e-12)) << acq << "/" << sched;
    }
}

TEST(BOStrategy, BadConfigIsInputError) {
  auto space = std::make_shared<BoxSpace>(Box::unit(2));
  StrategyConfig c;
  c.acquisition = "foo";
  EXPECT_THROW(BOStrategy(c, space), InputError);
  c = StrategyConfig{};
  c.n_init = 0;
  EXPECT_THROW(BOStrategy(c, space), InputError);
  c = StrategyConfig{};
  c.strategy = "bogus";
  EXPECT_THROW(make_strategy(c, space), InputError);
  c = StrategyConfig{};
  c.kernel = "bogus";
  EXPECT_THROW(make_strategy(c, space), InputError);
}

// BO vs random search at the same budget, several fixed seeds.
//
// Margins. Branin (optimum 0.397887, 30 evaluations): the expected simple regret of 30 uniform points
// is ~0.5–1 (the three minima cover a small fraction of the box), while GP-UCB with 5 Sobol points and
// 25 iterations localises a minimum to < 0.05 in every seed we have run. We require the mean BO regret
// to be below a QUARTER of random search's and the BO regret to be below random's in at least 4 of 5
// seeds: a broken model or acquisition (e.g. wrong sign ⇒ BO worse than random, or no refit) fails it,
// while seed-to-seed noise does not. Hartmann-6 (optimum −3.32237, 45 evaluations): random search
// rarely gets below −2 in 45 points (regret > 1.3), BO reaches the basin of the global minimum in most
// seeds; we require mean BO regret < half of random's, and BO better in at least 4 of 5 seeds.
namespace {
void expect_bo_beats_random(const std::string& problem, int n_total, double mean_ratio) {
  const double optimum = make_problem(problem).optimum;
  std::vector<double> bo, rnd;
  int bo_wins = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    bo.push_back(test_support::best_value(run(problem, config("gpucb", seed), n_total)) - optimum);
    rnd.push_back(test_support::best_value(run(problem, config("random", seed), n_total)) - optimum);
    bo_wins += bo.back() < rnd.back();
    std::printf("%s seed %d: BO regret %.4g, random regret %.4g\n", problem.c_str(), int(seed), bo.back(), rnd.back());
  }
  const double bo_mean = std::accumulate(bo.begin(), bo.end(), 0.0) / bo.size();
  const double rnd_mean = std::accumulate(rnd.begin(), rnd.end(), 0.0) / rnd.size();
  EXPECT_LT(bo_mean, mean_ratio * rnd_mean) << problem << ": mean regret BO " << bo_mean << " random " << rnd_mean;
  EXPECT_GE(bo_wins, 4) << problem;
}
}  // namespace

TEST(BOBeatsRandom, Branin30Evaluations) { expect_bo_beats_random("branin", 30, 0.25); }
TEST(BOBeatsRandom, Hartmann6_45Evaluations) { expect_bo_beats_random("hartmann6", 45, 0.5); }
