// Storage as a user names and reaches it: read-only commands create nothing and
// work on read-only media, the accepted and refused storage URL shapes, paths in --config relative to the
// config file, and a full disk as an I/O error with its own exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cli_support.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

/// The names in a directory (to check that a command created nothing).
std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

/// Runs `kbo ARGS` in directory `cwd` (ARGS is shell syntax); `prefix` goes before the binary (e.g. a
/// setpriv or prlimit command).
CmdResult run_kbo_in(const fs::path& cwd, const std::string& args, const TempDir& out_dir, const std::string& prefix = "") {
  static int counter = 0;
  const std::string out = out_dir / ("acc_out" + std::to_string(counter));
  const std::string err = out_dir / ("acc_err" + std::to_string(counter++));
  const std::string cmd = "cd " + quote(cwd.string()) + " && " + prefix + " '" + kbo_binary() + "' " + args + " > '" +
                          out + "' 2> '" + err + "' < /dev/null";
  const int status = std::system(cmd.c_str());
  CmdResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

/// Creates study "s" (3 Branin trials) in the SQLite file `db`.
void make_study(const std::string& db, const TempDir& dir) {
  const CmdResult r = run_kbo("optimize --problem branin --init 3 --iters 0 --storage " + quote("sqlite:" + db) +
                                  " --study s --json",
                              dir);
  ASSERT_EQ(r.code, 0) << r.err;
}

}  // namespace

TEST(StorageAccessCli, ShowOfAMissingFileIsOneLineExit2AndCreatesNothing) {
  TempDir dir("show_missing");
  const fs::path sub = dir.path / "sub";
  fs::create_directories(sub);
  for (const std::string& storage : {"sqlite:" + (sub / "missing.db").string(), (sub / "missing.db").string()}) {
    const CmdResult r = run_kbo("show --storage " + quote(storage) + " --study s", dir);
    EXPECT_EQ(r.code, 2) << storage << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
    EXPECT_TRUE(listing(sub).empty()) << storage << " created a file";
  }
  // tell writes, but only to an existing study: a mistyped path creates nothing either.
  const CmdResult t = run_kbo("tell --storage " + quote((sub / "typo.db").string()) + " --trial 0 --value 1", dir);
  EXPECT_EQ(t.code, 2) << t.err;
  EXPECT_TRUE(listing(sub).empty());
}

