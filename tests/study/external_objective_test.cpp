// External objective runner: protocol (stdin JSON, last stdout line) and every failure mode.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/study/objective.hpp"

namespace fs = std::filesystem;
using namespace kbo;

namespace {
Trial trial(int id, Vec x) {
  Trial t;
  t.id = id;
  t.x = std::move(x);
  return t;
}
std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
fs::path temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("kbo_objective_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
}  // namespace

TEST(ExternalObjective, ReceivesTrialJsonOnStdinAndReturnsTheLastLine) {
  const fs::path dir = temp_dir("stdin");
  const fs::path got = dir / "stdin.txt";
  ExternalObjective f("cat > '" + got.string() + "'; echo 'log line'; echo; echo '  -1.25e-3 '");
  const Evaluation ev = f(trial(7, Vec{{0.5, -2.0}}));
  ASSERT_TRUE(ev.value.has_value()) << ev.reason;
  EXPECT_DOUBLE_EQ(*ev.value, -1.25e-3);
  const auto j = nlohmann::json::parse(read_file(got));
  EXPECT_EQ(j["trial"], 7);
  EXPECT_EQ(j["x"], nlohmann::json({0.5, -2.0}));
  fs::remove_all(dir);
}

TEST(ExternalObjective, SubstitutesXAndTrial) {
  ExternalObjective f("echo {x} {trial} | awk '{print $1 + $2 + 100 * $3}'");
  const Evaluation ev = f(trial(3, Vec{{0.25, 1.5}}));
  ASSERT_TRUE(ev.value.has_value()) << ev.reason;
  EXPECT_DOUBLE_EQ(*ev.value, 301.75);
}

TEST(ExternalObjective, CommandThatIgnoresStdinStillWorks) {
  ExternalObjective f("echo 4");
  const Evaluation ev = f(trial(0, Vec::Constant(20000, 0.123456789)));  // > pipe buffer of JSON
  ASSERT_TRUE(ev.value.has_value()) << ev.reason;
  EXPECT_EQ(*ev.value, 4.0);
}

TEST(ExternalObjective, FailuresCarryTheirReason) {
  const Trial t = trial(1, Vec{{0.0}});
  auto reason = [&](const std::string& cmd) {
    const Evaluation ev = ExternalObjective(cmd)(t);
    EXPECT_FALSE(ev.value.has_value()) << cmd;
    return ev.reason;
  };
  EXPECT_NE(reason("echo 1; exit 3").find("exit status 3"), std::string::npos);
  EXPECT_NE(reason("kill -9 $$").find("signal 9"), std::string::npos);
  EXPECT_NE(reason("echo nan").find("non-finite"), std::string::npos);
  EXPECT_NE(reason("echo -inf").find("non-finite"), std::string::npos);
  EXPECT_NE(reason("echo 1.5abc").find("not a number"), std::string::npos);
  EXPECT_NE(reason("echo hello").find("not a number: 'hello'"), std::string::npos);
  EXPECT_NE(reason("true").find("no output"), std::string::npos);
  EXPECT_NE(reason("/nonexistent/kbo-command").find("exit status 127"), std::string::npos);
}

TEST(ExternalObjective, FailureReasonKeepsTheLastStderrLine) {
  const Trial t = trial(1, Vec{{0.0}});
  const Evaluation ev = ExternalObjective("echo 'loading' >&2; echo 'ValueError: bad x' >&2; echo '  ' >&2; exit 1")(t);
  EXPECT_FALSE(ev.value.has_value());
  EXPECT_EQ(ev.reason, "exit status 1: ValueError: bad x");
  // Also for a value that is not a number, and a success keeps no reason.
  const Evaluation junk = ExternalObjective("echo 'warning: slow' >&2; echo hello")(t);
  EXPECT_EQ(junk.reason, "last line of stdout is not a number: 'hello': warning: slow");
  const Evaluation ok = ExternalObjective("echo 'note' >&2; echo 2")(t);
  ASSERT_TRUE(ok.value.has_value()) << ok.reason;
  EXPECT_EQ(*ok.value, 2.0);
}

TEST(ExternalObjective, CommandThatCannotRunIsNotAFailureOfThePoint) {
  const Trial t = trial(1, Vec{{0.0}});
  const Evaluation missing = ExternalObjective("/nonexistent/kbo-command")(t);
  EXPECT_TRUE(missing.cannot_run);
  EXPECT_NE(missing.reason.find("exit status 127: "), std::string::npos) << missing.reason;
  EXPECT_NE(missing.reason.find("not found"), std::string::npos) << missing.reason;
  const fs::path dir = temp_dir("noexec");
  std::ofstream(dir / "obj.sh") << "#!/bin/sh\necho 1\n";  // not executable
  const Evaluation noexec = ExternalObjective((dir / "obj.sh").string())(t);
  EXPECT_TRUE(noexec.cannot_run);
  EXPECT_NE(noexec.reason.find("exit status 126"), std::string::npos) << noexec.reason;
  // An ordinary failure is not "cannot run".
  EXPECT_FALSE(ExternalObjective("exit 1")(t).cannot_run);
  fs::remove_all(dir);
}

TEST(ExternalObjective, TheValueIsWhatTheProcessPrintedBeforeItExited) {
  // A background child keeps stdout open and prints later: it must neither supply the value nor hold the
  // trial, and it is killed with the rest of the process group when the objective exits.
  const fs::path dir = temp_dir("background");
  const fs::path pidfile = dir / "child.pid";
  ExternalObjective f("cat >/dev/null; (sleep 3; echo 99) & echo $! > '" + pidfile.string() + "'; echo 1.0");
  const Evaluation ev = f(trial(0, Vec{{0.0}}));
  ASSERT_TRUE(ev.value.has_value()) << ev.reason;
  EXPECT_EQ(*ev.value, 1.0);
  const pid_t child = std::stoi(read_file(pidfile));
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
    std::string content((std::istreambuf_iterator<char>(stat)), {});
    gone = content.empty() || content.find(") Z") != std::string::npos;
    if (!gone) usleep(10000);
  }
  EXPECT_TRUE(gone) << "background process " << child << " outlived its objective";
  fs::remove_all(dir);
}

