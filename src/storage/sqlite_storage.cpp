// SQLite study storage (see include/kbo/storage/sqlite.hpp).
#include "kbo/storage/sqlite.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "kbo/core/error.hpp"
#include "kbo/storage/stored_text.hpp"
#include "point_text.hpp"

namespace kbo {

namespace {

// The current schema (version kSchemaVersion = 8). Points are JSON arrays (nlohmann writes doubles
// with round-trip precision).
constexpr const char* kSqliteSchema = R"sql(
CREATE TABLE studies(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  direction TEXT NOT NULL CHECK(direction IN ('minimize', 'maximize')),
  space TEXT NOT NULL,
  config TEXT NOT NULL,
  created_at REAL NOT NULL,
  budget INTEGER,
  directions TEXT);
CREATE TABLE trials(
  study_id INTEGER NOT NULL REFERENCES studies(id),
  number INTEGER NOT NULL,
  x TEXT NOT NULL,
  value REAL,
  state TEXT NOT NULL CHECK(state IN ('pending', 'complete', 'failed')),
  reason TEXT NOT NULL DEFAULT '',
  worker TEXT NOT NULL DEFAULT '',
  created_at REAL NOT NULL,
  finished_at REAL NOT NULL DEFAULT 0,
  heartbeat_at REAL,
  retry_of INTEGER,
  lease_until REAL,
  constraints TEXT,
  info TEXT,
  objective_values TEXT,
  sem REAL,
  PRIMARY KEY(study_id, number));
CREATE TABLE model_state(
  study_id INTEGER PRIMARY KEY REFERENCES studies(id),
  state TEXT NOT NULL,
  updated_at REAL NOT NULL);
INSERT INTO kbo_meta(key, value) VALUES('schema_version', '8');
)sql";

// Migrations: kSqliteMigrations[v - 1] takes schema version v to v + 1.
constexpr const char* kSqliteMigrations[] = {
    R"sql(
ALTER TABLE studies ADD COLUMN budget INTEGER;
ALTER TABLE trials ADD COLUMN heartbeat_at REAL;
ALTER TABLE trials ADD COLUMN retry_of INTEGER;
UPDATE kbo_meta SET value = '2' WHERE key = 'schema_version';
)sql",
    R"sql(
ALTER TABLE trials ADD COLUMN lease_until REAL;
UPDATE kbo_meta SET value = '3' WHERE key = 'schema_version';
)sql",
    // 4: outcome constraints
    R"sql(
ALTER TABLE trials ADD COLUMN constraints TEXT;
UPDATE kbo_meta SET value = '4' WHERE key = 'schema_version';
)sql",
    // 5: model diagnostics per trial
    R"sql(
ALTER TABLE trials ADD COLUMN info TEXT;
UPDATE kbo_meta SET value = '5' WHERE key = 'schema_version';
)sql",
    R"sql(
CREATE TABLE model_state(
  study_id INTEGER PRIMARY KEY REFERENCES studies(id),
  state TEXT NOT NULL,
  updated_at REAL NOT NULL);
UPDATE kbo_meta SET value = '6' WHERE key = 'schema_version';
)sql",
    // 7: studies with several objectives
    R"sql(
ALTER TABLE studies ADD COLUMN directions TEXT;
ALTER TABLE trials ADD COLUMN objective_values TEXT;
UPDATE kbo_meta SET value = '7' WHERE key = 'schema_version';
)sql",
    // 8: the standard error of a noisy objective's value
    R"sql(
ALTER TABLE trials ADD COLUMN sem REAL;
UPDATE kbo_meta SET value = '8' WHERE key = 'schema_version';
)sql",
};
static_assert(sizeof(kSqliteMigrations) / sizeof(kSqliteMigrations[0]) == kSchemaVersion - 1);

/// A full disk or an I/O error is the storage failing, not the database being unusable: StorageError.
[[noreturn]] void throw_sqlite(int rc, const std::string& path, const std::string& message) {
  const int primary = rc & 0xff;
  if (primary == SQLITE_FULL || primary == SQLITE_IOERR)
    throw StorageError("sqlite storage '" + path + "': " + message + " (" + sqlite3_errstr(rc) +
                       "): free disk space (or raise the file size limit) and re-run the same command to resume; "
                       "committed trials are kept");
  throw std::runtime_error("sqlite storage '" + path + "': " + message);
}

