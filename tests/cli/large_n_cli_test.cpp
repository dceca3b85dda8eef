// The large-n model options as a user meets them: options.bo.model forces the subset-of-data model (or
// the exact one above the threshold), each trial's info says which model suggested it, and bad values
// are one-line errors naming the key, exit 2.
#include <gtest/gtest.h>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {
/// How many of the BO trials of `kbo optimize --json` were suggested by the subset model, with `bo`.
int subset_trials(const std::string& bo, const TempDir& dir) {
  const CmdResult r =
      run_kbo("optimize --problem branin --init 5 --iters 6 --seed 2 --storage memory --json --options " + quote(bo), dir);
  EXPECT_EQ(r.code, 0) << r.err;
  int count = 0;
  const json out = r.json();
  for (const auto& t : out["trials"])
    if (t.contains("info") && t["info"].contains("model")) {
      EXPECT_EQ(t["info"]["model"]["kind"], "subset");
      // below its 1,000 nearest + 500 spread rows the subset model conditions on every observation
      EXPECT_EQ(t["info"]["model"]["rows"].get<int>(), t["id"].get<int>()) << t.dump();
      ++count;
    }
  return count;
}
}  // namespace

TEST(LargeNCli, TheModelOptionIsHonouredEitherWay) {
  TempDir dir("large_n_cli");
  // Forced subset: every BO trial (6); auto: none (exact up to 2,000 observations); forced exact: none.
  EXPECT_EQ(subset_trials(R"({"bo": {"model": "subset"}})", dir), 6);
  EXPECT_EQ(subset_trials(R"({"bo": {"model": "auto"}})", dir), 0);
  EXPECT_EQ(subset_trials(R"({"bo": {"model": "exact"}})", dir), 0);
}

TEST(LargeNCli, BadModelOptionsAreOneLineErrorsNamingTheKey) {
  TempDir dir("large_n_cli_bad");
  for (const std::string bo : {R"({"bo": {"model": "sparse"}})", R"({"bo": {"fit_subset": 3}})",
                                 R"({"bo": {"subset_above": 7}})"}) {
    const CmdResult r = run_kbo("optimize --problem branin --init 2 --iters 1 --storage memory --options " + quote(bo), dir);
    EXPECT_EQ(r.code, 2) << bo << ": " << r.err;
    EXPECT_NE(r.err.find("options.bo."), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}
