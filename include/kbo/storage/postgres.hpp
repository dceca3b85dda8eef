#pragma once
// PostgreSQL storage (libpq): studies shared by workers on many machines.
//
// Semantics are those of SqliteStorage: every Storage method is one transaction (READ COMMITTED), the
// schema (versioned, see storage.hpp) is created or migrated on first use under a transaction-level
// advisory lock, so that workers connecting to a fresh database at the same moment do not race.
//
// Serialisation: every method that reads trials and then writes (ask, claim_pending, finish, reap_lost)
// first takes a ROW lock on the study's row, `SELECT … FROM studies WHERE name = $1 FOR UPDATE`.
// Why a row lock rather than an advisory lock:
//  - it is scoped to exactly one study (no hashing of study names into the single 64-bit advisory key
//    space, where two studies could collide and needlessly serialise each other);
//  - it is released by COMMIT/ROLLBACK and by the server when a worker's connection dies (kill -9,
//    network loss), with nothing to unlock by hand;
//  - under READ COMMITTED each later statement of the transaction takes a fresh snapshot, so after the
//    lock is granted the asker reads every trial the previous lock holder committed, and computes its
//    suggestion with the others' pending points: two workers never receive the same pending trial.
// Heartbeats do NOT take the study lock (one UPDATE of the trial's own row), so a long suggestion in
// progress never delays them. The advisory lock is used only for schema creation, where no row exists yet.
//
// A Storage object holds one connection; its methods are serialised by a mutex, so threads may share
// it (but a worker's heartbeat thread opens its own connection so it never waits behind an ask). A
// connection that broke (server restart) is reset before the next transaction; an operation that fails
// because the connection broke throws ConnectionLost, which open_storage's ReconnectingStorage retries with
// backoff for a bounded time (storage/reconnecting.hpp).
#include <mutex>
#include <string>
#include <vector>

#include "kbo/storage/storage.hpp"

typedef struct pg_conn PGconn;

namespace kbo {

class PostgresStorage : public Storage {
 public:
  /// Connects to `url` (libpq URI: postgresql://USER@HOST:PORT/DB or postgresql:///DB?host=/socket/dir,
  /// connect_timeout 10 s unless the URL sets one) and creates or migrates the schema. InputError (one
  /// line, naming the URL without its password and the allowed forms) if the server is unreachable,
  /// the URL is malformed, or the database holds a newer kbo schema. ReadOnly: no schema is created or
  /// migrated and every transaction is READ ONLY (InputError if the database holds no current kbo schema).
  explicit PostgresStorage(const std::string& url, StorageAccess access = StorageAccess::Create);
  ~PostgresStorage() override;
  PostgresStorage(const PostgresStorage&) = delete;
  PostgresStorage& operator=(const PostgresStorage&) = delete;

  StudyRecord create_study_if_absent(const StudyRecord& wanted) override;
  std::optional<StudyRecord> load_study(const std::string& name) override;
  std::vector<std::string> study_names() override;
  void update_study_config(const std::string& name, const nlohmann::json& config) override;
  void update_study_budget(const std::string& name, std::optional<int> budget) override;
  Trial ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) override;
  std::optional<Trial> claim_pending(const std::string& study, const TrialPredicate& claimable,
                                     const std::string& worker, bool running = true) override;
  Trial finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
               const std::string& reason, const Teller& by, const std::vector<double>& constraints = {},
               const std::vector<double>& values = {}, std::optional<double> sem = std::nullopt) override;
  std::vector<Trial> add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                   const std::string& worker) override;
  bool set_lease(const std::string& study, int trial_id, double lease_until) override;
  bool set_info(const std::string& study, int trial_id, const nlohmann::json& info) override;
  bool release(const std::string& study, int trial_id, const std::string& worker) override;
  bool heartbeat(const std::string& study, int trial_id, const std::string& worker) override;
  std::vector<Trial> reap_lost(const std::string& study, double stale_after, double now,
                               const TrialPredicate& lost) override;
  std::vector<Trial> trials(const std::string& study) override;
  nlohmann::json load_model_state(const std::string& study) override;
  void save_model_state(const std::string& study, const nlohmann::json& state) override;
  std::string url() const override { return url_; }

  /// The URL with any password replaced by "***" (for messages).
  static std::string redact(const std::string& url);

 private:
  class Txn;
  std::string lock_study(const std::string& name);  // SELECT id … FOR UPDATE; InputError if absent
  std::vector<Trial> read_trials(const std::string& sid);
  std::optional<Trial> first_complete(const std::string& sid);  // the study's lowest-id complete trial
  std::optional<StudyRecord> load_study_unlocked(const std::string& name);

  std::string url_;
  bool read_only_ = false;
  PGconn* conn_ = nullptr;
  std::recursive_mutex mutex_;
};

}  // namespace kbo
