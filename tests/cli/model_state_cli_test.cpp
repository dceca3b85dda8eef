// The stored model state as a user meets it: `kbo optimize` stores the last fit's hyperparameters with
// the study, and a fresh `kbo ask` process adopts them instead of refitting from scratch (it refits only
// when the ⌈√n⌉ schedule says so, which the stored n shows).
#include <gtest/gtest.h>

#include "cli_support.hpp"
#include "kbo/storage/storage.hpp"

using namespace kbo::test;
using nlohmann::json;

TEST(ModelStateCli, AFreshAskWarmStartsFromTheStoredFitAndRefitsOnlyWhenDue) {
  TempDir dir("model_state_cli");
  const std::string url = "sqlite:" + (dir / "s.db");
  const std::string st = " --storage " + quote(url) + " --study m";
  // Incremental from 8 observations on (the default is 64; the schedule is the same), θ kept between full
  // refits (no warm refits: warm_refit_below 0).
  const std::string opts = " --options " + quote(R"({"bo": {"full_refit_below": 8, "warm_refit_below": 0}})");
  const CmdResult r = run_kbo("optimize --problem branin --init 5 --iters 4 --seed 3 --json" + opts + st, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  // Asks at 5, 6, 7 observations refit (below 8), the one at 8 keeps θ (7 + ceil(sqrt(7)) = 10 > 8).
  const json stored = kbo::open_storage(url)->load_model_state("m");
  ASSERT_TRUE(stored.is_object()) << stored.dump();
  EXPECT_EQ(stored["n"].get<int>(), 7);
  for (const auto& [kernel, theta] : stored["theta"].items())
    for (const auto& v : theta) EXPECT_TRUE(std::isfinite(v.get<double>())) << kernel;

  // An ask by a fresh process at 9 observations: not due, so the stored fit is kept as it is.
  for (int k = 0; k < 1; ++k) {
    const CmdResult a = run_kbo("ask" + st, dir);
    ASSERT_EQ(a.code, 0) << a.err;
    const json t = a.json();
    const CmdResult told = run_kbo("tell --trial " + std::to_string(t["trial"].get<int>()) + " --value 1.5" + st, dir);
    ASSERT_EQ(told.code, 0) << told.err;
    EXPECT_EQ(kbo::open_storage(url)->load_model_state("m"), stored) << "ask " << k;
  }
  // At 10 observations the refit is due: the fresh process refits and stores the new fit.
  const CmdResult due = run_kbo("ask" + st, dir);
  ASSERT_EQ(due.code, 0) << due.err;
  const json after = kbo::open_storage(url)->load_model_state("m");
  EXPECT_EQ(after["n"].get<int>(), 10);
  EXPECT_EQ(after["model"], stored["model"]);
}

TEST(ModelStateCli, BadScheduleOptionsAreOneLineErrorsNamingTheKey) {
  TempDir dir("model_state_cli_bad");
  for (const std::string key : {"full_refit_below", "refit_every", "warm_refit_below", "warm_refit_evaluations"}) {
    const CmdResult r = run_kbo("optimize --problem branin --init 2 --iters 1 --storage memory --options " +
                                    quote("{\"bo\": {\"" + key + "\": -1}}"),
                                dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("options.bo." + key), std::string::npos) << r.err;
  }
}

TEST(ModelStateCli, BadCategoricalPriorOptionsAreOneLineErrors) {
  TempDir dir("model_state_cli_bad_prior");
  const auto run = [&](const std::string& bo) {
    return run_kbo("optimize --problem branin --init 2 --iters 1 --storage memory --options " + quote("{\"bo\": " + bo + "}"),
                   dir);
  };
  const CmdResult shape = run(R"({"categorical_lengthscale_prior_shape": 0.5})");
  EXPECT_EQ(shape.code, 2) << shape.err;
  EXPECT_NE(shape.err.find("categorical_lengthscale_prior_shape must be >= 1"), std::string::npos) << shape.err;
  const CmdResult rate = run(R"({"categorical_lengthscale_prior_rate": 0})");
  EXPECT_EQ(rate.code, 2) << rate.err;
  EXPECT_NE(rate.err.find("prior shapes and rates must be > 0"), std::string::npos) << rate.err;
}