TEST(StorageAccessCli, ShowReadsAStudyOnReadOnlyMediaWithoutCreatingAnyFile) {
  TempDir dir("show_ro");
  const fs::path media = dir.path / "media";
  fs::create_directories(media);
  make_study((media / "s.db").string(), dir);
  const std::set<std::string> before = listing(media);
  ASSERT_EQ(before, std::set<std::string>{"s.db"});  // the writer cleaned up its -wal/-shm
  fs::permissions(media / "s.db", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(media, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  // Root ignores permission bits: read as an unprivileged user then, for whom the media is truly read-only.
  const std::string as_user = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : "";
  const CmdResult r = run_kbo_in(dir.path, "show --storage " + quote("sqlite:" + (media / "s.db").string()) +
                                               " --study s --json",
                                 dir, as_user);
  fs::permissions(media, fs::perms::owner_all);  // let TempDir clean up
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["n_complete"].get<int>(), 3);
  EXPECT_EQ(listing(media), before) << "show created a file next to the database";
}

TEST(StorageAccessCli, ShowWhileAWriterHasTheDatabaseOpenSeesItsCommittedTrials) {
  // A writer in progress keeps -wal/-shm; show then reads through them (not the immutable fast path).
  TempDir dir("show_live");
  const std::string db = dir / "live.db";
  make_study(db, dir);
  const std::string out = dir / "opt.out", err = dir / "opt.err";
  const pid_t pid = spawn_kbo("optimize --objective 'read l; sleep 0.3; echo 1' --bounds 0:1 --init 4 --iters 0 --storage " +
                                  quote("sqlite:" + db) + " --study live",
                              out, err);
  ASSERT_GT(pid, 0);
  int seen = 0;
  for (int i = 0; i < 40 && seen == 0; ++i) {
    usleep(100000);
    const CmdResult r = run_kbo("show --storage " + quote("sqlite:" + db) + " --study live --json", dir);
    if (r.code == 0) seen = r.json()["n_complete"].get<int>();
  }
  EXPECT_EQ(wait_exit_code(pid), 0) << slurp(err);
  EXPECT_GE(seen, 1) << "show never saw a committed trial of the running study";
}

TEST(StorageAccessCli, SqliteUrlShapes) {
  TempDir dir("url_shapes");
  const fs::path cwd = dir.path / "cwd";
  fs::create_directories(cwd);
  const std::string run = "optimize --problem branin --init 2 --iters 0 --study s --json --storage ";
  // sqlite://NAME would make NAME a host: refused, naming the allowed shapes, and nothing created at "/".
  const std::string name = "kbo_url_test_" + std::to_string(getpid()) + ".db";
  const CmdResult bad = run_kbo_in(cwd, run + quote("sqlite://" + name), dir);
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_EQ(bad.err_lines(), 1) << bad.err;
  EXPECT_NE(bad.err.find("sqlite:///ABSOLUTE/PATH"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists("/" + name));
  fs::remove("/" + name);
  EXPECT_TRUE(listing(cwd).empty());
  for (const std::string& malformed : {std::string("sqlite:"), std::string("memroy"), std::string("mysql://h/db")}) {
    const CmdResult r = run_kbo_in(cwd, run + quote(malformed), dir);
    EXPECT_EQ(r.code, 2) << malformed << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
  }
  EXPECT_NE(run_kbo_in(cwd, run + "memroy", dir).err.find("did you mean 'memory'"), std::string::npos);
  // Accepted: relative (sqlite:rel, or a plain path as in Python), absolute (sqlite:/abs, sqlite:///abs).
  struct Shape {
    std::string url;
    fs::path file;
    std::string shown;  // how the study names its storage
  };
  const std::string abs1 = (dir.path / "abs1.db").string(), abs2 = (dir.path / "abs2.db").string();
  const std::vector<Shape> good = {
      {"sqlite:rel.db", cwd / "rel.db", "sqlite:rel.db"},
      {"plain.db", cwd / "plain.db", "sqlite:plain.db"},
      {"sub/dir.db", cwd / "sub" / "dir.db", "sqlite:sub/dir.db"},
      {"sqlite:" + abs1, abs1, "sqlite:" + abs1},
      {"sqlite://" + abs2, abs2, "sqlite:" + abs2},  // sqlite:///abs (abs2 starts with '/')
  };
  fs::create_directories(cwd / "sub");
  for (const auto& [url, file, shown_as] : good) {
    const CmdResult r = run_kbo_in(cwd, run + quote(url), dir);
    ASSERT_EQ(r.code, 0) << url << ": " << r.err;
    EXPECT_TRUE(fs::exists(file)) << url << " should be the file " << file;
    const CmdResult shown = run_kbo_in(cwd, "show --study s --json --storage " + quote(url), dir);
    ASSERT_EQ(shown.code, 0) << shown.err;
    EXPECT_EQ(shown.json()["n_complete"].get<int>(), 2);
    EXPECT_EQ(shown.json()["storage"].get<std::string>(), shown_as);
  }
}

TEST(StorageAccessCli, PathsInAConfigFileAreRelativeToIt) {
  TempDir dir("config_rel");
  const fs::path conf = dir.path / "project";
  const fs::path elsewhere = dir.path / "elsewhere";
  fs::create_directories(conf / "data");
  fs::create_directories(elsewhere);
  // The objective script and the data file it reads sit next to the config; it is started from elsewhere.
  {
    std::ofstream(conf / "data" / "offset.txt") << "0.25\n";
    std::ofstream f(conf / "f.sh");
    f << "#!/bin/sh\nread -r line\noff=$(cat data/offset.txt)\n"
         "echo \"$line\" | sed 's/.*\\[\\(.*\\)\\].*/\\1/' | awk -v o=\"$off\" '{printf \"%.17g\\n\", ($1-o)^2}'\n";
  }
  fs::permissions(conf / "f.sh", fs::perms::owner_all);
  std::ofstream(conf / "study.toml") << "storage = \"runs/s.db\"\nstudy = \"c\"\nobjective = \"./f.sh\"\n"
                                        "bounds = \"0:1\"\ninit = 3\niters = 0\n";
  fs::create_directories(conf / "runs");
  const CmdResult r = run_kbo_in(elsewhere, "optimize --config ../project/study.toml --json", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = r.json();
  EXPECT_EQ(j["n_complete"].get<int>(), 3) << r.out;
  for (const auto& t : j["trials"]) {
    if (t["state"] != "complete") continue;
    EXPECT_NEAR(t["value"].get<double>(), std::pow(t["x"][0].get<double>() - 0.25, 2), 1e-12);
  }
  EXPECT_TRUE(fs::exists(conf / "runs" / "s.db"));
  EXPECT_TRUE(listing(elsewhere).empty()) << "the storage went to the current directory";
  // The same config from another directory reaches the same study (and a flag still overrides the file).
  const CmdResult shown = run_kbo_in(dir.path, "show --config project/study.toml --json", dir);
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_EQ(shown.json()["n_trials"].get<int>(), 3);
}

TEST(StorageAccessCli, AFullDiskIsAnIOErrorWithItsOwnExitCodeAndTheStudyResumes) {
  // The file-size limit makes SQLite's writes fail part-way as on a full disk (short write / EFBIG).
  TempDir dir("disk_full");
  const std::string db = dir / "full.db";
  const std::string cmd = "optimize --problem branin --init 3 --iters 40 --seed 2 --storage " + quote("sqlite:" + db) +
                          " --study s --json";
  const CmdResult full = run_kbo_in(dir.path, cmd, dir, "prlimit --fsize=65536");
  EXPECT_EQ(full.code, 74) << full.err;
  EXPECT_EQ(full.err_lines(), 1) << full.err;
  EXPECT_NE(full.err.find("I/O error"), std::string::npos) << full.err;
  EXPECT_EQ(full.err.find("not a usable"), std::string::npos) << full.err;
  // With room again, the same command resumes: nothing committed was lost, the budget completes.
  const CmdResult again = run_kbo_in(dir.path, cmd, dir);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["n_complete"].get<int>(), 43);
}
