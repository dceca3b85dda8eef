// Storage backends: the same contract for memory, SQLite and PostgreSQL (a throw-away cluster, see
// tests/postgres_server.hpp), plus SQLite persistence and concurrency.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/storage/postgres.hpp"
#include "kbo/storage/sqlite.hpp"
#include "kbo/study/study.hpp"
#include "postgres_server.hpp"

namespace fs = std::filesystem;
using namespace kbo;

namespace {

fs::path temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("kbo_study_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

StudyRecord box_record(const std::string& name, double hi = 1.0, bool minimize = true) {
  StudyRecord r;
  r.name = name;
  r.minimize = minimize;
  r.space = box_space_json(Box(Vec::Zero(2), Vec::Constant(2, hi)));
  r.config = to_json(StrategyConfig{});
  return r;
}

/// Suggests a fixed point per trial index (x = (i/10, 1 - i/10)).
struct IndexStrategy : Strategy {
  Vec suggest(const Mat&, const Vec&, const Mat&, int i) override { return Vec{{i / 10.0, 1.0 - i / 10.0}}; }
  std::string name() const override { return "index"; }
};

}  // namespace

// Outside the anonymous namespace: the TEST_P classes derive from it (a base of internal linkage draws
// -Wsubobject-linkage in a unity build).
class StorageContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = temp_dir(GetParam() + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    if (GetParam() == "postgres") {
      KBO_REQUIRE_POSTGRES(server);
      url_ = server->new_database("contract");
    } else {
      url_ = GetParam() == "memory" ? "memory" : "sqlite:" + (dir_ / "s.db").string();
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  /// A fresh database per test; `kind` is ignored (the fixture's parameter decides).
  std::shared_ptr<Storage> make(const std::string&, const fs::path&) {
    if (!first_) first_ = open_storage(url_);
    return first_;
  }
  /// Another connection to the same data (memory: the same object).
  std::shared_ptr<Storage> connect() { return url_ == "memory" ? make("", dir_) : open_storage(url_); }
  fs::path dir_;
  std::string url_;
  std::shared_ptr<Storage> first_;
};

TEST_P(StorageContract, AskTellFailAndStates) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  const Trial a = study.ask(strat, "w1");
  const Trial b = study.ask(strat, "w2");
  EXPECT_EQ(a.id, 0);
  EXPECT_EQ(b.id, 1);
  EXPECT_EQ(a.state, TrialState::Pending);
  EXPECT_DOUBLE_EQ(b.x(0), 0.1);
  EXPECT_EQ(study.tell(1, 2.5).state, TrialState::Complete);
  EXPECT_EQ(study.fail(0, "crashed").state, TrialState::Failed);
  const auto ts = study.trials();
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_EQ(ts[0].state, TrialState::Failed);
  EXPECT_EQ(ts[0].reason, "crashed");
  EXPECT_FALSE(ts[0].value.has_value());
  EXPECT_EQ(ts[1].worker, "w2");
  EXPECT_DOUBLE_EQ(*ts[1].value, 2.5);
  EXPECT_GT(ts[1].finished_at, 0.0);
  EXPECT_GE(ts[1].finished_at, ts[1].created_at);
  // Only pending trials can be told; unknown ids and non-finite values are input errors.
  EXPECT_THROW(study.tell(1, 3.0), InputError);
  EXPECT_THROW(study.fail(0, "again"), InputError);
  EXPECT_THROW(study.tell(7, 1.0), InputError);
  study.ask(strat, "w3");
  EXPECT_THROW(study.tell(2, std::nan("")), InputError);
  EXPECT_THROW(study.tell(2, INFINITY), InputError);
}

TEST_P(StorageContract, StandardErrorsRoundTripAndBadOnesStoreNothing) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  const double sem = 1.0 / 3.0 + 1e-17;  // bit-exact through every backend
  study.ask(strat, "w");
  study.ask(strat, "w");
  study.ask(strat, "w");
  EXPECT_EQ(*study.tell(0, 2.5, false, {}, sem).sem, sem);
  study.tell(1, 1.5);  // no sem: none stored
  // A negative or non-finite standard error is refused before anything is written.
  for (double bad : {-0.1, std::nan(""), double(INFINITY)}) EXPECT_THROW(study.tell(2, 1.0, false, {}, bad), InputError);
  EXPECT_EQ(study.trials()[2].state, TrialState::Pending);
  study.tell(2, 0.5, false, {}, 0.0);  // an exact value may say so
  const std::vector<Trial> added = study.add_evaluated({EvaluatedPoint{Vec{{0.5, 0.5}}, 4.0, {}, {}, 2.25}});
  EXPECT_EQ(*added[0].sem, 2.25);
  EXPECT_THROW(study.add_evaluated({EvaluatedPoint{Vec{{0.5, 0.5}}, 4.0, {}, {}, -1.0}}), InputError);
  const auto ts = connect()->trials("s");
  ASSERT_EQ(ts.size(), 4u);  // the refused row was not added
  EXPECT_EQ(*ts[0].sem, sem);
  EXPECT_FALSE(ts[1].sem.has_value());
  EXPECT_EQ(*ts[2].sem, 0.0);
  EXPECT_EQ(*ts[3].sem, 2.25);
  EXPECT_EQ(*ts[3].value, 4.0);
  // A failed trial carries no sem.
  study.ask(strat, "w");
  EXPECT_FALSE(study.fail(4, "crashed").sem.has_value());
}

