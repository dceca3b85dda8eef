// BO over named, typed parameters: no suggestion ever violates a parameter's type or range (many seeds,
// every type), the mixed-space acquisition search finds a known discrete optimum, and a params study
// finds the optimum of a mixed problem that random search misses.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/params.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"

using namespace kbo;

namespace {

nlohmann::json all_types() {
  return nlohmann::json::array({"lr=float:1e-5:1e-1:log", "x=float:-3:2", "n=int:-2:3", "w=int:2:300:log",
                                "opt=cat:adam,sgd,rmsprop", "b=cat:16,32", "one=cat:only", "k=fixed:zz"});
}

// A mixed test function of the typed values (lower is better).
double mixed_objective(const nlohmann::json& p) {
  const double lr = p["lr"].get<double>(), x = p["x"].get<double>();
  const double n = p["n"].get<double>(), w = p["w"].get<double>();
  const double opt = p["opt"] == "sgd" ? 0.0 : p["opt"] == "adam" ? 0.7 : 1.5;
  return std::pow(std::log10(lr) + 3.0, 2) + std::pow(x - 0.5, 2) + std::pow(n - 1.0, 2) +
         0.5 * std::pow(std::log(w / 40.0), 2) + opt + (p["b"] == 32 ? 0.0 : 0.4);
}

void expect_valid(const ParamsSpace& space, const Vec& x, const std::string& where) {
  ASSERT_EQ(x.size(), space.dim()) << where;
  ASSERT_TRUE(space.bounds().contains(x, 0.0)) << where;
  Vec c = x;
  space.canonicalize(c);
  ASSERT_EQ(c, x) << where << ": not canonical (a value that cannot occur)";
  const nlohmann::json v = space.named(x);
  ASSERT_TRUE(v["lr"].is_number_float());
  ASSERT_GE(v["lr"].get<double>(), 1e-5);
  ASSERT_LE(v["lr"].get<double>(), 1e-1);
  ASSERT_GE(v["x"].get<double>(), -3.0);
  ASSERT_LE(v["x"].get<double>(), 2.0);
  ASSERT_TRUE(v["n"].is_number_integer());
  ASSERT_GE(v["n"].get<long long>(), -2);
  ASSERT_LE(v["n"].get<long long>(), 3);
  ASSERT_TRUE(v["w"].is_number_integer());
  ASSERT_GE(v["w"].get<long long>(), 2);
  ASSERT_LE(v["w"].get<long long>(), 300);
  ASSERT_TRUE(v["opt"] == "adam" || v["opt"] == "sgd" || v["opt"] == "rmsprop") << v;
  ASSERT_TRUE(v["b"] == 16 || v["b"] == 32) << v;
  ASSERT_EQ(v["one"], "only");
  ASSERT_EQ(v["k"], "zz");
}

}  // namespace

TEST(ParamsBO, NoSuggestionEverViolatesATypeOrRange) {
  auto space = std::make_shared<ParamsSpace>(params_from_json(all_types()));
  for (const char* acq : {"ucb", "ei"})
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      StrategyConfig c;
      c.seed = seed;
      c.acquisition = acq;
      c.n_init = 4;
      c.fit_restarts = 0;
      c.acq_optimizer.raw_samples = 128;
      if (seed % 3 == 2) c.acq_optimizer.type = AcqOptimizerType::Cmaes;
      auto strategy = make_strategy(c, space);
      Mat X(0, space->dim());
      Vec y(0);
      for (int t = 0; t < 10; ++t) {
        // One pending point from trial 6 on: fantasies keep suggestions canonical too.
        Mat pending = t >= 6 ? Mat(X.bottomRows(1)) : Mat(0, space->dim());
        const Vec x = strategy->suggest(X, y, pending, t);
        expect_valid(*space, x, std::string(acq) + " seed " + std::to_string(seed) + " trial " + std::to_string(t));
        X.conservativeResize(X.rows() + 1, Eigen::NoChange);
        X.row(X.rows() - 1) = x.transpose();
        y.conservativeResize(y.size() + 1);
        y[y.size() - 1] = -mixed_objective(space->named(x));
      }
    }
}

namespace {
// An acquisition with a known maximiser on a params space {n int 1..9, c cat a..d, u float 0..1}, read
// from the typed values so that the test knows the answer independently of the encoding.
class KnownAcquisition : public Acquisition {
 public:
  explicit KnownAcquisition(const ParamsSpace& s) : s_(s) {}
  double value(const Vec& x) const override {
    const nlohmann::json v = s_.named(x);  // rounds as the GP's inputs are rounded
    const double n = v["n"].get<double>(), u = v["u"].get<double>();
    return -std::pow(n - 7.0, 2) - (v["c"] == "c" ? 0.0 : 2.0) - std::pow(u - 0.3, 2) * 4.0 + 0.01 * n;
  }
  double value_and_gradient(const Vec& x, Vec& grad) const override {
    grad = Vec::Zero(x.size());
    const double h = 1e-6;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      Vec a = x, b = x;
      a[i] += h;
      b[i] -= h;
      grad[i] = (value(a) - value(b)) / (2 * h);
    }
    return value(x);
  }

