#pragma once
// Storage backends for studies. Every method is one atomic transaction, so any backend that can
// serialise writers on a study (SQLite BEGIN IMMEDIATE, PostgreSQL SELECT … FOR UPDATE on the study
// row) can implement it. Trials are addressed by (study name, trial id).
//
// Schema versions (SQLite and PostgreSQL keep `schema_version` in the table kbo_meta):
//   1  studies(name, direction, space, config, created_at), trials(number, x, value, state, reason,
//      worker, created_at, finished_at)
//   2  + studies.budget, trials.heartbeat_at, trials.retry_of (workers, heartbeats, lost-worker retries)
//   3  + trials.lease_until (leases of trials handed out by `kbo ask`)
//   4  + trials.constraints (outcome constraints of a complete trial: JSON array text, NULL for none)
//   5  + trials.info (JSON object of model diagnostics at ask time, e.g. the kernel auto chose)
//   6  + model_state(study, state, updated_at): the last fitted model state (hyperparameters per kernel)
//   7  + studies.directions, trials.objective_values (studies with several objectives: JSON arrays, NULL for
//      one objective, whose value stays in trials.value; for several, trials.value holds the first)
//   8  + trials.sem (standard error of the mean of a complete trial's value; NULL when not reported)
// Opening migrates an older schema in place (one transaction); a schema newer than kSchemaVersion is
// refused with an InputError asking for a newer kbo, so an old kbo never writes rows it does not understand.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kbo/core/error.hpp"
#include "kbo/core/registry.hpp"
#include "kbo/study/trial.hpp"

namespace kbo {

/// The schema version this build writes (and the newest it can read).
inline constexpr int kSchemaVersion = 8;

/// Who records the result of a trial (Storage::finish): the worker running it, or someone else (`kbo tell`,
/// worker ""). A trial running under a worker may be finished only by that worker, unless `force`.
struct Teller {
  std::string worker;
  bool force = false;
};

class Storage {
 public:
  virtual ~Storage() = default;

  /// Inserts `wanted` if no study of that name exists; returns the stored record either way.
  virtual StudyRecord create_study_if_absent(const StudyRecord& wanted) = 0;
  virtual std::optional<StudyRecord> load_study(const std::string& name) = 0;
  virtual std::vector<std::string> study_names() = 0;
  virtual void update_study_config(const std::string& name, const nlohmann::json& config) = 0;
  virtual void update_study_budget(const std::string& name, std::optional<int> budget) = 0;

  /// In one write transaction: reads the study's trials, calls `suggest(trials)` and inserts a new
  /// pending trial (id = number of trials) at the returned point for `worker`. Concurrent calls
  /// are serialised, so each sees the trials the others inserted. If `suggest` throws, nothing is
  /// written and the exception propagates. `suggest` runs under the write lock, so it must be quick:
  /// Study computes the point beforehand from a snapshot and only re-checks it here.
  using SuggestFn = std::function<Vec(const std::vector<Trial>& trials)>;
  virtual Trial ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) = 0;

  /// In one write transaction: the lowest-id pending trial for which `claimable` is true gets
  /// `worker` as its new owner (and heartbeat_at = now, so it is not stale before the new owner's first
  /// heartbeat) and is returned (nullopt if none). With running = false (an ask hands the trial out:
  /// PendingPhase::Asked) the heartbeat stays 0, so the trial waits for a tell instead of looking lost.
  using TrialPredicate = std::function<bool(const Trial&)>;
  virtual std::optional<Trial> claim_pending(const std::string& study, const TrialPredicate& claimable,
                                             const std::string& worker, bool running = true) = 0;