TEST_P(StorageContract, ModelStateIsKeptPerStudyReplacedAndSeenByOtherConnections) {
  auto storage = make(GetParam(), dir_);
  Study::create_or_open(storage, box_record("a"));
  Study::create_or_open(storage, box_record("b"));
  EXPECT_TRUE(storage->load_model_state("a").is_null());
  const nlohmann::json first = {{"n", 200}, {"theta", {{"kernel", {-1.25, 0.1, 1e-300, -13.815510557964274}}}}};
  storage->save_model_state("a", first);
  EXPECT_EQ(storage->load_model_state("a"), first);  // doubles round-trip exactly
  EXPECT_TRUE(storage->load_model_state("b").is_null());
  const nlohmann::json second = {{"n", 215}};
  connect()->save_model_state("a", second);  // the last writer wins
  EXPECT_EQ(storage->load_model_state("a"), second);
  EXPECT_THROW(storage->save_model_state("nosuch", second), InputError);
}

TEST_P(StorageContract, ReopenChecksSpaceAndDirection) {
  auto storage = make(GetParam(), dir_);
  Study::create_or_open(storage, box_record("s", 1.0));
  EXPECT_NO_THROW(Study::create_or_open(storage, box_record("s", 1.0)));
  EXPECT_THROW(Study::create_or_open(storage, box_record("s", 2.0)), InputError);
  EXPECT_THROW(Study::create_or_open(storage, box_record("s", 1.0, /*minimize=*/false)), InputError);
  EXPECT_THROW(Study::open(storage, "absent"), InputError);
  // A second study in the same storage is independent.
  Study other = Study::create_or_open(storage, box_record("t", 2.0));
  EXPECT_TRUE(other.trials().empty());
  EXPECT_EQ(storage->study_names(), (std::vector<std::string>{"s", "t"}));
}

TEST_P(StorageContract, ConfigIsReplacedOnReopen) {
  auto storage = make(GetParam(), dir_);
  Study::create_or_open(storage, box_record("s"));
  StudyRecord r = box_record("s");
  StrategyConfig c;
  c.kernel = "rbf";
  c.seed = 42;
  r.config = to_json(c);
  Study::create_or_open(storage, r);
  const StrategyConfig stored = Study::open(storage, "s").strategy_config();
  EXPECT_EQ(stored.kernel, "rbf");
  EXPECT_EQ(stored.seed, 42u);
}

