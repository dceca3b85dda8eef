// Study::work under the conditions a user meets: objectives that cannot run or fail the same way every
// time, a stop request (Ctrl-C) mid-evaluation, trials handed out by `kbo ask` and never told (leases),
// and results told by hand for trials a worker is running.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include "kbo/core/error.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/study/interrupt.hpp"
#include "kbo/study/study.hpp"

using namespace kbo;

namespace {

StudyRecord box_record(const std::string& name) {
  StudyRecord r;
  r.name = name;
  r.space = box_space_json(Box(Vec::Zero(2), Vec::Ones(2)));
  r.config = to_json(StrategyConfig{});
  return r;
}

/// Suggests a fixed point per trial index (x = (i/10, 1 - i/10)).
struct IndexStrategy : Strategy {
  Vec suggest(const Mat&, const Vec&, const Mat&, int i) override { return Vec{{i / 10.0, 1.0 - i / 10.0}}; }
  std::string name() const override { return "index"; }
};

Evaluation sum_of_x(const Trial& t) { return Evaluation::ok(t.x.sum()); }

int count(const std::vector<Trial>& ts, TrialState s) {
  int n = 0;
  for (const auto& t : ts) n += t.state == s;
  return n;
}

WorkOptions budget_of(int n, int max_same_failures = 0) {
  WorkOptions o;
  o.budget = n;
  o.max_same_failures = max_same_failures;
  return o;
}

}  // namespace

TEST(RunControl, AnAskedTrialNeverToldDoesNotEatTheBudget) {
  Study study = Study::create_or_open(std::make_shared<MemoryStorage>(), box_record("s"));
  IndexStrategy strat;
  study.work(strat, sum_of_x, "optimize@h:1", budget_of(2));
  const Trial asked = study.ask(strat, "ask@h:2");  // `kbo ask`, never told
  EXPECT_EQ(pending_phase(asked), PendingPhase::Asked);
  study.work(strat, sum_of_x, "optimize@h:3", budget_of(6));
  const auto ts = study.trials();
  EXPECT_EQ(count(ts, TrialState::Complete), 6);  // the budget is met by evaluated trials
  EXPECT_EQ(ts[asked.id].state, TrialState::Pending);
  EXPECT_EQ(study.to_json()["trials"][asked.id]["phase"], "asked");
  // Told later, it simply adds a trial.
  EXPECT_EQ(study.tell(asked.id, 0.5).state, TrialState::Complete);
}

TEST(RunControl, AnAskedTrialWhoseLeaseEndedIsReofferedAndEvaluated) {
  auto storage = std::make_shared<MemoryStorage>();
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  const Trial asked = study.ask(strat, "ask@h:2", 0.01);
  ASSERT_GT(asked.lease_until, asked.created_at);
  const Trial forever = study.ask(strat, "ask@h:2");  // no lease: never given up
  usleep(30000);
  study.work(strat, sum_of_x, "optimize@h:3", budget_of(2));
  const auto ts = study.trials();
  EXPECT_EQ(ts[asked.id].state, TrialState::Failed);
  EXPECT_EQ(ts[asked.id].reason, kLeaseExpired);
  EXPECT_FALSE(counts_toward_budget(ts[asked.id]));
  EXPECT_EQ(ts[forever.id].state, TrialState::Pending);
  // The re-offer has the asked point, bit for bit, and was evaluated by the run.
  ASSERT_EQ(ts.size(), 4u);
  EXPECT_EQ(ts[2].retry_of, asked.id);
  EXPECT_EQ(ts[2].x, asked.x);
  EXPECT_EQ(ts[2].state, TrialState::Complete);
  // Telling the given-up trial says what happened.
  try {
    study.tell(asked.id, 1.0);
    FAIL() << "told an expired trial";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ask lease expired"), std::string::npos) << e.what();
  }
}