[[noreturn]] void fail_db(sqlite3* db, const std::string& path, const std::string& what) {
  throw_sqlite(sqlite3_extended_errcode(db), path, what + ": " + sqlite3_errmsg(db));
}

void close_quietly(sqlite3*& db) {
  if (db) sqlite3_close(db);
  db = nullptr;
}

/// file: URI of a path for sqlite3_open_v2 with SQLITE_OPEN_URI ('%', '?', '#' escaped).
std::string file_uri(const std::string& path) {
  std::string out = "file:";
  for (unsigned char c : path) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

/// A prepared statement; finalised on destruction.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail_db(db, path, "prepare");
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  /// Every text into the database passes here: valid UTF-8 without NUL (stored_text).
  Stmt& bind(int i, const std::string& s) {
    const std::string t = stored_text(s);
    check(sqlite3_bind_text(stmt_, i, t.c_str(), static_cast<int>(t.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Stmt& bind(int i, double v) { check(sqlite3_bind_double(stmt_, i, v)); return *this; }
  Stmt& bind(int i, std::int64_t v) { check(sqlite3_bind_int64(stmt_, i, v)); return *this; }
  Stmt& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Stmt& bind_null(int i) { check(sqlite3_bind_null(stmt_, i)); return *this; }

  /// true while a row is available.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail_db(db_, path_, "step");
  }
  void run() { while (step()) {} }

  /// Text as stored_text: a file written by an older kbo or edited by hand may hold bytes JSON cannot carry.
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    if (!p) return "";
    return stored_text(std::string_view(reinterpret_cast<const char*>(p),
                                        static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))));
  }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  /// A REAL column: NULL → nullopt; text or a blob (SQLite keeps what it is given, whatever the column's type)
  /// is std::runtime_error naming `column`, never 0.0.
  std::optional<double> number(int col, const char* column) const {
    switch (sqlite3_column_type(stmt_, col)) {
      case SQLITE_NULL: return std::nullopt;
      case SQLITE_INTEGER:
      case SQLITE_FLOAT: return sqlite3_column_double(stmt_, col);
      default: throw std::runtime_error(std::string(column) + " is not a number ('" + text(col).substr(0, 60) + "')");
    }
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail_db(db_, path_, "bind");
  }
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

void exec(sqlite3* db, const std::string& path, const char* sql) {
  char* err = nullptr;
  if (const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err); rc != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw_sqlite(sqlite3_extended_errcode(db) != SQLITE_OK ? sqlite3_extended_errcode(db) : rc, path, msg);
  }
}

/// BEGIN IMMEDIATE … COMMIT; rolled back if destroyed before commit(). IMMEDIATE takes the write
/// lock at the start, so two writers never interleave read-then-write sequences.
class WriteTransaction {
 public:
  WriteTransaction(sqlite3* db, const std::string& path) : db_(db), path_(path) {
    exec(db_, path_, "BEGIN IMMEDIATE");
  }
  ~WriteTransaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    exec(db_, path_, "COMMIT");
    done_ = true;
  }
 private:
  sqlite3* db_;
  const std::string& path_;
  bool done_ = false;
};

using detail::dump_x;
using detail::parse_x;

}  // namespace

SqliteStorage::SqliteStorage(const std::string& path, StorageAccess access, int busy_timeout_ms) : path_(path) {
  const std::string url = "sqlite:" + path;
  if (path.empty()) throw InputError("storage 'sqlite:' needs a file path (e.g. sqlite:study.db)");
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError("storage '" + url + "' is unreachable: directory '" + dir.string() + "' does not exist");
  if (fs::is_directory(p, ec)) throw InputError("storage '" + url + "' is a directory, not a file");
  try {
    if (access == StorageAccess::ReadOnly) open_read_only(busy_timeout_ms);
    else open_read_write(access == StorageAccess::Create, busy_timeout_ms);
    check_schema(access);
  } catch (const InputError&) {
    close_quietly(db_);
    throw;
  } catch (const StorageError&) {
    close_quietly(db_);
    throw;
  } catch (const std::exception& e) {
    close_quietly(db_);
    throw InputError("storage '" + url + "' is not a usable kbo SQLite database (" + e.what() + ")");
  }
}