TEST_P(StorageContract, BestRespectsDirectionAndJsonHasTheContractKeys) {
  auto storage = make(GetParam(), dir_);
  IndexStrategy strat;
  for (bool minimize : {true, false}) {
    Study study = Study::create_or_open(storage, box_record(minimize ? "min" : "max", 1.0, minimize));
    for (double v : {3.0, -1.0, 5.0}) study.tell(study.ask(strat, "w").id, v);
    study.ask(strat, "w");  // pending
    study.fail(study.ask(strat, "w").id, "boom");
    const auto best = study.best();
    ASSERT_TRUE(best.has_value());
    EXPECT_DOUBLE_EQ(*best->value, minimize ? -1.0 : 5.0);
    const auto j = study.to_json();
    EXPECT_DOUBLE_EQ(j["best_value"].get<double>(), minimize ? -1.0 : 5.0);
    EXPECT_EQ(j["best_x"].size(), 2u);
    EXPECT_EQ(j["n_trials"].get<int>(), 5);
    EXPECT_EQ(j["n_complete"].get<int>(), 3);
    EXPECT_EQ(j["n_pending"].get<int>(), 1);
    EXPECT_EQ(j["n_failed"].get<int>(), 1);
    ASSERT_EQ(j["trials"].size(), 5u);
    EXPECT_EQ(j["trials"][3]["state"], "pending");
    EXPECT_TRUE(j["trials"][3]["value"].is_null());
    EXPECT_EQ(j["trials"][4]["reason"], "boom");
    EXPECT_FALSE(j["trials"][0].contains("reason"));
  }
}

TEST_P(StorageContract, StrategyDataNegatesMinimisedValuesAndSeparatesPendingFromFailed) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  study.tell(study.ask(strat, "w").id, 4.0);
  study.ask(strat, "w");
  study.fail(study.ask(strat, "w").id, "x");
  study.fail(study.ask(strat, "w").id, kWorkerLost);  // a lost worker says nothing about the point
  Mat X, pending, failed;
  Vec y;
  Study::strategy_data(study.trials(), true, X, y, pending, failed, 2);
  ASSERT_EQ(X.rows(), 1);
  EXPECT_DOUBLE_EQ(y(0), -4.0);
  ASSERT_EQ(pending.rows(), 1);
  EXPECT_DOUBLE_EQ(pending(0, 0), 0.1);
  ASSERT_EQ(failed.rows(), 1);
  EXPECT_DOUBLE_EQ(failed(0, 0), 0.2);
}

TEST_P(StorageContract, ClaimPendingTakesTheLowestMatchingTrialOnce) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  study.ask(strat, "dead");
  study.ask(strat, "alive");
  study.ask(strat, "dead");
  auto is_dead = [](const Trial& t) { return t.worker == "dead"; };
  auto first = storage->claim_pending("s", is_dead, "me");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->id, 0);
  auto second = storage->claim_pending("s", is_dead, "me");
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->id, 2);
  EXPECT_FALSE(storage->claim_pending("s", is_dead, "me").has_value());
  EXPECT_EQ(study.trials()[2].worker, "me");
}

TEST_P(StorageContract, BudgetIsStoredAndOnlyAGivenBudgetReplacesIt) {
  auto storage = make(GetParam(), dir_);
  StudyRecord r = box_record("s");
  EXPECT_FALSE(Study::create_or_open(storage, r).record().budget.has_value());
  r.budget = 64;
  EXPECT_EQ(Study::create_or_open(storage, r).record().budget, 64);
  EXPECT_EQ(Study::open(connect(), "s").record().budget, 64);
  r.budget.reset();  // e.g. `kbo ask`: keeps the stored budget
  EXPECT_EQ(Study::create_or_open(storage, r).record().budget, 64);
  EXPECT_EQ(Study::open(storage, "s").to_json()["budget"].get<int>(), 64);
}

TEST_P(StorageContract, AFailingSuggestionWritesNothing) {
  auto storage = make(GetParam(), dir_);
  Study::create_or_open(storage, box_record("s"));
  EXPECT_THROW(storage->ask("s", [](const std::vector<Trial>&) -> Vec { throw std::runtime_error("no"); }, "w"),
               std::runtime_error);
  EXPECT_TRUE(storage->trials("s").empty());
  EXPECT_EQ(storage->ask("s", [](const std::vector<Trial>&) { return Vec{{0.5, 0.5}}; }, "w").id, 0);
}

