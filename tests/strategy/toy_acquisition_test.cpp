// A new acquisition is one class and one registration: this file alone adds "toy_mean" (the posterior mean,
// pure exploitation) and runs a BO step with it through the strategy registry.
#include <gtest/gtest.h>

#include "kbo/acquisition/registry.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {
namespace {

int toy_built = 0;

class ToyMean : public Acquisition {
 public:
  explicit ToyMean(const GP& gp) : gp_(gp) {}
  double value(const Vec& x) const override { return gp_.predict(x.transpose()).mean(0); }
  double value_and_gradient(const Vec& x, Vec& grad) const override {
    double mean = 0.0, variance = 0.0;
    Vec dvariance;
    gp_.predict_with_gradient(x, mean, variance, grad, dvariance);
    return mean;
  }

 private:
  const GP& gp_;
};

TEST(AcquisitionRegistry, AToyAcquisitionRegisteredInATestRunsABOStep) {
  acquisitions().add("toy_mean", {[](const AcquisitionInputs& in) -> std::unique_ptr<Acquisition> {
                                    ++toy_built;
                                    return std::make_unique<ToyMean>(in.gp);
                                  },
                                  {}, "posterior mean (test)"});
  Problem p = make_problem("branin");
  auto space = std::make_shared<BoxSpace>(p.bounds);
  StrategyConfig c;
  c.acquisition = "toy_mean";
  c.n_init = 3;
  validate(c, space->dim());  // the registered name is a valid choice everywhere names are checked
  auto strategy = make_strategy(c, space);
  Rng rng = make_rng(4);
  Mat X = space->sample(8, SamplingMethod::Uniform, rng);
  Vec y(8);
  for (int i = 0; i < 8; ++i) y(i) = -p.f(X.row(i).transpose());
  const Vec x = strategy->suggest(X, y, Mat(0, 2), 8);
  EXPECT_EQ(toy_built, 1);
  EXPECT_TRUE(space->bounds().contains(x, 1e-12));
  EXPECT_EQ(strategy->last_info().value("phase", ""), "bo");
  // Pure exploitation lands near the best point seen (Branin's minima are far apart relative to 8 points).
  Eigen::Index best = 0;
  y.maxCoeff(&best);
  EXPECT_LT((x - X.row(best).transpose()).norm(), 0.5 * (p.bounds.upper - p.bounds.lower).norm());
}

}  // namespace
}  // namespace kbo