void SqliteStorage::open_read_write(bool create, int busy_timeout_ms) {
  const std::string url = "sqlite:" + path_;
  namespace fs = std::filesystem;
  const fs::path p(path_);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  // WAL needs to create -wal/-shm files next to the database, so the directory must be writable.
  if (access(dir.c_str(), W_OK) != 0)
    throw InputError("storage '" + url + "' is not writable: directory '" + dir.string() + "' is read-only");
  if (!create && !fs::exists(p, ec))
    throw InputError("storage '" + url + "' does not exist: no file '" + path_ +
                     "' (a study is created by kbo optimize, kbo ask or Python)");
  if (fs::exists(p, ec) && access(p.c_str(), W_OK) != 0)
    throw InputError("storage '" + url + "' is not writable: the file is read-only");
  if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    close_quietly(db_);
    throw InputError("storage '" + url + "' cannot be opened: " + msg);
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms);  // before any statement: other processes may be opening it too
  // journal_mode=WAL is persistent in the file; FULL sync makes every COMMIT durable.
  {
    Stmt wal(db_, path_, "PRAGMA journal_mode=WAL");
    if (!wal.step() || wal.text(0) != "wal")
      throw InputError("storage '" + url + "' cannot use WAL journaling (is it on a network file system?)");
  }
  exec(db_, path_, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
}

void SqliteStorage::open_read_only(int busy_timeout_ms) {
  const std::string url = "sqlite:" + path_;
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec))
    throw InputError("storage '" + url + "' does not exist: no file '" + path_ +
                     "' (reading creates nothing; a study is created by kbo optimize, kbo ask or Python)");
  // A read-only connection to a WAL database creates -wal and -shm files unless they exist. They exist
  // while a writer has the database open (or after it crashed): then read through them. Otherwise every
  // committed trial is in the main file, and `immutable` reads it without creating anything — which is
  // also what works on read-only media. (A writer that starts during that read writes to its new -wal;
  // it copies pages into the main file only at a checkpoint, after 1000 pages or when it closes.)
  const bool writer_files = std::filesystem::exists(path_ + "-wal", ec);
  const std::string uri = file_uri(path_) + (writer_files ? "?mode=ro" : "?immutable=1");
  if (sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    close_quietly(db_);
    throw InputError("storage '" + url + "' cannot be opened for reading: " + msg);
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms);
}