TEST_P(StorageContract, AddCompletedStoresAllRowsOrNoneAndKeepsTheConstraintCount) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  study.ask(strat, "w");  // trial 0 stays pending: ids of added rows continue after it
  const auto added = study.add_evaluated({{Vec{{0.1, 0.2}}, 3.0, {-1.0}, {}, std::nullopt}, {Vec{{0.3, 0.4}}, 1.5, {0.5}, {}, std::nullopt}});
  ASSERT_EQ(added.size(), 2u);
  EXPECT_EQ(added[0].id, 1);
  EXPECT_EQ(added[1].id, 2);
  const auto ts = connect()->trials("s");
  ASSERT_EQ(ts.size(), 3u);
  EXPECT_EQ(ts[2].state, TrialState::Complete);
  EXPECT_DOUBLE_EQ(*ts[2].value, 1.5);
  EXPECT_DOUBLE_EQ(ts[2].x(1), 0.4);
  EXPECT_EQ(ts[2].constraints, std::vector<double>{0.5});
  EXPECT_GT(ts[2].finished_at, 0.0);
  // A row with another number of constraints refuses the whole batch; nothing is stored.
  EXPECT_THROW(study.add_evaluated({{Vec{{0.5, 0.5}}, 1.0, {0.0}, {}, std::nullopt}, {Vec{{0.6, 0.6}}, 1.0, {}, {}, std::nullopt}}), ConstraintCountError);
  EXPECT_EQ(storage->trials("s").size(), 3u);
  // The same rule holds for a tell of a pending trial, and the trial stays pending.
  EXPECT_THROW(study.tell(0, 1.0, false, {1.0, 2.0}), ConstraintCountError);
  EXPECT_EQ(storage->trials("s")[0].state, TrialState::Pending);
  EXPECT_EQ(study.tell(0, 1.0, false, {2.0}).state, TrialState::Complete);
  // Inside one batch of a study with no complete trial yet, the first row sets the count.
  Study fresh = Study::create_or_open(storage, box_record("t"));
  EXPECT_THROW(fresh.add_evaluated({{Vec{{0.1, 0.1}}, 1.0, {}, {}, std::nullopt}, {Vec{{0.2, 0.2}}, 1.0, {1.0}, {}, std::nullopt}}), ConstraintCountError);
  EXPECT_TRUE(storage->trials("t").empty());
}

TEST_P(StorageContract, StaleHeartbeatsAreReapedAndTheirPointsReofferedOnce) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  const Trial a = study.ask(strat, "wa");    // heart-beats
  const Trial b = study.ask(strat, "wb");    // heart-beats, then is told
  const Trial c = study.ask(strat, "ask");   // no heartbeat (like `kbo ask`): never reaped
  ASSERT_TRUE(storage->heartbeat("s", a.id, "wa"));
  ASSERT_TRUE(storage->heartbeat("s", b.id, "wb"));
  EXPECT_FALSE(storage->heartbeat("s", a.id, "someone-else"));  // only the owner beats
  storage->finish("s", b.id, TrialState::Complete, 1.0, "", Teller{"wb"});
  EXPECT_FALSE(storage->heartbeat("s", b.id, "wb"));  // finished
  const double beat = study.trials()[a.id].heartbeat_at;
  EXPECT_GT(beat, 0.0);
  EXPECT_EQ(study.trials()[c.id].heartbeat_at, 0.0);

  // Not stale yet: nothing happens.
  EXPECT_TRUE(storage->reap_lost("s", 10.0, beat + 5.0, {}).empty());
  // Stale: trial a fails as "worker lost" and a new unowned trial at the same point appears.
  const auto retries = storage->reap_lost("s", 10.0, beat + 11.0, {});
  ASSERT_EQ(retries.size(), 1u);
  EXPECT_EQ(retries[0].id, 3);
  EXPECT_EQ(retries[0].retry_of, a.id);
  const auto ts = connect()->trials("s");
  ASSERT_EQ(ts.size(), 4u);
  EXPECT_EQ(ts[a.id].state, TrialState::Failed);
  EXPECT_EQ(ts[a.id].reason, kWorkerLost);
  EXPECT_FALSE(counts_toward_budget(ts[a.id]));
  EXPECT_EQ(ts[c.id].state, TrialState::Pending);
  EXPECT_EQ(ts[3].state, TrialState::Pending);
  EXPECT_EQ(ts[3].x, a.x);  // the very same point, bit for bit
  EXPECT_EQ(ts[3].worker, "");
  EXPECT_EQ(ts[3].retry_of, a.id);
  EXPECT_EQ(study.to_json()["trials"][3]["retry_of"].get<int>(), a.id);
  // The lost worker's late heartbeat and result are refused.
  EXPECT_FALSE(storage->heartbeat("s", a.id, "wa"));
  EXPECT_THROW(study.tell(a.id, 2.0), InputError);
  // Reaping again changes nothing: the retry has no heartbeat until someone claims it.
  EXPECT_TRUE(storage->reap_lost("s", 10.0, beat + 1000.0, {}).empty());
  auto claimed = storage->claim_pending("s", [](const Trial& t) { return t.worker.empty(); }, "wz");
  ASSERT_TRUE(claimed.has_value());
  EXPECT_EQ(claimed->id, 3);
  EXPECT_GT(storage->trials("s")[3].heartbeat_at, 0.0);  // claimed ⇒ alive from now
  // The `lost` predicate reaps regardless of time (a dead local process).
  const auto by_predicate =
      storage->reap_lost("s", 0.0, unix_now(), [](const Trial& t) { return t.worker == "wz"; });
  ASSERT_EQ(by_predicate.size(), 1u);
  EXPECT_EQ(by_predicate[0].id, 4);
  EXPECT_EQ(by_predicate[0].retry_of, 3);
}