TEST(RunControl, OnlyItsWorkerTellsARunningTrialUnlessForced) {
  auto storage = std::make_shared<MemoryStorage>();
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  const Trial t = study.ask(strat, "worker@h:1");
  ASSERT_TRUE(storage->heartbeat("s", t.id, "worker@h:1"));
  EXPECT_EQ(pending_phase(study.trials()[t.id]), PendingPhase::Running);
  try {
    study.tell(t.id, 1.0);
    FAIL() << "a running trial was told by someone else";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("running under worker@h:1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(study.fail(t.id, "oops"), InputError);
  EXPECT_THROW(study.abandon(t.id), InputError);
  EXPECT_EQ(study.trials()[t.id].state, TrialState::Pending);
  EXPECT_EQ(storage->finish("s", t.id, TrialState::Complete, 2.0, "", Teller{"worker@h:1"}).value, 2.0);
  // Forced: the user's value wins and the worker's later result is refused.
  const Trial u = study.ask(strat, "worker@h:1");
  ASSERT_TRUE(storage->heartbeat("s", u.id, "worker@h:1"));
  EXPECT_EQ(study.tell(u.id, 3.0, /*force=*/true).value, 3.0);
  EXPECT_THROW(storage->finish("s", u.id, TrialState::Complete, 4.0, "", Teller{"worker@h:1"}), InputError);
  // Asked and queued trials are anyone's to tell.
  EXPECT_EQ(study.tell(study.ask(strat, "ask@h:2").id, 5.0).state, TrialState::Complete);
}

TEST(RunControl, AnObjectiveThatCannotRunHandsItsTrialBackAndStops) {
  Study study = Study::create_or_open(std::make_shared<MemoryStorage>(), box_record("s"));
  IndexStrategy strat;
  int calls = 0;
  const TrialObjective missing = [&](const Trial&) {
    ++calls;
    return Evaluation::not_runnable("exit status 127: sh: 1: ./nonexist.sh: not found");
  };
  try {
    study.work(strat, missing, "optimize@h:1", budget_of(8));
    FAIL() << "the run went on";
  } catch (const ObjectiveFailing& e) {
    EXPECT_NE(std::string(e.what()).find("./nonexist.sh: not found"), std::string::npos) << e.what();
  }
  EXPECT_EQ(calls, 1);
  auto ts = study.trials();
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].state, TrialState::Pending);
  EXPECT_EQ(pending_phase(ts[0]), PendingPhase::Queued);
  // Fixed: the same study continues from that very trial and meets its budget.
  study.work(strat, sum_of_x, "optimize@h:2", budget_of(8));
  ts = study.trials();
  EXPECT_EQ(ts.size(), 8u);
  EXPECT_EQ(count(ts, TrialState::Complete), 8);
}

TEST(RunControl, TheSameFailureKTimesInARowStopsTheRun) {
  Study study = Study::create_or_open(std::make_shared<MemoryStorage>(), box_record("s"));
  IndexStrategy strat;
  const TrialObjective broken = [](const Trial&) { return Evaluation::failed("exit status 1: ImportError: numpy"); };
  EXPECT_THROW(study.work(strat, broken, "optimize@h:1", budget_of(10, 3)), ObjectiveFailing);
  EXPECT_EQ(count(study.trials(), TrialState::Failed), 3);
  // A success in between resets the count (fail, fail, ok, fail, fail, ok, ...); 0 never stops.
  int i = 0;
  const TrialObjective flaky = [&](const Trial&) {
    return ++i % 3 == 0 ? Evaluation::ok(1.0) : Evaluation::failed("exit status 1: flaky");
  };
  EXPECT_NO_THROW(study.work(strat, flaky, "optimize@h:2", budget_of(10, 3)));
  EXPECT_EQ(study.trials().size(), 10u);
  EXPECT_NO_THROW(study.work(strat, broken, "optimize@h:3", budget_of(16, 0)));
  EXPECT_EQ(study.trials().size(), 16u);
}

TEST(RunControl, AStopRequestHandsTheRunningTrialBack) {
  // request_stop is process-wide and final: run it in a child process.
  EXPECT_EXIT(
      {
        Study study = Study::create_or_open(std::make_shared<MemoryStorage>(), box_record("s"));
        IndexStrategy strat;
        int calls = 0;
        const TrialObjective interrupted = [&](const Trial& t) {
          if (++calls < 3) return sum_of_x(t);
          request_stop(SIGTERM);  // as the signal handler does while the objective runs
          return Evaluation::stopped();
        };
        int code = 1;
        try {
          study.work(strat, interrupted, "optimize@h:1", budget_of(5));
        } catch (const Interrupted& e) {
          const auto ts = study.trials();
          const bool handed_back = ts.size() == 3 && ts[2].state == TrialState::Pending &&
                                   pending_phase(ts[2]) == PendingPhase::Queued && count(ts, TrialState::Complete) == 2;
          code = e.signal() == SIGTERM && stop_requested() == SIGTERM && handed_back ? 0 : 2;
        }
        std::exit(code);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(RunControl, TheBOStrategyIsToldTheRunsBudget) {
  // The end-game (BOModelOptions::endgame_fraction) needs the budget: with an end-game of the last half
  // of 6 BO steps, the last trial of an 11-trial run is the end-game's last step (share still to come 0).
  // Open-ended ask/tell (no stored budget) plays no end-game.
  StrategyConfig c;
  c.module_options["bo"] = {{"endgame_fraction", 0.5}};
  auto space = std::make_shared<BoxSpace>(Box(Vec::Zero(2), Vec::Ones(2)));
  Study open = Study::create_or_open(std::make_shared<MemoryStorage>(), box_record("open"));
  BOStrategy asked(c, space);
  for (int i = 0; i < 7; ++i) {
    const Trial t = open.ask(asked, "ask@h:1");
    open.tell(t.id, t.x.sum());
  }
  EXPECT_EQ(asked.last_info()["phase"], "bo");
  EXPECT_FALSE(asked.last_info().contains("endgame"));
  Study run = Study::create_or_open(std::make_shared<MemoryStorage>(), box_record("run"));
  BOStrategy bo(c, space);
  run.optimize(bo, sum_of_x, 11, "optimize@h:2");
  ASSERT_TRUE(bo.last_info().contains("endgame"));
  EXPECT_EQ(bo.last_info()["endgame"]["remaining_share"], 0.0);
}