void SqliteStorage::check_schema(StorageAccess access) {
  const std::string url = "sqlite:" + path_;
  if (access == StorageAccess::ReadOnly) {
    std::optional<int> version;
    {
      Stmt t(db_, path_, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'kbo_meta'");
      t.step();
      if (t.integer(0) == 0) throw InputError("storage '" + url + "' holds no kbo studies (no kbo_meta table)");
      Stmt q(db_, path_, "SELECT value FROM kbo_meta WHERE key = 'schema_version'");
      if (q.step()) version = std::stoi(q.text(0));
    }
    if (!version) throw InputError("storage '" + url + "' holds no kbo schema version");
    check_schema_version(*version, url);
    if (*version < kSchemaVersion)
      throw InputError("storage '" + url + "' has the older kbo schema version " + std::to_string(*version) +
                       ": run a writing command on it once (kbo optimize, ask or tell) to migrate it to version " +
                       std::to_string(kSchemaVersion));
    return;
  }
  // Create or migrate the schema in one write transaction: concurrent openers wait for each other.
  WriteTransaction txn(db_, path_);
  exec(db_, path_, "CREATE TABLE IF NOT EXISTS kbo_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  std::optional<int> version;
  {
    Stmt q(db_, path_, "SELECT value FROM kbo_meta WHERE key = 'schema_version'");
    if (q.step()) version = std::stoi(q.text(0));
  }
  if (!version) {
    exec(db_, path_, kSqliteSchema);
  } else {
    check_schema_version(*version, url);
    for (int v = *version; v < kSchemaVersion; ++v) exec(db_, path_, kSqliteMigrations[v - 1]);
  }
  txn.commit();
}

SqliteStorage::~SqliteStorage() {
  if (db_) sqlite3_close(db_);
}

std::int64_t SqliteStorage::study_id(const std::string& name) {
  Stmt q(db_, path_, "SELECT id FROM studies WHERE name = ?1");
  q.bind(1, name);
  if (!q.step()) throw InputError("no study named '" + name + "' in " + url());
  return q.integer(0);
}

namespace {

constexpr const char* kSqliteTrialColumns =
    "number, x, value, state, reason, worker, created_at, finished_at, heartbeat_at, retry_of, lease_until, constraints, info, objective_values, sem";

/// A trial row; a row kbo cannot have written (text where a number belongs, a point that is no list of
/// numbers, an unknown state) is InputError naming the trial (throw_damaged_trial).
Trial trial_from_row(const Stmt& q, const std::string& url) {
  Trial t;
  t.id = static_cast<int>(q.integer(0));
  try {
    t.x = parse_x(q.text(1));
    t.value = q.number(2, "value");
    t.state = parse_trial_state(q.text(3));
    if (t.state == TrialState::Complete && !t.value) throw std::runtime_error("a complete trial without a value");
    t.reason = q.text(4);
    t.worker = q.text(5);
    t.created_at = q.number(6, "created_at").value_or(0.0);
    t.finished_at = q.number(7, "finished_at").value_or(0.0);
    t.heartbeat_at = q.number(8, "heartbeat_at").value_or(0.0);
    t.retry_of = q.is_null(9) ? -1 : static_cast<int>(q.integer(9));
    t.lease_until = q.number(10, "lease_until").value_or(0.0);
    if (!q.is_null(11)) t.constraints = constraints_from_text(q.text(11));
    t.sem = q.number(14, "sem");
    if (t.sem && !(*t.sem >= 0.0 && std::isfinite(*t.sem))) throw std::runtime_error("a negative or non-finite sem");
  } catch (const std::exception& e) {
    throw_damaged_trial(url, t.id, e.what());
  }
  if (!q.is_null(12)) t.info = parse_trial_info(q.text(12));
  if (!q.is_null(13)) t.values = values_from_text(q.text(13));
  return t;
}

}  // namespace

std::vector<Trial> SqliteStorage::read_trials(std::int64_t sid) {
  const std::string sql = std::string("SELECT ") + kSqliteTrialColumns + " FROM trials WHERE study_id = ?1 ORDER BY number";
  Stmt q(db_, path_, sql.c_str());
  q.bind(1, sid);
  std::vector<Trial> out;
  while (q.step()) out.push_back(trial_from_row(q, url()));
  return out;
}

StudyRecord SqliteStorage::create_study_if_absent(const StudyRecord& wanted) {
  WriteTransaction txn(db_, path_);
  if (auto existing = load_study(wanted.name)) {
    txn.commit();
    return *existing;
  }
  StudyRecord r = wanted;
  if (r.created_at == 0.0) r.created_at = unix_now();
  Stmt ins(db_, path_,
           "INSERT INTO studies(name, direction, space, config, created_at, budget, directions) "
           "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  ins.bind(1, r.name).bind(2, std::string(r.minimize ? "minimize" : "maximize"))
      .bind(3, r.space.dump()).bind(4, r.config.dump()).bind(5, r.created_at);
  if (r.budget) ins.bind(6, *r.budget); else ins.bind_null(6);
  if (r.directions.empty()) ins.bind_null(7); else ins.bind(7, directions_text(r.directions));
  ins.run();
  txn.commit();
  return r;
}

std::optional<StudyRecord> SqliteStorage::load_study(const std::string& name) {
  Stmt q(db_, path_,
         "SELECT name, direction, space, config, created_at, budget, directions FROM studies WHERE name = ?1");
  q.bind(1, name);
  if (!q.step()) return std::nullopt;
  StudyRecord r;
  r.name = q.text(0);
  r.minimize = q.text(1) == "minimize";
  r.space = nlohmann::json::parse(q.text(2));
  r.config = nlohmann::json::parse(q.text(3));
  r.created_at = q.real(4);
  if (!q.is_null(5)) r.budget = static_cast<int>(q.integer(5));
  if (!q.is_null(6)) r.directions = directions_from_text(q.text(6));
  return r;
}

std::vector<std::string> SqliteStorage::study_names() {
  Stmt q(db_, path_, "SELECT name FROM studies ORDER BY name");
  std::vector<std::string> names;
  while (q.step()) names.push_back(q.text(0));
  return names;
}

void SqliteStorage::update_study_config(const std::string& name, const nlohmann::json& config) {
  WriteTransaction txn(db_, path_);
  const auto sid = study_id(name);
  Stmt u(db_, path_, "UPDATE studies SET config = ?1 WHERE id = ?2");
  u.bind(1, config.dump()).bind(2, sid);
  u.run();
  txn.commit();
}

Trial SqliteStorage::ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) {
  WriteTransaction txn(db_, path_);  // held while the strategy computes: askers are serialised
  const auto sid = study_id(study);
  const std::vector<Trial> snapshot = read_trials(sid);
  Trial t;
  t.x = suggest(snapshot);
  t.id = static_cast<int>(snapshot.size());
  t.state = TrialState::Pending;
  t.worker = worker;
  t.created_at = unix_now();
  Stmt ins(db_, path_,
           "INSERT INTO trials(study_id, number, x, value, state, worker, created_at) "
           "VALUES(?1, ?2, ?3, NULL, 'pending', ?4, ?5)");
  ins.bind(1, sid).bind(2, t.id).bind(3, dump_x(t.x)).bind(4, worker).bind(5, t.created_at);
  ins.run();
  txn.commit();
  return t;
}

std::optional<Trial> SqliteStorage::claim_pending(const std::string& study, const TrialPredicate& claimable,
                                                  const std::string& worker, bool running) {
  WriteTransaction txn(db_, path_);
  const auto sid = study_id(study);
  for (Trial t : read_trials(sid)) {
    if (t.state != TrialState::Pending || !claimable(t)) continue;
    t.worker = worker;
    t.heartbeat_at = running ? unix_now() : 0.0;
    Stmt u(db_, path_, "UPDATE trials SET worker = ?1, heartbeat_at = ?2 WHERE study_id = ?3 AND number = ?4");
    u.bind(1, worker).bind(2, t.heartbeat_at).bind(3, sid).bind(4, t.id);
    u.run();
    txn.commit();
    return t;
  }
  txn.commit();
  return std::nullopt;
}

Trial SqliteStorage::finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
                            const std::string& reason, const Teller& by, const std::vector<double>& constraints,
                            const std::vector<double>& values, std::optional<double> sem) {
  WriteTransaction txn(db_, path_);
  const auto sid = study_id(study);
  std::optional<Trial> found;
  int n_trials = 0;
  {  // statements finalised before the UPDATE and COMMIT
    const std::string sql = std::string("SELECT ") + kSqliteTrialColumns + " FROM trials WHERE study_id = ?1 AND number = ?2";
    Stmt q(db_, path_, sql.c_str());
    q.bind(1, sid).bind(2, trial_id);
    if (q.step()) {
      found = trial_from_row(q, url());
    } else {
      Stmt c(db_, path_, "SELECT COUNT(*) FROM trials WHERE study_id = ?1");
      c.bind(1, sid);
      c.step();
      n_trials = static_cast<int>(c.integer(0));
    }
  }
  check_finishable(found, trial_id, n_trials, study, by, unix_now());
  if (state == TrialState::Complete) check_constraint_count(first_complete(sid), constraints);
  Trial t = std::move(*found);
  t.state = state;
  t.value = state == TrialState::Complete ? value : std::nullopt;
  t.reason = state == TrialState::Failed ? stored_reason(reason) : std::string();
  t.finished_at = unix_now();
  t.constraints = state == TrialState::Complete ? constraints : std::vector<double>();
  t.values = state == TrialState::Complete ? values : std::vector<double>();
  t.sem = state == TrialState::Complete ? sem : std::nullopt;
  Stmt u(db_, path_,
         "UPDATE trials SET state = ?1, value = ?2, reason = ?3, finished_at = ?4, constraints = ?7, "
         "objective_values = ?8, sem = ?9 WHERE study_id = ?5 AND number = ?6");
  u.bind(1, to_string(state));
  if (t.value) u.bind(2, *t.value); else u.bind_null(2);
  u.bind(3, t.reason).bind(4, t.finished_at).bind(5, sid).bind(6, trial_id);
  if (t.constraints.empty()) u.bind_null(7); else u.bind(7, constraints_text(t.constraints));
  if (t.values.empty()) u.bind_null(8); else u.bind(8, values_text(t.values));
  if (t.sem) u.bind(9, *t.sem); else u.bind_null(9);
  u.run();
  txn.commit();  // durable (synchronous=FULL) before the caller reports the result
  return t;
}

std::optional<Trial> SqliteStorage::first_complete(std::int64_t sid) {
  const std::string sql = std::string("SELECT ") + kSqliteTrialColumns +
                          " FROM trials WHERE study_id = ?1 AND state = 'complete' ORDER BY number LIMIT 1";
  Stmt q(db_, path_, sql.c_str());
  q.bind(1, sid);
  if (!q.step()) return std::nullopt;
  return trial_from_row(q, url());
}

std::vector<Trial> SqliteStorage::add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                                const std::string& worker) {
  WriteTransaction txn(db_, path_);  // one commit for all rows: an import is all or nothing
  const auto sid = study_id(study);
  std::optional<Trial> first = first_complete(sid);
  int next = 0;
  {
    Stmt c(db_, path_, "SELECT COUNT(*) FROM trials WHERE study_id = ?1");
    c.bind(1, sid);
    c.step();
    next = static_cast<int>(c.integer(0));
  }
  std::vector<Trial> added;
  for (const EvaluatedPoint& r : rows) {
    check_constraint_count(first, r.constraints);
    Trial t = completed_trial(r, next++, worker, unix_now());
    Stmt ins(db_, path_,
             "INSERT INTO trials(study_id, number, x, value, state, worker, created_at, finished_at, constraints, "
             "objective_values, sem) VALUES(?1, ?2, ?3, ?4, 'complete', ?5, ?6, ?7, ?8, ?9, ?10)");
    ins.bind(1, sid).bind(2, t.id).bind(3, dump_x(t.x)).bind(4, *t.value).bind(5, worker).bind(6, t.created_at)
        .bind(7, t.finished_at);
    if (t.constraints.empty()) ins.bind_null(8); else ins.bind(8, constraints_text(t.constraints));
    if (t.values.empty()) ins.bind_null(9); else ins.bind(9, values_text(t.values));
    if (t.sem) ins.bind(10, *t.sem); else ins.bind_null(10);
    ins.run();
    if (!first) first = t;
    added.push_back(std::move(t));
  }
  txn.commit();  // durable before the caller reports the rows
  return added;
}