TEST(ExternalObjective, ValueMayBeAJsonObject) {
  const Trial t = trial(0, Vec{{0.0}});
  const Evaluation ev = ExternalObjective("echo 'log'; echo '{\"value\": -2.5e-3, \"elapsed\": 4}'")(t);
  ASSERT_TRUE(ev.value.has_value()) << ev.reason;
  EXPECT_EQ(*ev.value, -2.5e-3);
  EXPECT_FALSE(ExternalObjective("echo '{\"value\": \"2\"}'")(t).value.has_value());
  EXPECT_FALSE(ExternalObjective("echo '{\"loss\": 2}'")(t).value.has_value());
  EXPECT_FALSE(ExternalObjective("echo '{\"value\": 2'")(t).value.has_value());
  EXPECT_NE(ExternalObjective("echo '{\"value\": null}'")(t).reason.find("JSON object"), std::string::npos);
}

TEST(ExternalObjective, TimeoutKillsTheWholeProcessGroup) {
  const fs::path dir = temp_dir("timeout");
  const fs::path pidfile = dir / "child.pid";
  // The shell starts a background sleeper and waits for it: both must die at the timeout.
  ExternalObjective f("sleep 60 & echo $! > '" + pidfile.string() + "'; wait", 0.3);
  const Evaluation ev = f(trial(0, Vec{{0.0}}));
  EXPECT_FALSE(ev.value.has_value());
  EXPECT_NE(ev.reason.find("timeout"), std::string::npos) << ev.reason;
  const pid_t child = std::stoi(read_file(pidfile));
  // The sleeper was SIGKILLed; it may linger as a zombie of init for an instant, never as a sleeper.
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
    std::string content((std::istreambuf_iterator<char>(stat)), {});
    gone = content.empty() || content.find(") Z") != std::string::npos;
    if (!gone) usleep(10000);
  }
  EXPECT_TRUE(gone) << "background process " << child << " survived the timeout";
  fs::remove_all(dir);
}

TEST(ExternalObjective, BadConstructionIsInputError) {
  EXPECT_THROW(ExternalObjective("  "), InputError);
  EXPECT_THROW(ExternalObjective("echo 1", -1.0), InputError);
}

TEST(ParseValueLine, AcceptsNumbersAndValueObjectsOnly) {
  EXPECT_DOUBLE_EQ(*parse_value_line(" 3.5\r").value, 3.5);
  EXPECT_DOUBLE_EQ(*parse_value_line(" {\"value\": 7} ").value, 7.0);
  EXPECT_FALSE(parse_value_line("[7]").value.has_value());
  EXPECT_DOUBLE_EQ(*parse_value_line("-2e10").value, -2e10);
  EXPECT_FALSE(parse_value_line("3.5 4").value.has_value());
  EXPECT_FALSE(parse_value_line("inf").value.has_value());
  EXPECT_FALSE(parse_value_line("").value.has_value());
}
