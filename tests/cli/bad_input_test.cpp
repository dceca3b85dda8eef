// Every bad input is ONE line on stderr naming what is wrong, and exit code 2.
#include <gtest/gtest.h>

#include "cli_support.hpp"

using namespace kbo::test;

namespace {

struct Case {
  std::string args;    // shell syntax; DIR is replaced by the test directory
  std::string expect;  // substring of the error line
};

std::string expand(std::string s, const TempDir& dir) {
  for (auto pos = s.find("DIR"); pos != std::string::npos; pos = s.find("DIR", pos)) s.replace(pos, 3, dir.path.string());
  return s;
}

void expect_input_error(const Case& c, const TempDir& dir) {
  const CmdResult r = run_kbo(expand(c.args, dir), dir);
  EXPECT_EQ(r.code, 2) << c.args << "\nstderr: " << r.err;
  EXPECT_EQ(r.err_lines(), 1) << c.args << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << "\nexpected '" << c.expect << "' in: " << r.err;
  EXPECT_TRUE(r.out.empty()) << c.args << "\nstdout: " << r.out;
}

}  // namespace

TEST(BadInput, FlagsProblemsBoundsAndStrategy) {
  TempDir dir("bad_flags");
  const std::vector<Case> cases = {
      {"frobnicate", "unknown command 'frobnicate'"},
      {"optimize --problem branin --bogus 1", "--bogus"},
      {"optimize --problem nosuch", "nosuch"},
      {"optimize --problem branin --dim 3", "branin"},
      {"optimize", "no objective"},
      {"optimize --objective 'echo 1'", "--objective needs --bounds"},
      {"optimize --bounds 0:1", "add --objective"},
      {"optimize --problem branin --objective 'echo 1'", "mutually exclusive"},
      {"optimize --problem branin --bounds 0:1", "bounds are only for an objective"},
      {"optimize --objective 'echo 1' --bounds 0:1 --dim 2", "dim is only for a problem"},
      {"optimize --objective 'echo 1' --bounds 1:0", "lo >= hi"},
      {"optimize --objective 'echo 1' --bounds 0:1,2:2", "entry 2 '2:2' has lo >= hi"},
      {"optimize --objective 'echo 1' --bounds 0:1,abc", "entry 2 'abc' is not lo:hi"},
      {"optimize --objective 'echo 1' --bounds 0:inf", "not lo:hi with finite numbers"},
      {"optimize --objective 'echo 1' --bounds 0:1,", "bounds entry 2 is empty (trailing comma"},
      {"optimize --objective 'echo 1' --bounds ''", "--bounds is given an empty value"},
      {"optimize --problem ''", "--problem is given an empty value"},
      {"optimize --problem bbob:25:1", "bbob function 25 is not one of 1-24"},
      {"optimize --objective 'echo 1' --bounds 0:1,0:1 --invariance signflip --invariant-kernel average --ard",
       "option 'ard' is not used with invariant_kernel 'average'"},
      {"optimize --objective 'echo 1' --bounds 0:1,0:1 --space set --set-size 2 --set-kernel average --ard",
       "option 'ard' is not used with set_kernel 'average'"},
      {"optimize --objective 'echo 1' --bounds 0:1,0:1 --space set --set-size 2 --set-kernel sliced --ard",
       "option 'ard' is not used with set_kernel 'sliced'"},
      {"optimize --problem bbob:3 --dim 4", "is not of the form bbob:F:I"},
      {"optimize --problem bbob:3:1 --dim 1", "bbob functions need --dim 2..40"},
      {"ask --problem ' ' --storage sqlite:DIR/e.db --study e", "--problem is given an empty value"},
      {"optimize --problem branin --minimize --maximize", "mutually exclusive"},
      {"optimize --problem branin --ard --no-ard", "mutually exclusive"},
      {"optimize --problem branin --kernel cosine", "cosine"},
      {"optimize --problem branin --acq foo", "allowed: ucb, ei, pi"},
      {"optimize --problem branin --strategy foo", "allowed: gpucb, random, agpucb"},
      {"optimize --problem branin --acq-optimizer foo", "foo"},
      {"optimize --problem branin --beta -1", "--beta must be a finite number >= 0"},
      {"optimize --problem branin --beta-schedule foo", "allowed: constant, srinivas, chowdhury"},
      {"optimize --problem branin --init 0", "--init must be an integer"},
      {"optimize --problem branin --iters x", "--iters must be an integer"},
      {"optimize --problem branin --seed -3", "--seed must be an integer"},
      {"optimize --problem branin --init-method halton", "halton"},
      {"optimize --problem branin --eval-timeout -1", "--eval-timeout"},
      {"optimize --problem branin --space torus", "allowed: box, set"},
      {"optimize --objective 'echo 1' --bounds 0:1 --space set", "set_size"},
      {"optimize --objective 'echo 1' --bounds 0:1,0:1 --space set --set-size 3 --element-dim 3", "element_dim 3"},
      {"optimize --objective 'echo 1' --bounds 0:1 --set-size 3", "need space set"},
      {"optimize --problem branin --invariant-kernel foo", "allowed: max, average"},
      {"optimize --problem branin --set-kernel foo", "allowed: full, approx"},
      {"optimize --problem branin --config DIR/missing.toml", "missing.toml"},
      {"optimize --problem branin --options '{\"bo\": {\"prior_mean\": \"best\"}}'",
       "prior_mean: unknown value 'best' (allowed: worst, gls, sample, quantile)"},
      {"optimize --problem branin --options '{\"bo\": {\"alt_kernel\": \"cosine\"}}'", "cosine"},
      {"optimize --problem branin --options '{\"bo\": {\"priormean\": \"gls\"}}'", "unknown key 'priormean'"},
  };
  for (const auto& c : cases) expect_input_error(c, dir);
}

