#pragma once
// Helpers for tests that run the kbo executable (KBO_BINARY) as a user would.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "kbo/storage/storage.hpp"

namespace kbo::test {

namespace fs = std::filesystem;

struct CmdResult {
  int code = -1;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
  int err_lines() const {
    int n = 0;
    for (char c : err) n += c == '\n';
    return n;
  }
};

/// The kbo executable under test: KBO_BINARY, or $KBO_TEST_BINARY when set (e.g. to check that a new test
/// fails against another build).
inline std::string kbo_binary() {
  const char* other = std::getenv("KBO_TEST_BINARY");
  return other && *other ? other : KBO_BINARY;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh directory for one test (removed on destruction).
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("kbo_cli_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

/// Runs `kbo ARGS` through the shell (ARGS is shell syntax), capturing stdout/stderr and the exit code.
inline CmdResult run_kbo(const std::string& args, const TempDir& dir) {
  static int counter = 0;
  const std::string out = dir / ("out" + std::to_string(counter));
  const std::string err = dir / ("err" + std::to_string(counter++));
  const std::string cmd = "'" + kbo_binary() + "' " + args + " > '" + out + "' 2> '" + err + "' < /dev/null";
  const int status = std::system(cmd.c_str());
  CmdResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

inline std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace kbo::test

#include <spawn.h>
extern char** environ;

namespace kbo::test {

/// Starts `kbo ARGS` in the background (the returned pid IS kbo: the shell execs it).
inline pid_t spawn_kbo(const std::string& args, const std::string& out, const std::string& err) {
  const std::string cmd = "exec '" + kbo_binary() + "' " + args + " > '" + out + "' 2> '" + err + "' < /dev/null";
  pid_t pid = -1;
  const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
  if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char* const*>(argv), environ) != 0) return -1;
  return pid;
}

inline int wait_exit_code(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// Polls the study in `url` until `wanted` of its trials are complete or `seconds` have passed; returns how many
/// are (a study not created yet counts none).
inline int wait_until_complete(const std::string& url, const std::string& study, int wanted, double seconds) {
  int complete = 0;
  for (int polls = 0; polls < static_cast<int>(seconds * 20) && complete < wanted; ++polls) {
    usleep(50000);
    try {
      complete = 0;
      for (const auto& t : kbo::open_storage(url)->trials(study)) complete += t.state == kbo::TrialState::Complete;
    } catch (const std::exception&) {
    }  // study not created yet
  }
  return complete;
}

}  // namespace kbo::test