TEST_P(StorageContract, LeasesReleasesAndWhoMayFinishAreKeptByEveryBackend) {
  auto storage = make(GetParam(), dir_);
  Study study = Study::create_or_open(storage, box_record("s"));
  IndexStrategy strat;
  const Trial asked = study.ask(strat, "ask@h:1", 100.0);
  EXPECT_NEAR(connect()->trials("s")[asked.id].lease_until, asked.created_at + 100.0, 1e-3);
  EXPECT_EQ(pending_phase(asked), PendingPhase::Asked);
  // The lease is the asked trial's only way to be given up.
  EXPECT_TRUE(storage->reap_lost("s", 1.0, asked.created_at + 50.0, [](const Trial&) { return true; }).empty());
  const auto retries = storage->reap_lost("s", 1.0, asked.created_at + 101.0, {});
  ASSERT_EQ(retries.size(), 1u);
  EXPECT_EQ(retries[0].retry_of, asked.id);
  auto ts = connect()->trials("s");
  EXPECT_EQ(ts[asked.id].state, TrialState::Failed);
  EXPECT_EQ(ts[asked.id].reason, kLeaseExpired);
  EXPECT_EQ(ts[retries[0].id].x, asked.x);
  EXPECT_EQ(ts[retries[0].id].lease_until, 0.0);
  EXPECT_FALSE(storage->set_lease("s", asked.id, 1.0));  // not pending any more

  // An ask hands the queued re-offer out first (an asked trial, no heartbeat), and gives it back as queued.
  const Trial reasked = study.ask(strat, "ask@h:5");
  EXPECT_EQ(reasked.id, retries[0].id);
  EXPECT_EQ(pending_phase(connect()->trials("s")[reasked.id]), PendingPhase::Asked);
  EXPECT_TRUE(storage->release("s", reasked.id, "ask@h:5"));
  // A running trial: only its worker finishes it, unless forced; its worker can hand it back.
  const Trial run = storage->ask("s", [](const std::vector<Trial>&) { return Vec{{0.5, 0.5}}; }, "worker@h:2");
  ASSERT_TRUE(storage->heartbeat("s", run.id, "worker@h:2"));
  EXPECT_THROW(connect()->finish("s", run.id, TrialState::Complete, 1.0, "", Teller{}), InputError);
  EXPECT_FALSE(storage->release("s", run.id, "worker@h:3"));
  EXPECT_TRUE(storage->release("s", run.id, "worker@h:2"));
  ts = connect()->trials("s");
  EXPECT_EQ(ts[run.id].worker, "");
  EXPECT_EQ(ts[run.id].heartbeat_at, 0.0);
  EXPECT_EQ(pending_phase(ts[run.id]), PendingPhase::Queued);
  EXPECT_EQ(study.to_json()["trials"][run.id]["phase"], "queued");
  // Trials 1 (the re-offer) and 2 (handed back) are queued: the lowest is claimed first.
  ASSERT_EQ(retries[0].id, 1);
  ASSERT_EQ(run.id, 2);
  const auto claimed = storage->claim_pending("s", [](const Trial& t) { return t.worker.empty(); }, "worker@h:4");
  ASSERT_TRUE(claimed.has_value());
  EXPECT_EQ(claimed->id, 1);
  EXPECT_THROW(study.tell(1, 2.0), InputError);  // running under worker@h:4 now
  EXPECT_EQ(study.tell(1, 2.0, /*force=*/true).value, 2.0);
  EXPECT_EQ(study.abandon(2).reason, kAbandoned);  // queued: no one runs it
  EXPECT_FALSE(counts_toward_budget(connect()->trials("s")[2]));
}

