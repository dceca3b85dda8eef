// The local quadratic's weights as a user meets them (`kbo optimize --json`): on BBOB's ellipsoid (condition
// 10⁶) at d = 2, with `kbo bench bbob`'s budget (5 + 65) and seed (= instance), the default runs end within
// 1e-2 of fopt more often and closer, because on a space of at most 2 coordinates each neighbour's residual
// weighs (gap + g₀)^−2 (the planar preset's local_fit_power 2); with uniform weights (local_fit_power 0)
// fewer do. Every local
// quadratic step states its fit_power in the trial info; in 3-d the default's is 0.
#include <gtest/gtest.h>

#include <string>

#include "cli_support.hpp"
#include "kbo/optimize/bbob.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

// f − fopt of the run's best trial, and checks that every fitted quadratic step says `power`.
double final_gap(const json& out, double fopt, double power) {
  int quadratic_steps = 0;
  for (const auto& t : out["trials"])
    if (t.contains("info") && t["info"].contains("local") && t["info"]["local"]["model"] == "quadratic") {
      ++quadratic_steps;
      EXPECT_EQ(t["info"]["local"]["fit_power"].get<double>(), power) << t["id"];
    }
  EXPECT_GT(quadratic_steps, 0);
  return out["best_value"].get<double>() - fopt;
}

}  // namespace

TEST(LocalFitCli, TheIllConditionedValleyIsSolvedWithTheDefaultWeightsAt2d) {
  TempDir dir("local_fit_cli");
  // Instances 1-5 (seed = instance, as the bench runs them): one run's last digits follow the CPU's vector
  // path (AVX2 or AVX-512 kernels), so the claim is over the instances: closer to fopt, solved more often.
  int weighted_solved = 0, uniform_solved = 0, weighted_closer = 0;
  for (int instance = 1; instance <= 5; ++instance) {
    const double fopt = kbo::make_bbob(10, instance, 2).optimum;
    const std::string run = "optimize --problem bbob:10:" + std::to_string(instance) + " --dim 2 --seed " +
                            std::to_string(instance) + " --init 5 --iters 65 --json --storage memory";
    const CmdResult weighted = run_kbo(run, dir);
    ASSERT_EQ(weighted.code, 0) << weighted.err;
    const double weighted_gap = final_gap(weighted.json(), fopt, 2.0);
    const CmdResult uniform = run_kbo(run + " --options " + quote(R"({"bo": {"local_fit_power": 0}})"), dir);
    ASSERT_EQ(uniform.code, 0) << uniform.err;
    const double uniform_gap = final_gap(uniform.json(), fopt, 0.0);
    weighted_solved += weighted_gap <= 1e-2;
    uniform_solved += uniform_gap <= 1e-2;
    weighted_closer += weighted_gap < uniform_gap;
  }
  // (Here: 1e-2 reached on 2 / 5 instances with the weights, 0 without; closer on all 5. Elsewhere 4 / 5.)
  EXPECT_GE(weighted_closer, 4);
  EXPECT_GT(weighted_solved, uniform_solved);
  // 3-d: uniform by default (Ackley-6 and Hartmann-6 lose with weights; docs/bench/bbob.md).
  const CmdResult d3 = run_kbo("optimize --problem bbob:10:2 --dim 3 --seed 2 --init 5 --iters 25 --json --storage memory", dir);
  ASSERT_EQ(d3.code, 0) << d3.err;
  final_gap(d3.json(), kbo::make_bbob(10, 2, 3).optimum, 0.0);
  for (const char* bad : {R"({"bo": {"local_fit_power": -1}})", R"({"bo": {"local_fit_power_2d": "two"}})"}) {
    const CmdResult r = run_kbo("optimize --problem branin --iters 2 --options " + quote(bad), dir);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("local_fit_power"), std::string::npos) << r.err;
  }
}
