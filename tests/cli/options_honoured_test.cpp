// Every option is honoured or rejected: an option given explicitly that the chosen strategy, acquisition,
// space or structure does not use is one line naming the option and what ignores it, exit 2, before any
// trial runs (the objective below would leave a file behind if it ran even once).
#include <gtest/gtest.h>

#include "cli_support.hpp"

using namespace kbo::test;

namespace {

struct RejectedOption {
  std::string args;
  std::vector<std::string> expect;  // substrings of the one error line
};

void expect_rejected_before_any_trial(const RejectedOption& c, const TempDir& dir) {
  const std::string marker = dir / "ran";
  const std::string objective = "--objective 'touch " + marker + "; echo 1' ";
  const CmdResult r = run_kbo("optimize " + objective + c.args, dir);
  EXPECT_EQ(r.code, 2) << c.args << "\nstderr: " << r.err;
  EXPECT_EQ(r.err_lines(), 1) << c.args << "\nstderr: " << r.err;
  for (const auto& e : c.expect)
    EXPECT_NE(r.err.find(e), std::string::npos) << c.args << "\nexpected '" << e << "' in: " << r.err;
  EXPECT_FALSE(fs::exists(marker)) << c.args << ": a trial ran";
}

}  // namespace

TEST(OptionsHonoured, EachStrategyRejectsTheOptionsItDoesNotUse) {
  TempDir dir("honoured");
  const std::string box = "--bounds 0:1,0:1 --iters 2 ";
  // A-GP-UCB builds its own kernel and UCB schedule: the model options of gpucb do not apply.
  for (const char* opt_text : {"--acq ei", "--kernel rbf", "--no-ard", "--ard", "--beta 2", "--beta-schedule srinivas",
                                 "--invariance permutation", "--invariant-kernel average", "--fit-restarts 3"}) {
    const std::string opt = opt_text;
    const std::string name = opt.substr(2, opt.find(' ') == std::string::npos ? std::string::npos : opt.find(' ') - 2);
    std::string key = name;
    for (auto& ch : key) ch = ch == '-' ? '_' : ch;
    expect_rejected_before_any_trial({box + "--strategy agpucb " + opt, {"option '" + key + "'", "strategy 'agpucb'"}}, dir);
  }
  expect_rejected_before_any_trial({"--bounds 0:1 --space set --set-size 2 --iters 2 --strategy agpucb --set-kernel approx",
                                    {"option 'set_kernel'", "strategy 'agpucb'"}},
                                   dir);
  // Random search uses the seed and the initial design size only.
  for (const char* opt_text : {"--acq ei", "--kernel rbf", "--fantasy none", "--init-method uniform",
                                 "--options '{\"bo\": {}}'", "--acq-optimizer cmaes"})
    expect_rejected_before_any_trial({box + "--strategy random " + opt_text, {"strategy 'random'"}}, dir);
}

TEST(OptionsHonoured, OptionsOfAnInactivePartAreRejectedToo) {
  TempDir dir("inactive");
  const std::string box = "--bounds 0:1,0:1 --iters 2 ";
  expect_rejected_before_any_trial({box + "--acq ei --beta 2", {"option 'beta'", "acquisition 'ei'"}}, dir);
  expect_rejected_before_any_trial({box + "--acq pi --beta-schedule srinivas", {"option 'beta_schedule'", "acquisition 'pi'"}}, dir);
  expect_rejected_before_any_trial({box + "--beta-schedule srinivas --beta 2", {"option 'beta'", "beta_schedule 'srinivas'"}}, dir);
  expect_rejected_before_any_trial({box + "--invariant-kernel average", {"option 'invariant_kernel'", "without invariance"}}, dir);
  expect_rejected_before_any_trial({box + "--set-kernel approx", {"option 'set_kernel'", "'box' space"}}, dir);
  expect_rejected_before_any_trial({box + "--set-L 2", {"option 'set_L'", "'box' space"}}, dir);
  expect_rejected_before_any_trial({box + "--invariance permutation --invariant-kernel average --ard",
                                    {"option 'ard'", "invariant_kernel 'average'"}}, dir);
  // Options sections the configuration does not read.
  expect_rejected_before_any_trial({box + "--options '{\"agpucb\": {\"lambda\": 0.1}}'", {"section 'agpucb'", "strategy 'gpucb'"}}, dir);
  expect_rejected_before_any_trial({box + "--options '{\"invariance\": {\"path\": \"brute\"}}'", {"section 'invariance'"}}, dir);
  expect_rejected_before_any_trial({box + "--options '{\"rkhs_bound\": 2}'", {"section 'rkhs_bound'"}}, dir);
  // The same options in a config file are rejected the same way.
  std::ofstream(dir / "c.toml") << "strategy = \"agpucb\"\nacq = \"ei\"\n";
  expect_rejected_before_any_trial({box + "--config " + dir / "c.toml", {"option 'acq'", "strategy 'agpucb'"}}, dir);
}

TEST(OptionsHonoured, UnknownOrMistypedNestedOptionsFailBeforeTheFirstTrial) {
  TempDir dir("nested");
  const std::string box = "--bounds 0:1,0:1 --iters 2 ";
  expect_rejected_before_any_trial({box + "--options '{\"zzz\": 1}'", {"unknown section 'zzz'", "allowed: bo"}}, dir);
  expect_rejected_before_any_trial({box + "--options '{\"BO\": {}}'", {"unknown section 'BO'"}}, dir);
  expect_rejected_before_any_trial({box + "--options '{\"bo\": {\"noise_floor\": \"x\"}}'", {"options.bo.noise_floor", "removed"}}, dir);
  expect_rejected_before_any_trial({box + "--options '{\"bo\": {\"fit\": {\"deep\": 1}}}'", {"unknown key 'fit'"}}, dir);
  expect_rejected_before_any_trial({box + "--beta-schedule chowdhury --options '{\"rkhs_bound\": \"x\"}'", {"rkhs_bound"}}, dir);
  expect_rejected_before_any_trial({box + "--strategy agpucb --options '{\"agpucb\": {\"lambda\": \"x\"}}'", {"lambda"}}, dir);
  expect_rejected_before_any_trial({box + "--strategy agpucb --options '{\"agpucb\": {\"zzz\": 1}}'", {"zzz"}}, dir);
  expect_rejected_before_any_trial({box + "--invariance permutation --options '{\"invariance\": {\"path\": 3}}'", {"invariant kernel"}}, dir);
  expect_rejected_before_any_trial({box + "--invariance nosuchgroup", {"nosuchgroup", "allowed"}}, dir);
}

TEST(OptionsHonoured, HonouredOptionsStillWork) {
  TempDir dir("ok");
  const std::string box = "--objective 'echo 1' --bounds 0:1,0:1 --init 2 --iters 1 --json ";
  for (const char* opt_text : {"--strategy agpucb --init-method uniform --fantasy none --options '{\"lambda\": 0.2}'",
                                 "--strategy agpucb --options '{\"agpucb\": {\"lambda\": 0.2}}'",
                                 "--strategy random --seed 3", "--acq ei --kernel rbf --no-ard --fit-restarts 1",
                                 "--beta-schedule chowdhury --options '{\"rkhs_bound\": 2}'",
                                 "--invariance permutation --invariant-kernel average --no-ard",
                                 "--invariance signflip --ard", "--space set --set-size 2 --set-kernel max --ard"}) {
    const CmdResult r = run_kbo("optimize " + box + opt_text, dir);
    EXPECT_EQ(r.code, 0) << opt_text << "\n" << r.err;
  }
}
