// ReconnectingStorage (kbo/storage/reconnecting.hpp): a lost server connection is retried with backoff for
// a bounded time, a call whose commit landed before the connection broke is not repeated (no duplicate
// trial, no "already complete" error), and when the server stays away the run stops with a StorageError.
// A PostgreSQL server really restarted under a run: tests/cli/storage_reconnect_cli_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "kbo/core/error.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/storage/reconnecting.hpp"
#include "kbo/study/study.hpp"

using namespace kbo;

namespace {

/// MemoryStorage whose next `fail` calls of ask/finish/trials lose the connection, either before doing
/// anything or (commit_first) after the change was made, as when a COMMIT's acknowledgement is lost.
class FlakyStorage : public MemoryStorage {
 public:
  int fail = 0;
  bool commit_first = false;
  int calls = 0;

  Trial ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) override {
    ++calls;
    if (fail > 0 && !commit_first) return lose(), Trial();
    Trial t = MemoryStorage::ask(study, suggest, worker);
    if (fail > 0) lose();
    return t;
  }
  Trial finish(const std::string& study, int id, TrialState state, std::optional<double> value,
               const std::string& reason, const Teller& by, const std::vector<double>& constraints = {},
               const std::vector<double>& values = {}, std::optional<double> sem = std::nullopt) override {
    ++calls;
    if (fail > 0 && !commit_first) return lose(), Trial();
    Trial t = MemoryStorage::finish(study, id, state, value, reason, by, constraints, values, sem);
    if (fail > 0) lose();
    return t;
  }

 private:
  void lose() {
    --fail;
    throw ConnectionLost("test: server closed the connection");
  }
};

StudyRecord record() {
  StudyRecord r;
  r.name = "s";
  r.space = box_space_json(Box(Vec::Zero(1), Vec::Ones(1)));
  r.config = to_json(StrategyConfig{});
  return r;
}

const Storage::SuggestFn kHalf = [](const std::vector<Trial>&) { return Vec::Constant(1, 0.5); };

}  // namespace

TEST(ReconnectingStorage, RetriesWithBackoffUntilTheServerIsBack) {
  auto flaky = std::make_shared<FlakyStorage>();
  ReconnectingStorage s(flaky, 30.0);
  s.create_study_if_absent(record());
  const Trial t = s.ask("s", kHalf, "w");
  flaky->fail = 3;
  flaky->calls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const Trial done = s.finish("s", t.id, TrialState::Complete, 2.5, "", Teller{});
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(flaky->calls, 4);
  EXPECT_EQ(done.state, TrialState::Complete);
  EXPECT_EQ(*done.value, 2.5);
  EXPECT_GE(waited, 0.1 + 0.2 + 0.4 - 1e-3);  // backoff 0.1 s, doubling
}

TEST(ReconnectingStorage, ACommitThatLandedBeforeTheConnectionBrokeIsNotRepeated) {
  auto flaky = std::make_shared<FlakyStorage>();
  ReconnectingStorage s(flaky, 30.0);
  s.create_study_if_absent(record());
  flaky->commit_first = true;
  flaky->fail = 1;
  const Trial asked = s.ask("s", kHalf, "w");  // inserted, then "lost": the retry finds it
  EXPECT_EQ(flaky->trials("s").size(), 1u);
  EXPECT_EQ(asked.id, 0);
  flaky->fail = 1;
  const Trial told = s.finish("s", asked.id, TrialState::Complete, 1.5, "", Teller{});  // no "already complete"
  EXPECT_EQ(told.state, TrialState::Complete);
  EXPECT_EQ(*told.value, 1.5);
  // A different result for a finished trial is still refused (the retry only recognises its own).
  EXPECT_THROW(s.finish("s", asked.id, TrialState::Complete, 9.0, "", Teller{}), InputError);
}

TEST(ReconnectingStorage, GivesUpWithAStorageErrorWhenTheServerStaysAway) {
  auto flaky = std::make_shared<FlakyStorage>();
  ReconnectingStorage s(flaky, 0.5);
  s.create_study_if_absent(record());
  flaky->fail = 1000;
  try {
    s.ask("s", kHalf, "w");
    FAIL() << "no StorageError";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("re-run the same command to resume"), std::string::npos) << e.what();
  }
  EXPECT_GE(flaky->calls, 3);  // 0.1 + 0.2 s of backoff fit in 0.5 s; the next 0.4 s would not
  EXPECT_TRUE(flaky->trials("s").empty());
}

TEST(ReconnectingStorage, TheWaitCheckEndsTheBackoffAtOnce) {
  // The wait check (a stop request, in the CLI) is called during the backoff and its exception ends the wait:
  // with the server away for good, the call returns after the first slice instead of after give_up_after.
  struct Stopped : std::runtime_error {
    Stopped() : std::runtime_error("stopped") {}
  };
  static std::atomic<int> checks{0};
  checks = 0;
  set_reconnect_wait_check([] {
    if (++checks >= 2) throw Stopped();
  });
  auto flaky = std::make_shared<FlakyStorage>();
  ReconnectingStorage s(flaky, 3600.0);
  s.create_study_if_absent(record());
  flaky->fail = 1000000;
  EXPECT_THROW(s.ask("s", kHalf, "w"), Stopped);
  set_reconnect_wait_check(nullptr);
  EXPECT_EQ(checks.load(), 2);
  EXPECT_LE(flaky->calls, 3);  // 0.1 s, then 0.2 s of backoff at most, not an hour of retries
  EXPECT_TRUE(flaky->trials("s").empty());
}

TEST(ReconnectingStorage, OtherErrorsAreNotRetried) {
  auto flaky = std::make_shared<FlakyStorage>();
  ReconnectingStorage s(flaky, 30.0);
  s.create_study_if_absent(record());
  flaky->calls = 0;
  EXPECT_THROW(s.finish("s", 7, TrialState::Complete, 1.0, "", Teller{}), InputError);  // no trial 7
  EXPECT_EQ(flaky->calls, 1);
}