bool SqliteStorage::set_lease(const std::string& study, int trial_id, double lease_until) {
  Stmt u(db_, path_,
         "UPDATE trials SET lease_until = ?1 WHERE study_id = (SELECT id FROM studies WHERE name = ?2) "
         "AND number = ?3 AND state = 'pending'");
  u.bind(1, lease_until).bind(2, study).bind(3, trial_id);
  u.run();
  return sqlite3_changes(db_) == 1;
}

bool SqliteStorage::set_info(const std::string& study, int trial_id, const nlohmann::json& info) {
  Stmt u(db_, path_, "UPDATE trials SET info = ?1 WHERE study_id = (SELECT id FROM studies WHERE name = ?2) AND number = ?3");
  u.bind(1, info.dump()).bind(2, study).bind(3, trial_id);
  u.run();
  return sqlite3_changes(db_) == 1;
}

bool SqliteStorage::release(const std::string& study, int trial_id, const std::string& worker) {
  Stmt u(db_, path_,
         "UPDATE trials SET worker = '', heartbeat_at = NULL, lease_until = NULL "
         "WHERE study_id = (SELECT id FROM studies WHERE name = ?1) AND number = ?2 AND state = 'pending' "
         "AND worker = ?3");
  u.bind(1, study).bind(2, trial_id).bind(3, worker);
  u.run();
  return sqlite3_changes(db_) == 1;
}

