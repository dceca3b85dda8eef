// The Schedule stage (kbo/strategy/schedule.hpp): each step's plan against phases worked out by hand from
// the options' definitions.
#include <gtest/gtest.h>

#include "kbo/strategy/schedule.hpp"

namespace kbo {
namespace {

BOModelOptions options(const nlohmann::json& j) { return BOModelOptions::from_json(j); }

TEST(Schedule, DesignThenGlobalThenTheEndGameOfAKnownBudget) {
  StrategyConfig c;  // 5 design points
  const Schedule s(c, options(nlohmann::json::object()));
  // 5 + 50 at D = 6: the end-game is the last ceil(0.34 · 50) = 17 BO steps, trials 38 … 54.
  for (int t = 0; t < 5; ++t) EXPECT_EQ(s.plan(t, 55).phase, Phase::Design) << t;
  for (int t = 5; t < 38; ++t) EXPECT_EQ(s.plan(t, 55).phase, Phase::Global) << t;
  for (int t = 38; t < 55; ++t) {
    const StepPlan p = s.plan(t, 55);
    EXPECT_EQ(p.phase, Phase::Local) << t;
    ASSERT_TRUE(p.endgame.has_value());
    EXPECT_DOUBLE_EQ(*p.endgame, (55.0 - t - 1) / 17.0);
  }
  // Open-ended ask/tell: no end-game.
  EXPECT_EQ(s.plan(50, std::nullopt).phase, Phase::Global);
  const std::vector<ScheduleRow> rows = s.table(55);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].last, 4);
  EXPECT_EQ(rows[1].first, 5);
  EXPECT_EQ(rows[1].last, 37);
  EXPECT_EQ(rows[2].first, 38);
  EXPECT_EQ(rows[2].last, 54);
  EXPECT_EQ(rows[2].what, "local, end-game");
}

TEST(Schedule, ExplorationFirstTakesAtMostAQuarterOfAKnownBudget) {
  StrategyConfig c;
  c.beta = 4.0;
  const Schedule s(c, options({{"early_steps", 10}, {"early_beta", 16.0}, {"endgame_fraction", 0.0}}));
  EXPECT_EQ(s.early_steps(45), 10);  // 40 BO steps: a quarter is 10
  EXPECT_EQ(s.early_steps(17), 3);   // 12 BO steps: 3
  EXPECT_EQ(s.early_steps(std::nullopt), 10);
  EXPECT_TRUE(s.plan(7, 17).early);
  EXPECT_DOUBLE_EQ(s.plan(7, 17).beta, 16.0);
  EXPECT_FALSE(s.plan(8, 17).early);
  EXPECT_DOUBLE_EQ(s.plan(8, 17).beta, 4.0);
}

}  // namespace
}  // namespace kbo
