// A worker killed at any point of a trial's life leaves nothing stuck: for each kill point (after its ask and
// before its first heartbeat, after the first heartbeat, after claiming a queued trial, after its tell, and an
// ask with a lease) another worker's Study::work then meets the budget with no pending trial left, every
// given-up trial re-offered exactly once, and nothing counted twice — on memory, SQLite and PostgreSQL storage.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "kbo/storage/storage.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/study/study.hpp"
#include "postgres_server.hpp"

using namespace kbo;
namespace fs = std::filesystem;

namespace {

StudyRecord kill_point_record(const std::string& name) {
  StudyRecord r;
  r.name = name;
  r.space = box_space_json(Box(Vec::Zero(2), Vec::Ones(2)));
  r.config = to_json(StrategyConfig{});
  return r;
}

/// A fixed point per trial index, inside the unit box.
struct KillPointStrategy : Strategy {
  Vec suggest(const Mat&, const Vec&, const Mat&, int i) override {
    return Vec{{(i % 10) / 10.0, 1.0 - (i % 10) / 10.0}};
  }
  std::string name() const override { return "index"; }
};

enum class KillPoint { None, AfterAsk, AfterInfo, AfterFirstHeartbeat, AfterClaim, AfterTell, AskedWithLease };

const char* describe(KillPoint k) {
  switch (k) {
    case KillPoint::None: return "no kill";
    case KillPoint::AfterAsk: return "between ask and first heartbeat";
    case KillPoint::AfterInfo: return "after the ask's model info, before the first heartbeat";
    case KillPoint::AfterFirstHeartbeat: return "after the first heartbeat";
    case KillPoint::AfterClaim: return "after claiming a queued trial";
    case KillPoint::AfterTell: return "after telling its result";
    case KillPoint::AskedWithLease: return "an ask with a lease, never told";
  }
  return "";
}

/// What a worker on another host does up to `k`, written with the Storage calls Study::work makes, after
/// which it dies (its process and heartbeat thread are gone, so nothing more is written).
void die_at(KillPoint k, Study& study, Storage& storage, const std::string& name) {
  const std::string victim = "worker@another-host:1";
  const auto fixed = [](const std::vector<Trial>&) { return Vec{{0.25, 0.75}}; };
  switch (k) {
    case KillPoint::None: return;
    case KillPoint::AfterAsk: storage.ask(name, fixed, victim); return;
    case KillPoint::AfterInfo: {
      const Trial t = storage.ask(name, fixed, victim);
      storage.set_info(name, t.id, {{"kernel", "matern52"}});
      return;
    }
    case KillPoint::AfterFirstHeartbeat: {
      const Trial t = storage.ask(name, fixed, victim);
      storage.heartbeat(name, t.id, victim);
      return;
    }
    case KillPoint::AfterClaim:
      study.enqueue(Vec{{0.5, 0.5}});
      storage.claim_pending(name, [](const Trial& t) { return t.worker.empty(); }, victim);
      return;
    case KillPoint::AfterTell: {
      const Trial t = storage.ask(name, fixed, victim);
      storage.heartbeat(name, t.id, victim);
      storage.finish(name, t.id, TrialState::Complete, 1.0, "", Teller{victim});
      return;
    }
    case KillPoint::AskedWithLease: {
      KillPointStrategy s;
      study.ask(s, "ask@another-host:2", /*lease_seconds=*/0.05);
      return;
    }
  }
}

}  // namespace

class KillPoints : public ::testing::TestWithParam<std::string> {};

TEST_P(KillPoints, AnotherWorkerMeetsTheBudgetAndLeavesNothingPending) {
  std::string url = "memory";
  const fs::path dir = fs::temp_directory_path() / ("kbo_kill_points_" + std::to_string(::getpid()));
  if (GetParam() == "postgres") {
    KBO_REQUIRE_POSTGRES(server);
    url = server->new_database("killpoints");
  } else if (GetParam() == "sqlite") {
    fs::remove_all(dir);
    fs::create_directories(dir);
    url = "sqlite:" + (dir / "k.db").string();
  }
  const int budget = 4;
  const double stale_after = 0.2;
  int case_number = 0;
  for (KillPoint k : {KillPoint::None, KillPoint::AfterAsk, KillPoint::AfterInfo, KillPoint::AfterFirstHeartbeat,
                      KillPoint::AfterClaim, KillPoint::AfterTell, KillPoint::AskedWithLease}) {
    SCOPED_TRACE(describe(k));
    const std::string name = "kp" + std::to_string(case_number++);
    auto storage = open_storage(url);
    Study study = Study::create_or_open(storage, kill_point_record(name));
    die_at(k, study, *storage, name);
    // The dead worker's trial is silent from now on; another worker starts after --stale-after.
    std::this_thread::sleep_for(std::chrono::duration<double>(stale_after + 0.1));
    KillPointStrategy strategy;
    WorkOptions options;
    options.budget = budget;
    options.stale_after = stale_after;
    options.poll_interval = 0.02;
    study.work(strategy, [](const Trial& t) { return Evaluation::ok(t.x.sum()); }, "worker@this-host:2", options);

    const std::vector<Trial> ts = study.trials();
    int complete = 0, pending = 0, given_up = 0;
    std::map<int, int> retries_of;
    for (const Trial& t : ts) {
      complete += t.state == TrialState::Complete;
      pending += t.state == TrialState::Pending;
      if (t.state == TrialState::Failed) {
        EXPECT_FALSE(counts_toward_budget(t)) << "trial " << t.id << " failed: " << t.reason;
        ++given_up;
      }
      if (t.retry_of >= 0) ++retries_of[t.retry_of];
    }
    EXPECT_EQ(complete, budget) << "the budget is met by complete trials";
    EXPECT_EQ(pending, 0) << "no trial is left pending (stuck)";
    EXPECT_EQ(static_cast<int>(retries_of.size()), given_up) << "every given-up trial is re-offered";
    for (const auto& [id, n] : retries_of) EXPECT_EQ(n, 1) << "trial " << id << " re-offered " << n << " times";
    const bool leaves_a_trial = k != KillPoint::None && k != KillPoint::AfterTell;
    EXPECT_EQ(given_up, leaves_a_trial ? 1 : 0);
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Backends, KillPoints, ::testing::Values("memory", "sqlite", "postgres"));
