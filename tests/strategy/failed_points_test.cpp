// Failed trials are not fantasies of the pending kind: they reach the strategy separately, are never
// suggested again (nothing within kFailedRadius), and enter the model per BOModelOptions::failed_points.
#include <gtest/gtest.h>

#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/bo_strategy.hpp"

namespace kbo {
namespace {

struct Data {
  std::shared_ptr<BoxSpace> space;
  Mat X;
  Vec y;
};

Data branin_data(int n) {
  Problem p = make_problem("branin");
  Data d{std::make_shared<BoxSpace>(p.bounds), Mat(), Vec()};
  Rng rng = make_rng(11);
  d.X = d.space->sample(n, SamplingMethod::Uniform, rng);
  d.y.resize(n);
  for (int i = 0; i < n; ++i) d.y(i) = -p.f(d.X.row(i).transpose());
  return d;
}

double unit_distance(const Box& b, const Vec& a, const Vec& c) { return (b.to_unit(a) - b.to_unit(c)).norm(); }

TEST(FailedPoints, AFailedPointIsNeverSuggestedAgainUnderEveryModel) {
  const Data d = branin_data(10);
  for (const char* mode : {"worst", "pending", "avoid"}) {
    StrategyConfig c;
    c.n_init = 2;
    c.module_options = {{"bo", {{"failed_points", mode}}}};
    BOStrategy free(c, d.space);
    const Vec first = free.suggest(d.X, d.y, Mat(0, 2), 10);
    // The same step, told that `first` failed.
    BOStrategy told(c, d.space);
    const Vec next = told.suggest(d.X, d.y, Mat(0, 2), first.transpose(), 11);
    EXPECT_GE(unit_distance(d.space->bounds(), next, first), kFailedRadius) << mode;
    const auto info = told.last_info();
    ASSERT_TRUE(info.contains("failed_points")) << mode;
    EXPECT_EQ(info["failed_points"]["n"], 1);
    EXPECT_EQ(info["failed_points"]["model"], mode);
    EXPECT_EQ(info["n_fantasies"], 0) << "a failed point is not a pending fantasy";
  }
}

}  // namespace
}  // namespace kbo