  /// In one write transaction: a pending trial becomes complete (value set) or failed (reason set).
  /// InputError (check_finishable) if the trial does not exist, is not pending, or is running under a
  /// worker other than `by.worker` and not `by.force`.
  /// `constraints` (complete trials only) are stored with the value (Trial::constraints); a complete
  /// trial's count must be that of the study's first complete trial (ConstraintCountError otherwise).
  /// `values` (complete trials of a study with several objectives): every objective (Trial::values).
  /// `sem` (complete trials): the standard error of the value (Trial::sem), stored as given.
  virtual Trial finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
                       const std::string& reason, const Teller& by, const std::vector<double>& constraints = {},
                       const std::vector<double>& values = {}, std::optional<double> sem = std::nullopt) = 0;

  /// In one write transaction: each row becomes a complete trial (ids continue the study's, in order), or
  /// none does: ConstraintCountError if a row's number of constraints differs from the study's complete
  /// trials'. It reads no other trial, so a tell or an import stays O(rows) however large the study is.
  virtual std::vector<Trial> add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                           const std::string& worker) = 0;

  /// Sets lease_until of a pending trial (one handed out by `kbo ask`): after that Unix time reap_lost
  /// gives it up (kLeaseExpired) and re-offers its point. Returns false if the trial is not pending.
  virtual bool set_lease(const std::string& study, int trial_id, double lease_until) = 0;
  /// Stores the model diagnostics of a trial (Trial::info, a JSON object), written right after its ask.
  /// False if no such trial.
  virtual bool set_info(const std::string& study, int trial_id, const nlohmann::json& info) = 0;

  /// One statement: if the trial is pending and owned by `worker`, it loses its owner, heartbeat and lease
  /// (PendingPhase::Queued): the next worker or run claims it, same id, same point. Returns whether it did.
  virtual bool release(const std::string& study, int trial_id, const std::string& worker) = 0;

  /// Sets heartbeat_at = now on trial `trial_id` if it is still pending and owned by `worker`; returns
  /// false otherwise (it was finished or given up as lost). One statement: it never waits for the study
  /// lock that askers hold while they compute a suggestion (PostgreSQL), so a slow ask cannot make
  /// healthy workers look lost.
  virtual bool heartbeat(const std::string& study, int trial_id, const std::string& worker) = 0;

  /// In one write transaction: every running trial (PendingPhase::Running: a worker's, with or without a
  /// heartbeat yet) with either (stale_after > 0 and now − last_sign_of_life > stale_after) or lost(trial)
  /// becomes failed with reason kWorkerLost, every asked trial whose lease ran out (0 < lease_until < now)
  /// becomes failed with reason kLeaseExpired, and for each a new pending trial at the same point is inserted
  /// with no owner (worker "", no heartbeat) and retry_of = the given-up trial's id. Returns the new trials.
  /// Asked trials without a lease (`kbo ask --ask-timeout 0`, Python asks) are never reaped.
  virtual std::vector<Trial> reap_lost(const std::string& study, double stale_after, double now,
                                       const TrialPredicate& lost) = 0;

  virtual std::vector<Trial> trials(const std::string& study) = 0;

  /// The study's stored model state (what Strategy::model_state returned after its last refit: fitted
  /// hyperparameters per kernel), or null if none: an ask from any process warm-starts from it.
  virtual nlohmann::json load_model_state(const std::string& study) = 0;
  /// Replaces the stored model state (one statement; the last writer wins: any recent fit is a good start).
  virtual void save_model_state(const std::string& study, const nlohmann::json& state) = 0;

  /// The URL it was opened with: "memory", "sqlite:PATH" or the PostgreSQL URL. open_storage(url())
  /// opens a second connection to the same data (except "memory", which is per object).
  virtual std::string url() const = 0;
};

/// How a command uses its storage.
enum class StorageAccess {
  Create,    ///< read and write; a missing SQLite file is created (kbo optimize, kbo ask, Python)
  Existing,  ///< read and write an existing database (kbo tell, kbo worker): a missing file is an InputError
  ReadOnly,  ///< kbo show: nothing is created, migrated or changed (a missing file is an InputError, a study
             ///< on read-only media can be read, and every write method throws)
};