 private:
  const ParamsSpace& s_;
};
}  // namespace

TEST(ParamsBO, MixedAcquisitionSearchFindsTheKnownDiscreteOptimum) {
  ParamsSpace space(params_from_json(nlohmann::json::array({"n=int:1:9", "c=cat:a,b,c,d", "u=float:0:1"})));
  KnownAcquisition acq(space);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    AcqOptimizerOptions o;
    o.seed = seed;
    o.raw_samples = 16;  // few candidates: the local search over neighbours has to do the work
    o.num_starts = 2;
    o.threads = 1;
    const OptResult r = maximize_acquisition(acq, space, o);
    const nlohmann::json v = space.named(r.x);
    EXPECT_EQ(v["n"], 7) << "seed " << seed << " " << v;
    EXPECT_EQ(v["c"], "c") << "seed " << seed << " " << v;
    EXPECT_NEAR(v["u"].get<double>(), 0.3, 1e-3) << "seed " << seed;
  }
}

TEST(ParamsBO, AParamsStudyBeatsRandomSearchOnAMixedProblem) {
  // Optimum 0 at lr 1e-3, x 0.5, n 1, w 40, sgd, b 32. Mean best over seeds, same budget.
  auto run = [](const std::string& strategy, std::uint64_t seed) {
    StudyRecord rec;
    rec.name = "p";
    rec.space = ParamsSpace(params_from_json(all_types())).to_json();
    StrategyConfig c;
    c.strategy = strategy;
    c.seed = seed;
    c.n_init = 6;
    rec.config = to_json(c);
    Study study = Study::create_or_open(std::make_shared<MemoryStorage>(), rec);
    auto s = make_strategy(c, study.space());
    study.optimize(*s, [&](const Trial& t) { return Evaluation::ok(mixed_objective(study.space()->named(t.x))); }, 30,
                   "test");
    return *study.best()->value;
  };
  double bo = 0.0, random = 0.0;
  const int seeds = 3;
  for (int s = 0; s < seeds; ++s) {
    bo += run("gpucb", s) / seeds;
    random += run("random", s) / seeds;
  }
  // Measured (seeds 0-2): bo 1.13, random 1.98.
  EXPECT_LT(bo, 0.75 * random) << "bo " << bo << ", random " << random;  // optimum 0
}

TEST(ParamsBO, TheModelCarriesWhatOneChoiceTaughtToAChoiceSeenOnce) {
  // Minimise (x − 0.3)² + offset(choice): every choice has the same trend in x. Choices a and d are seen
  // along x; b only once, at the bad x = 0.9 (as an initial design can show a choice once, at a bad point).
  // The model must carry the trend over to b: it expects b at x = 0.3 to beat b at x = 0.9. With the
  // continuous coordinates' lengthscale prior on the one-hot coordinates, the choices were ~4 lengthscales
  // apart (uncorrelated, a gradient too small to learn otherwise), b at 0.3 sat at the worst-value prior
  // mean, and a choice seen once at a bad point was never tried again (svc-sonar, docs/bench/spaces.md).
  auto space = std::make_shared<ParamsSpace>(params_from_json(nlohmann::json::array({"x=float:0:1", "c=cat:a,b,d"})));
  auto f = [](double x, const std::string& c) { return std::pow(x - 0.3, 2) + (c == "d" ? 0.05 : 0.0); };
  Mat X(23, space->dim());
  Vec y(23);
  int row = 0;
  auto add = [&](double x, const std::string& c) {
    X.row(row) = space->from_named({{"x", x}, {"c", c}}).transpose();
    y[row++] = -f(x, c);  // strategies maximise
  };
  for (int i = 0; i <= 10; ++i) add(0.1 * i, "a"), add(0.1 * i, "d");
  add(0.9, "b");
  // (The continuous coordinates' Gamma(3, 6) on the one-hot coordinates failed this check on every seed:
  // docs/bench/spaces.md.)
  for (std::uint64_t seed = 0; seed < 3; ++seed) {
    StrategyConfig c;
    c.seed = seed;
    c.n_init = 1;
    auto strategy = make_strategy(c, space);  // the default model, as a study builds it
    auto* bo = dynamic_cast<BOStrategy*>(strategy.get());
    ASSERT_NE(bo, nullptr);
    bo->suggest(X, y, Mat(0, space->dim()), 23);
    ASSERT_NE(bo->model(), nullptr);
    // The params space's box is the unit cube already (x in [0, 1], one-hot coordinates in [0, 1]).
    Mat probe(2, space->dim());
    probe.row(0) = space->from_named({{"x", 0.3}, {"c", "b"}}).transpose();
    probe.row(1) = space->from_named({{"x", 0.9}, {"c", "b"}}).transpose();
    const Vec mean = bo->model()->predict(probe).mean;  // the model's (warped) targets: higher is better
    EXPECT_GT(mean[0], mean[1]) << "seed " << seed << ": b at x = 0.3 expected no better than b at x = 0.9";
  }
}