TEST_P(StorageContract, WorkersOnSeparateConnectionsShareTheBudgetExactly) {
  auto storage = make(GetParam(), dir_);
  StudyRecord r = box_record("s");
  StrategyConfig random;
  random.strategy = "random";
  r.config = to_json(random);
  r.budget = 30;
  Study::create_or_open(storage, r);
  constexpr int kWorkers = 4;
  std::vector<std::vector<int>> done(kWorkers);
  std::vector<std::thread> pool;
  for (int w = 0; w < kWorkers; ++w)
    pool.emplace_back([&, w] {
      Study mine = Study::open(connect(), "s");
      RandomStrategy strat(random, mine.space());
      WorkOptions opt;
      opt.stale_after = 30.0;
      done[w] = mine.work(strat, [](const Trial& t) { return Evaluation::ok(t.x.sum()); }, "w" + std::to_string(w), opt);
    });
  for (auto& th : pool) th.join();
  std::multiset<int> all;
  for (const auto& d : done) all.insert(d.begin(), d.end());
  const auto ts = storage->trials("s");
  ASSERT_EQ(ts.size(), 30u);  // the budget, no overshoot although 4 workers asked at once
  EXPECT_EQ(all.size(), 30u);
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(all.count(i), 1u) << "trial " << i << " evaluated " << all.count(i) << " times";
    EXPECT_EQ(ts[i].id, i);
    EXPECT_EQ(ts[i].state, TrialState::Complete);
    EXPECT_DOUBLE_EQ(*ts[i].value, ts[i].x.sum());
  }
  // No budget and no --max-trials: the loop would never stop.
  Study::create_or_open(storage, box_record("nobudget"));
  Study nb = Study::open(storage, "nobudget");
  IndexStrategy strat;
  EXPECT_THROW(nb.work(strat, [](const Trial&) { return Evaluation::ok(0.0); }, "w", WorkOptions{}), InputError);
  WorkOptions three;
  three.max_trials = 3;
  EXPECT_EQ(nb.work(strat, [](const Trial&) { return Evaluation::ok(0.0); }, "w", three).size(), 3u);
}

INSTANTIATE_TEST_SUITE_P(Backends, StorageContract, ::testing::Values("memory", "sqlite", "postgres"));

TEST(SqliteStorage, TrialsSurviveReopeningAndPointsRoundTripExactly) {
  const fs::path dir = temp_dir("reopen");
  const std::string path = (dir / "p.db").string();
  const Vec x{{0.1 + 1e-17, 1.0 / 3.0}};
  struct Fixed : Strategy {
    Vec x;
    Vec suggest(const Mat&, const Vec&, const Mat&, int) override { return x; }
    std::string name() const override { return "fixed"; }
  } strat;
  strat.x = x;
  {
    auto storage = std::make_shared<SqliteStorage>(path);
    Study study = Study::create_or_open(storage, box_record("s"));
    study.tell(study.ask(strat, "w").id, 1.0 / 7.0);
  }
  auto storage = std::make_shared<SqliteStorage>(path);
  const auto ts = Study::open(storage, "s").trials();
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].x(0), x(0));  // bit-exact
  EXPECT_EQ(ts[0].x(1), x(1));
  EXPECT_EQ(*ts[0].value, 1.0 / 7.0);
  fs::remove_all(dir);
}