/// Opens storage from a URL (normalize_storage_url first, so a plain path such as study.db works):
///   memory                                  this process only
///   sqlite:PATH, sqlite:///ABS/PATH         file created if absent (its directory must be writable)
///   postgresql://USER@HOST:PORT/DB          a PostgreSQL server (libpq URL; postgres:// too; any libpq
///   postgresql:///DB?host=/socket/dir        parameters such as ?password=…&sslmode=… pass through)
/// Unless ReadOnly, the schema is created or migrated on first use. InputError naming the URL and the allowed
/// forms for anything else, an unreachable server or a database kbo cannot use.
std::shared_ptr<Storage> open_storage(const std::string& url, StorageAccess access = StorageAccess::Create);

/// What a user typed as storage → the URL open_storage takes, the same for the CLI, config files and
/// Python: "memory" and URLs with a known scheme as they are, except sqlite:///ABS (file-URL style) →
/// sqlite:/ABS; a plain file path (no scheme; it contains '/' or '.', e.g. study.db or runs/s1) →
/// sqlite:PATH. InputError listing the allowed shapes for anything else: a bare word such as "memroy",
/// an unknown scheme, "sqlite:" without a path, or sqlite://NAME (a host part: write sqlite:NAME).
std::string normalize_storage_url(const std::string& text);

/// Storage backends by URL scheme (the text before the first ':').
struct StorageEntry {
  /// `url` is normalised; `access` as in open_storage.
  std::function<std::shared_ptr<Storage>(const std::string& url, StorageAccess access)> open;
  std::string forms;  // the URL shapes it accepts, for help texts and errors
  std::string help;
};
Registry<StorageEntry>& storages();
/// memory, sqlite, postgresql (called by register_builtin_modules()).
void register_builtin_storages();

/// One line listing the storage URL forms (for error messages and --help).
std::string storage_url_forms();

/// InputError for a stored schema newer than this build's kSchemaVersion (`url` names the storage).
void check_schema_version(int stored, const std::string& url);
/// A stored trials.info text as a JSON object (an empty object for anything else: diagnostics only).
nlohmann::json parse_trial_info(const std::string& text);

/// The rules of Storage::finish, shared by every backend: InputError unless `t` (the stored trial `trial_id`
/// of `study`; nullopt if there is none, `n_trials` trials exist) is pending and, when it is running under a
/// worker, `by` is that worker or forces it.
void check_finishable(const std::optional<Trial>& t, int trial_id, int n_trials, const std::string& study,
                      const Teller& by, double now);

/// A complete trial whose number of outcome constraints differs from the study's (a bug of the objective).
struct ConstraintCountError : InputError {
  using InputError::InputError;
};
/// The rule of finish/add_completed: ConstraintCountError unless `constraints` has as many entries as the
/// study's first complete trial `first_complete` (any count when there is none yet).
void check_constraint_count(const std::optional<Trial>& first_complete, const std::vector<double>& constraints);

/// The complete trial `id` that add_completed stores for `row` (created and finished at `now`).
Trial completed_trial(const EvaluatedPoint& row, int id, const std::string& worker, double now);

/// Why reap_lost gives up the pending trial `t` at time `now`: kWorkerLost (running, its last sign of life older
/// than stale_after > 0, or lost(t)), kLeaseExpired (asked, 0 < lease_until < now), else nullptr (keep it).
const char* given_up_reason(const Trial& t, double stale_after, double now, const Storage::TrialPredicate& lost);

/// The InputError for a stored trial row that kbo cannot have written (a file edited or damaged outside kbo):
/// names the storage, the trial id and what is wrong, instead of reading the row as zeros.
[[noreturn]] void throw_damaged_trial(const std::string& url, int trial_id, const std::string& what);

/// Current Unix time in seconds.
double unix_now();

}  // namespace kbo
