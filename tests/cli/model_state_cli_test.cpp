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
  // From 200 observations on θ is kept between full refits, which come once ⌈√n⌉ new observations arrived
  // since the last (below, every ask refits θ from the warm start). 200 design points, then one BO step:
  // the first fit, at n = 200.
  const CmdResult r = run_kbo("optimize --problem branin --init 200 --iters 1 --seed 3 --json" + st, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json stored = kbo::open_storage(url)->load_model_state("m");
  ASSERT_TRUE(stored.is_object()) << stored.dump();
  EXPECT_EQ(stored["n"].get<int>(), 200);
  for (const auto& [kernel, theta] : stored["theta"].items())
    for (const auto& v : theta) EXPECT_TRUE(std::isfinite(v.get<double>())) << kernel;

  // Asks by fresh processes at 201 … 214 observations: not due (200 + ⌈√200⌉ = 215), so the stored fit is
  // kept as it is.
  for (int k = 0; k < 14; ++k) {
    const CmdResult a = run_kbo("ask" + st, dir);
    ASSERT_EQ(a.code, 0) << a.err;
    const json t = a.json();
    const CmdResult told = run_kbo("tell --trial " + std::to_string(t["trial"].get<int>()) + " --value 1.5" + st, dir);
    ASSERT_EQ(told.code, 0) << told.err;
    EXPECT_EQ(kbo::open_storage(url)->load_model_state("m"), stored) << "ask " << k;
  }
  // At 215 observations the refit is due: the fresh process refits and stores the new fit.
  const CmdResult due = run_kbo("ask" + st, dir);
  ASSERT_EQ(due.code, 0) << due.err;
  const json after = kbo::open_storage(url)->load_model_state("m");
  EXPECT_EQ(after["n"].get<int>(), 215);
  EXPECT_EQ(after["model"], stored["model"]);
}

TEST(ModelStateCli, BadScheduleOptionsAreOneLineErrorsNamingTheKey) {
  TempDir dir("model_state_cli_bad");
  for (const std::string key : {"full_refit_below", "fit_subset"}) {
    const CmdResult r = run_kbo("optimize --problem branin --init 2 --iters 1 --storage memory --options " +
                                    quote("{\"bo\": {\"" + key + "\": -1}}"),
                                dir);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("options.bo." + key), std::string::npos) << r.err;
  }
}

