#pragma once
// SQLite storage: one file holds any number of studies. WAL journal, synchronous=FULL (a committed
// trial survives kill -9 and power loss), busy_timeout so concurrent processes wait instead of
// failing, and BEGIN IMMEDIATE for every write so that concurrent askers are serialised.
#include <cstdint>
#include <string>

#include "kbo/storage/storage.hpp"

struct sqlite3;

namespace kbo {

class SqliteStorage : public Storage {
 public:
  /// Opens or creates the database at `path`. InputError if it cannot be opened for writing (missing
  /// directory, read-only file or directory) or is not a kbo/SQLite database.
  /// Existing: as Create, but a missing file is an InputError (nothing is created).
  /// ReadOnly: opens an existing database without creating or changing any file (not even -wal/-shm when
  /// no writer has the database open, so it works on read-only media); InputError if the file is missing.
  /// A full disk or an I/O error while writing throws StorageError.
  explicit SqliteStorage(const std::string& path, StorageAccess access = StorageAccess::Create,
                         int busy_timeout_ms = 600000);
  ~SqliteStorage() override;
  SqliteStorage(const SqliteStorage&) = delete;
  SqliteStorage& operator=(const SqliteStorage&) = delete;

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
  std::string url() const override { return "sqlite:" + path_; }

 private:
  void open_read_only(int busy_timeout_ms);
  void open_read_write(bool create, int busy_timeout_ms);
  void check_schema(StorageAccess access);  // create or migrate (Create, Existing); require the current one (ReadOnly)
  std::int64_t study_id(const std::string& name);  // InputError if absent
  std::vector<Trial> read_trials(std::int64_t sid);
  std::optional<Trial> first_complete(std::int64_t sid);  // the study's lowest-id complete trial

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace kbo