TEST(SqliteStorage, ConcurrentAskersOnSeparateConnectionsNeverShareATrial) {
  const fs::path dir = temp_dir("concurrent");
  const std::string path = (dir / "c.db").string();
  Study::create_or_open(std::make_shared<SqliteStorage>(path), box_record("s"));
  constexpr int kThreads = 4, kAsks = 15;
  std::vector<std::vector<int>> ids(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      auto storage = std::make_shared<SqliteStorage>(path);  // one connection per "process"
      for (int i = 0; i < kAsks; ++i) {
        // The suggestion depends on what the asker saw: each trial stores the count it observed.
        const Trial tr = storage->ask(
            "s", [](const std::vector<Trial>& seen) { return Vec{{double(seen.size()), 0.0}}; }, "t" + std::to_string(t));
        ids[t].push_back(tr.id);
      }
    });
  for (auto& th : pool) th.join();
  std::set<int> all;
  for (const auto& v : ids) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kAsks));
  EXPECT_EQ(*all.rbegin(), kThreads * kAsks - 1);
  // Serialised read-suggest-insert: trial i saw exactly i earlier trials.
  for (const Trial& t : SqliteStorage(path).trials("s")) EXPECT_EQ(t.x(0), double(t.id));
  fs::remove_all(dir);
}

TEST(SqliteStorage, BadPathsAreInputErrors) {
  EXPECT_THROW(SqliteStorage("/nonexistent-dir-kbo/x.db"), InputError);
  EXPECT_THROW(SqliteStorage(""), InputError);
  const fs::path dir = temp_dir("bad");
  EXPECT_THROW(SqliteStorage(dir.string()), InputError);  // a directory
  const fs::path garbage = dir / "garbage.db";
  std::ofstream(garbage) << "this is not an sqlite database, just some text that is long enough to have a header\n";
  EXPECT_THROW(SqliteStorage(garbage.string()), InputError);
  EXPECT_THROW(open_storage("mysql://x"), InputError);
  fs::remove_all(dir);
}

TEST(StudyJson, StrategyConfigRoundTrips) {
  StrategyConfig c;
  c.strategy = "random";
  c.kernel = "matern32";
  c.ard = false;
  c.acquisition = "ei";
  c.beta_schedule = BetaSchedule::Srinivas;
  c.beta = 2.5;
  c.n_init = 9;
  c.init_method = SamplingMethod::Uniform;
  c.fit_restarts = 4;
  c.map = false;
  c.fixed_noise = 1e-4;
  c.acq_optimizer.type = AcqOptimizerType::Cmaes;
  c.acq_optimizer.raw_samples = 77;
  c.invariance = "perm";
  c.invariant_kernel = InvariantKernelType::Average;
  c.set_kernel = SetKernelType::Approx;
  c.set_L = 3;
  c.module_options = {{"a", 1}};
  c.seed = 123456789012345ULL;
  const StrategyConfig d = strategy_config_from_json(to_json(c));
  EXPECT_EQ(to_json(d), to_json(c));
  EXPECT_EQ(d.seed, c.seed);
  EXPECT_EQ(*d.fixed_noise, 1e-4);
}

TEST(StudyJson, SpacesRebuildWithTheirBounds) {
  const Box box(Vec{{-1.0, 0.0}}, Vec{{2.0, 5.0}});
  auto space = space_from_json(box_space_json(box));
  EXPECT_EQ(space->dim(), 2);
  EXPECT_EQ(space->bounds().lower, box.lower);
  EXPECT_EQ(space->bounds().upper, box.upper);
  nlohmann::json set = box_space_json(box);
  set["type"] = "set";
  set["set_size"] = 3;
  set["element_dim"] = 2;
  auto s = space_from_json(set);
  EXPECT_EQ(s->dim(), 6);
  EXPECT_THROW(space_from_json({{"type", "torus"}}), InputError);
}