TEST(BadInput, Storage) {
  TempDir dir("bad_storage");
  {
    std::ofstream(dir / "garbage.db") << "not a database at all, just text long enough for a header........\n";
  }
  const std::vector<Case> cases = {
      {"optimize --problem branin --storage sqlite:/nonexistent-kbo-dir/s.db", "unreachable"},
      // /proc cannot hold files for anyone (root included): unwritable storage.
      {"optimize --problem branin --storage sqlite:/proc/self/kbo.db", "storage 'sqlite:/proc/self/kbo.db'"},
      {"optimize --problem branin --storage sqlite:DIR", "is a directory"},
      {"optimize --problem branin --storage sqlite:DIR/garbage.db", "not a usable kbo SQLite database"},
      {"optimize --problem branin --storage mysql:x", "allowed: memory, sqlite:PATH"},
      {"optimize --problem branin --storage postgresql://localhost/db", "PostgreSQL"},
      {"ask --problem branin", "--storage is required"},
      {"show", "--storage is required"},
      {"tell --trial 0 --value 1", "--storage is required"},
  };
  for (const auto& c : cases) expect_input_error(c, dir);
}

TEST(BadInput, StudiesAndTrials) {
  TempDir dir("bad_study");
  const std::string st = "--storage sqlite:" + (dir / "s.db") + " --study s";
  ASSERT_EQ(run_kbo("optimize --problem branin --init 2 --iters 0 " + st, dir).code, 0);
  ASSERT_EQ(run_kbo("ask " + st, dir).code, 0);  // trial 2, pending
  const std::vector<Case> cases = {
      {"optimize --problem hartmann6 --init 2 --iters 0 " + st, "exists with a different space"},
      {"optimize --objective 'echo 1' --bounds -5:10,0:14 --init 2 --iters 0 " + st, "exists with a different space"},
      {"optimize --problem branin --maximize --init 2 --iters 0 " + st, "exists with direction minimize"},
      {"show --storage sqlite:" + (dir / "s.db") + " --study nosuch", "no study named 'nosuch'"},
      {"ask --storage sqlite:" + (dir / "s.db") + " --study nosuch", "no study named 'nosuch'"},
      {"tell " + st + " --trial 99 --value 1", "has no trial 99"},
      {"tell " + st + " --trial 0 --value 1", "already complete"},
      {"tell " + st + " --trial 2", "--value V or --failed REASON is required"},
      {"tell " + st + " --value 1", "--trial ID is required"},
      {"tell " + st + " --trial 2 --value nan", "--value must be a finite number"},
      {"tell " + st + " --trial 2 --value 1 --failed x", "mutually exclusive"},
  };
  for (const auto& c : cases) expect_input_error(c, dir);
  // The pending trial is untouched by the rejected tells.
  const auto j = run_kbo("show --json " + st, dir).json();
  EXPECT_EQ(j["trials"][2]["state"], "pending");
}

TEST(BadInput, ConfigFiles) {
  TempDir dir("bad_config");
  std::ofstream(dir / "unknown.toml") << "problem = \"branin\"\nbogus_key = 3\n";
  std::ofstream(dir / "badvalue.toml") << "problem = \"branin\"\niters = \"many\"\n";
  std::ofstream(dir / "syntax.toml") << "problem = \"branin\n";
  std::ofstream(dir / "badbounds.toml") << "objective = \"echo 1\"\nbounds = [[0, 1], [3]]\n";
  std::ofstream(dir / "badflag.toml") << "problem = \"branin\"\nmaximize = \"yes\"\n";
  std::ofstream(dir / "trialkey.toml") << "problem = \"branin\"\ntrial = 3\n";
  std::ofstream(dir / "emptyvalue.toml") << "problem = \"branin\"\nstudy = \"\"\n";
  const std::vector<Case> cases = {
      {"optimize --config DIR/unknown.toml", "unknown key 'bogus_key' (line 2); allowed: storage, study, problem"},
      {"optimize --config DIR/badvalue.toml", "iters must be an integer"},
      {"optimize --config DIR/syntax.toml", "syntax.toml"},
      {"optimize --config DIR/badbounds.toml", "array of [lo, hi] pairs"},
      {"optimize --config DIR/badflag.toml", "maximize must be true or false"},
      {"optimize --config DIR/trialkey.toml", "unknown key 'trial'"},
      {"optimize --config DIR/emptyvalue.toml", "key 'study' (line 2) is empty"},
  };
  for (const auto& c : cases) expect_input_error(c, dir);
}