void SqliteStorage::update_study_budget(const std::string& name, std::optional<int> budget) {
  WriteTransaction txn(db_, path_);
  const auto sid = study_id(name);
  Stmt u(db_, path_, "UPDATE studies SET budget = ?1 WHERE id = ?2");
  if (budget) u.bind(1, *budget); else u.bind_null(1);
  u.bind(2, sid);
  u.run();
  txn.commit();
}

bool SqliteStorage::heartbeat(const std::string& study, int trial_id, const std::string& worker) {
  // One autocommitted statement (SQLite serialises it with the other writers through the busy timeout).
  Stmt u(db_, path_,
         "UPDATE trials SET heartbeat_at = ?1 WHERE study_id = (SELECT id FROM studies WHERE name = ?2) "
         "AND number = ?3 AND state = 'pending' AND worker = ?4");
  u.bind(1, unix_now()).bind(2, study).bind(3, trial_id).bind(4, worker);
  u.run();
  return sqlite3_changes(db_) == 1;
}

std::vector<Trial> SqliteStorage::reap_lost(const std::string& study, double stale_after, double now,
                                            const TrialPredicate& lost) {
  WriteTransaction txn(db_, path_);
  const auto sid = study_id(study);
  const auto ts = read_trials(sid);
  std::vector<Trial> retries;
  int next_id = static_cast<int>(ts.size());
  for (const Trial& t : ts) {
    const char* why = given_up_reason(t, stale_after, now, lost);
    if (!why) continue;
    Stmt u(db_, path_,
           "UPDATE trials SET state = 'failed', reason = ?1, finished_at = ?2 WHERE study_id = ?3 AND number = ?4");
    u.bind(1, std::string(why)).bind(2, now).bind(3, sid).bind(4, t.id);
    u.run();
    Trial r;
    r.id = next_id++;
    r.x = t.x;
    r.created_at = now;
    r.retry_of = t.id;
    Stmt ins(db_, path_,
             "INSERT INTO trials(study_id, number, x, value, state, worker, created_at, retry_of) "
             "VALUES(?1, ?2, ?3, NULL, 'pending', '', ?4, ?5)");
    ins.bind(1, sid).bind(2, r.id).bind(3, dump_x(r.x)).bind(4, now).bind(5, t.id);
    ins.run();
    retries.push_back(std::move(r));
  }
  txn.commit();
  return retries;
}

std::vector<Trial> SqliteStorage::trials(const std::string& study) {
  // A read transaction gives one consistent snapshot of the study.
  exec(db_, path_, "BEGIN");
  try {
    auto out = read_trials(study_id(study));
    exec(db_, path_, "COMMIT");
    return out;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

nlohmann::json SqliteStorage::load_model_state(const std::string& study) {
  Stmt q(db_, path_,
         "SELECT state FROM model_state WHERE study_id = (SELECT id FROM studies WHERE name = ?1)");
  q.bind(1, study);
  if (!q.step()) return nullptr;
  return nlohmann::json::parse(q.text(0));
}

void SqliteStorage::save_model_state(const std::string& study, const nlohmann::json& state) {
  // One autocommitted statement: it never waits for more than another writer's short transaction.
  const auto sid = study_id(study);
  Stmt u(db_, path_,
         "INSERT INTO model_state(study_id, state, updated_at) VALUES(?1, ?2, ?3) "
         "ON CONFLICT(study_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at");
  u.bind(1, sid).bind(2, state.dump()).bind(3, unix_now());
  u.run();
}

}  // namespace kbo
