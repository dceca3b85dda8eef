// PostgreSQL study storage (see include/kbo/storage/postgres.hpp).
#include "kbo/storage/postgres.hpp"

#include <libpq-fe.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "kbo/core/error.hpp"
#include "kbo/storage/stored_text.hpp"
#include "kbo/storage/reconnecting.hpp"
#include "point_text.hpp"

namespace kbo {

namespace {

// The current schema (version kSchemaVersion = 8); same tables and meaning as the SQLite schema.
// Points are JSON text (round-trip exact); values DOUBLE PRECISION, sent and read as 17-digit text.
constexpr const char* kPostgresSchema = R"sql(
CREATE TABLE studies(
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  direction TEXT NOT NULL CHECK(direction IN ('minimize', 'maximize')),
  space TEXT NOT NULL,
  config TEXT NOT NULL,
  created_at DOUBLE PRECISION NOT NULL,
  budget INTEGER,
  directions TEXT);
CREATE TABLE trials(
  study_id BIGINT NOT NULL REFERENCES studies(id),
  number INTEGER NOT NULL,
  x TEXT NOT NULL,
  value DOUBLE PRECISION,
  state TEXT NOT NULL CHECK(state IN ('pending', 'complete', 'failed')),
  reason TEXT NOT NULL DEFAULT '',
  worker TEXT NOT NULL DEFAULT '',
  created_at DOUBLE PRECISION NOT NULL,
  finished_at DOUBLE PRECISION NOT NULL DEFAULT 0,
  heartbeat_at DOUBLE PRECISION,
  retry_of INTEGER,
  lease_until DOUBLE PRECISION,
  constraints TEXT,
  info TEXT,
  objective_values TEXT,
  sem DOUBLE PRECISION,
  PRIMARY KEY(study_id, number));
CREATE TABLE model_state(
  study_id BIGINT PRIMARY KEY REFERENCES studies(id),
  state TEXT NOT NULL,
  updated_at DOUBLE PRECISION NOT NULL);
INSERT INTO kbo_meta(key, value) VALUES('schema_version', '8');
)sql";

// kPostgresMigrations[v - 1] takes schema version v to v + 1 (version 1 = the SQLite v1 layout).
constexpr const char* kPostgresMigrations[] = {
    R"sql(
ALTER TABLE studies ADD COLUMN budget INTEGER;
ALTER TABLE trials ADD COLUMN heartbeat_at DOUBLE PRECISION;
ALTER TABLE trials ADD COLUMN retry_of INTEGER;
UPDATE kbo_meta SET value = '2' WHERE key = 'schema_version';
)sql",
    R"sql(
ALTER TABLE trials ADD COLUMN lease_until DOUBLE PRECISION;
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
  study_id BIGINT PRIMARY KEY REFERENCES studies(id),
  state TEXT NOT NULL,
  updated_at DOUBLE PRECISION NOT NULL);
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
ALTER TABLE trials ADD COLUMN sem DOUBLE PRECISION;
UPDATE kbo_meta SET value = '8' WHERE key = 'schema_version';
)sql",
};
static_assert(sizeof(kPostgresMigrations) / sizeof(kPostgresMigrations[0]) == kSchemaVersion - 1);

// Key of the advisory lock that serialises schema creation/migration (any constant unique to kbo).
constexpr const char* kSchemaLockKey = "7138250011";

/// libpq messages span several lines; ours are one.
std::string one_line(const char* msg) {
  std::string out;
  bool space = false;
  for (const char* p = msg ? msg : ""; *p; ++p) {
    if (*p == '\n' || *p == '\t' || *p == '\r' || *p == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += *p;
  }
  return out;
}

std::string fmt_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

using detail::dump_x;
using detail::parse_x;

/// An owned PGresult.
class Result {
 public:
  explicit Result(PGresult* r) : r_(r) {}
  ~Result() { PQclear(r_); }
  Result(Result&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  int rows() const { return PQntuples(r_); }
  bool null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  std::string text(int row, int col) const {
    return stored_text(std::string_view(PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col))));
  }
  double real(int row, int col) const { return std::strtod(PQgetvalue(r_, row, col), nullptr); }
  long long integer(int row, int col) const { return std::strtoll(PQgetvalue(r_, row, col), nullptr, 10); }
  int affected() const { return std::atoi(PQcmdTuples(r_)); }

 private:
  PGresult* r_;
};

using Param = std::optional<std::string>;  // nullopt = SQL NULL

/// PQexec/PQexecParams with a deadline on the server's answer (reconnect_seconds()). A stopped server keeps the
/// connection open, so a blocking call would wait for ever; past the deadline the socket is shut down (the
/// connection is then broken: run() throws ConnectionLost, the next transaction resets it) and nullptr returned.
/// Otherwise the last result, or the first error result, as PQexec returns it.
PGresult* exec_with_deadline(PGconn* conn, const std::string& sql, const std::vector<const char*>& values,
                             bool* timed_out) {
  *timed_out = false;
  const int sent = values.empty() ? PQsendQuery(conn, sql.c_str())
                                  : PQsendQueryParams(conn, sql.c_str(), static_cast<int>(values.size()), nullptr,
                                                      values.data(), nullptr, nullptr, 0);
  if (!sent) return nullptr;
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(reconnect_seconds()));
  // A busy connection waits for input; a call that cannot read (broken socket) returns so PQgetResult reports it.
  const auto wait_for_answer = [&]() -> bool {
    while (PQisBusy(conn)) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        shutdown(PQsocket(conn), SHUT_RDWR);
        *timed_out = true;
        return false;
      }
      pollfd p{PQsocket(conn), POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000))) < 0 && errno != EINTR) return true;
      if (!PQconsumeInput(conn)) return true;
    }
    return true;
  };
  PGresult* kept = nullptr;
  for (;;) {
    if (!wait_for_answer()) {
      PQclear(kept);
      return nullptr;
    }
    PGresult* r = PQgetResult(conn);
    if (!r) break;
    const bool kept_error = kept && PQresultStatus(kept) != PGRES_COMMAND_OK && PQresultStatus(kept) != PGRES_TUPLES_OK &&
                            PQresultStatus(kept) != PGRES_EMPTY_QUERY;
    if (kept_error) {
      PQclear(r);  // PQexec reports the first error of a multi-statement string
    } else {
      PQclear(kept);
      kept = r;
    }
  }
  return kept;
}

Result run(PGconn* conn, const std::string& url, const std::string& sql, const std::vector<Param>& params = {}) {
  // Every text into the database passes here: valid UTF-8 (the server refuses anything else) without NUL
  // (a C string would end there).
  std::vector<std::optional<std::string>> texts;
  texts.reserve(params.size());
  for (const auto& p : params) texts.push_back(p ? std::optional<std::string>(stored_text(*p)) : std::nullopt);
  std::vector<const char*> values;
  for (const auto& p : texts) values.push_back(p ? p->c_str() : nullptr);
  bool timed_out = false;
  PGresult* r = exec_with_deadline(conn, sql, values, &timed_out);
  if (timed_out)
    throw ConnectionLost("postgresql storage '" + PostgresStorage::redact(url) + "': the server did not answer for " +
                         std::to_string(static_cast<int>(reconnect_seconds())) + " s");
  const auto status = PQresultStatus(r);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    const std::string msg = one_line(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    const std::string sqlstate = state ? state : "";
    PQclear(r);
    const std::string what = "postgresql storage '" + PostgresStorage::redact(url) + "': " + msg;
    // A broken connection, or the server shutting down or still starting (class 08, 57P01..57P03).
    if (PQstatus(conn) != CONNECTION_OK || sqlstate.rfind("08", 0) == 0 || sqlstate == "57P01" ||
        sqlstate == "57P02" || sqlstate == "57P03")
      throw ConnectionLost(what);
    throw std::runtime_error(what);
  }
  return Result(r);
}

/// A trial row; a row kbo cannot have written (a point that is no list of numbers, an unknown state) is
/// InputError naming the trial (throw_damaged_trial).
Trial trial_from_row(const Result& r, int row, const std::string& url) {
  // Columns: number, x, value, state, reason, worker, created_at, finished_at, heartbeat_at, retry_of, lease_until, constraints, info, objective_values, sem
  Trial t;
  t.id = static_cast<int>(r.integer(row, 0));
  try {
    t.x = parse_x(r.text(row, 1));
    t.state = parse_trial_state(r.text(row, 3));
    if (!r.null(row, 11)) t.constraints = constraints_from_text(r.text(row, 11));
  } catch (const std::exception& e) {
    throw_damaged_trial(PostgresStorage::redact(url), t.id, e.what());
  }
  if (!r.null(row, 2)) t.value = r.real(row, 2);
  t.reason = r.text(row, 4);
  t.worker = r.text(row, 5);
  t.created_at = r.real(row, 6);
  t.finished_at = r.real(row, 7);
  t.heartbeat_at = r.null(row, 8) ? 0.0 : r.real(row, 8);
  t.retry_of = r.null(row, 9) ? -1 : static_cast<int>(r.integer(row, 9));
  t.lease_until = r.null(row, 10) ? 0.0 : r.real(row, 10);
  if (!r.null(row, 12)) t.info = parse_trial_info(r.text(row, 12));
  if (!r.null(row, 13)) t.values = values_from_text(r.text(row, 13));
  if (!r.null(row, 14)) t.sem = r.real(row, 14);
  return t;
}

constexpr const char* kPostgresTrialColumns =
    "number, x, value, state, reason, worker, created_at, finished_at, heartbeat_at, retry_of, lease_until, constraints, info, objective_values, sem";

void ignore_notice(void*, const char*) {}  // "relation already exists, skipping" and the like

/// One reconnection attempt for a connection that broke; ConnectionLost if the server is still away.
void reconnect_if_broken(PGconn* conn, const std::string& url) {
  if (PQstatus(conn) == CONNECTION_OK) return;
  PQreset(conn);
  if (PQstatus(conn) != CONNECTION_OK)
    throw ConnectionLost("postgresql storage '" + PostgresStorage::redact(url) +
                         "': cannot reconnect: " + one_line(PQerrorMessage(conn)));
}

}  // namespace

/// BEGIN … COMMIT; rolled back if destroyed before commit(). Resets a broken connection first.
class PostgresStorage::Txn {
 public:
  explicit Txn(PostgresStorage& s) : s_(s) {
    reconnect_if_broken(s_.conn_, s_.url_);
    run(s_.conn_, s_.url_, s_.read_only_ ? "BEGIN READ ONLY" : "BEGIN");
  }
  ~Txn() {
    bool timed_out = false;
    if (!done_) PQclear(exec_with_deadline(s_.conn_, "ROLLBACK", {}, &timed_out));
  }
  void commit() {
    run(s_.conn_, s_.url_, "COMMIT");
    done_ = true;
  }

 private:
  PostgresStorage& s_;
  bool done_ = false;
};

std::string PostgresStorage::redact(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const auto start = scheme + 3;
  const auto slash = url.find('/', start);
  const auto at = url.rfind('@', slash == std::string::npos ? std::string::npos : slash);
  if (at == std::string::npos || at < start) return url;
  const auto colon = url.find(':', start);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

PostgresStorage::PostgresStorage(const std::string& url, StorageAccess access)
    : url_(url), read_only_(access == StorageAccess::ReadOnly) {
  const std::string shown = redact(url);
  const std::string allowed = " (allowed: " + storage_url_forms() + ")";
  // connect_timeout before dbname: a connect_timeout inside the URL (expanded from dbname) overrides it.
  // TCP keepalives notice a server host that vanished (a network partition) within about 25 s; a server
  // process that is stopped but whose host answers is noticed by run()'s deadline instead.
  const char* keys[] = {"connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
                        "dbname", nullptr};
  const char* values[] = {"10", "1", "10", "5", "3", url.c_str(), nullptr};
  conn_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  if (!conn_) throw InputError("storage '" + shown + "' cannot be opened: out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string msg = one_line(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw InputError("storage '" + shown + "' is unreachable (PostgreSQL: " + msg + ")" + allowed);
  }
  PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
  try {
    Txn txn(*this);
    if (read_only_) {
      const Result meta = run(conn_, url_, "SELECT to_regclass('kbo_meta') IS NOT NULL");
      if (meta.text(0, 0) != "t") throw InputError("storage '" + shown + "' holds no kbo studies (no kbo_meta table)");
      const Result v = run(conn_, url_, "SELECT value FROM kbo_meta WHERE key = 'schema_version'");
      const int version = v.rows() > 0 ? std::atoi(v.text(0, 0).c_str()) : 0;
      check_schema_version(version, shown);
      if (version < kSchemaVersion)
        throw InputError("storage '" + shown + "' has the older kbo schema version " + std::to_string(version) +
                         ": run a writing command on it once (kbo optimize, ask or tell) to migrate it");
      txn.commit();
      return;
    }
    run(conn_, url_, std::string("SELECT pg_advisory_xact_lock(") + kSchemaLockKey + ")");
    run(conn_, url_, "CREATE TABLE IF NOT EXISTS kbo_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const Result v = run(conn_, url_, "SELECT value FROM kbo_meta WHERE key = 'schema_version'");
    if (v.rows() == 0) {
      run(conn_, url_, kPostgresSchema);
    } else {
      const int version = std::atoi(v.text(0, 0).c_str());
      check_schema_version(version, shown);
      for (int k = version; k < kSchemaVersion; ++k) run(conn_, url_, kPostgresMigrations[k - 1]);
    }
    txn.commit();
  } catch (const InputError&) {
    PQfinish(conn_);
    conn_ = nullptr;
    throw;
  } catch (const std::exception& e) {
    PQfinish(conn_);
    conn_ = nullptr;
    throw InputError("storage '" + shown + "' is not a usable kbo PostgreSQL database: " + e.what());
  }
}

PostgresStorage::~PostgresStorage() {
  if (conn_) PQfinish(conn_);
}

std::string PostgresStorage::lock_study(const std::string& name) {
  const Result r = run(conn_, url_, "SELECT id FROM studies WHERE name = $1 FOR UPDATE", {name});
  if (r.rows() == 0) throw InputError("no study named '" + name + "' in " + redact(url_));
  return r.text(0, 0);
}

std::vector<Trial> PostgresStorage::read_trials(const std::string& sid) {
  const Result r = run(conn_, url_,
                       std::string("SELECT ") + kPostgresTrialColumns + " FROM trials WHERE study_id = $1 ORDER BY number",
                       {sid});
  std::vector<Trial> out;
  out.reserve(static_cast<std::size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i) out.push_back(trial_from_row(r, i, url_));
  return out;
}

std::optional<StudyRecord> PostgresStorage::load_study_unlocked(const std::string& name) {
  const Result r = run(conn_, url_,
                       "SELECT name, direction, space, config, created_at, budget, directions FROM studies WHERE name = $1",
                       {name});
  if (r.rows() == 0) return std::nullopt;
  StudyRecord s;
  s.name = r.text(0, 0);
  s.minimize = r.text(0, 1) == "minimize";
  s.space = nlohmann::json::parse(r.text(0, 2));
  s.config = nlohmann::json::parse(r.text(0, 3));
  s.created_at = r.real(0, 4);
  if (!r.null(0, 5)) s.budget = static_cast<int>(r.integer(0, 5));
  if (!r.null(0, 6)) s.directions = directions_from_text(r.text(0, 6));
  return s;
}

StudyRecord PostgresStorage::create_study_if_absent(const StudyRecord& wanted) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  StudyRecord r = wanted;
  if (r.created_at == 0.0) r.created_at = unix_now();
  // ON CONFLICT: two workers creating the same study at once both succeed; the first one wins.
  run(conn_, url_,
      "INSERT INTO studies(name, direction, space, config, created_at, budget, directions) "
      "VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO NOTHING",
      {r.name, std::string(r.minimize ? "minimize" : "maximize"), r.space.dump(), r.config.dump(),
       fmt_double(r.created_at), r.budget ? Param(std::to_string(*r.budget)) : Param(),
       r.directions.empty() ? Param() : Param(directions_text(r.directions))});
  auto stored = load_study_unlocked(r.name);
  txn.commit();
  return *stored;
}

std::optional<StudyRecord> PostgresStorage::load_study(const std::string& name) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  auto r = load_study_unlocked(name);
  txn.commit();
  return r;
}

std::vector<std::string> PostgresStorage::study_names() {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const Result r = run(conn_, url_, "SELECT name FROM studies ORDER BY name");
  std::vector<std::string> names;
  for (int i = 0; i < r.rows(); ++i) names.push_back(r.text(i, 0));
  txn.commit();
  return names;
}

void PostgresStorage::update_study_config(const std::string& name, const nlohmann::json& config) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const std::string sid = lock_study(name);
  run(conn_, url_, "UPDATE studies SET config = $1 WHERE id = $2", {config.dump(), sid});
  txn.commit();
}

void PostgresStorage::update_study_budget(const std::string& name, std::optional<int> budget) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const std::string sid = lock_study(name);
  run(conn_, url_, "UPDATE studies SET budget = $1 WHERE id = $2",
      {budget ? Param(std::to_string(*budget)) : Param(), sid});
  txn.commit();
}

Trial PostgresStorage::ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const std::string sid = lock_study(study);  // held while the strategy computes: askers are serialised
  const std::vector<Trial> snapshot = read_trials(sid);
  Trial t;
  t.x = suggest(snapshot);
  t.id = static_cast<int>(snapshot.size());
  t.worker = worker;
  t.created_at = unix_now();
  run(conn_, url_,
      "INSERT INTO trials(study_id, number, x, value, state, worker, created_at) "
      "VALUES($1, $2, $3, NULL, 'pending', $4, $5)",
      {sid, std::to_string(t.id), dump_x(t.x), worker, fmt_double(t.created_at)});
  txn.commit();
  return t;
}

std::optional<Trial> PostgresStorage::claim_pending(const std::string& study, const TrialPredicate& claimable,
                                                    const std::string& worker, bool running) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const std::string sid = lock_study(study);
  for (Trial t : read_trials(sid)) {
    if (t.state != TrialState::Pending || !claimable(t)) continue;
    t.worker = worker;
    t.heartbeat_at = running ? unix_now() : 0.0;
    run(conn_, url_, "UPDATE trials SET worker = $1, heartbeat_at = $2 WHERE study_id = $3 AND number = $4",
        {worker, fmt_double(t.heartbeat_at), sid, std::to_string(t.id)});
    txn.commit();
    return t;
  }
  txn.commit();
  return std::nullopt;
}

Trial PostgresStorage::finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
                              const std::string& reason, const Teller& by, const std::vector<double>& constraints,
                              const std::vector<double>& values, std::optional<double> sem) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const std::string sid = lock_study(study);
  const Result q = run(conn_, url_,
                       std::string("SELECT ") + kPostgresTrialColumns + " FROM trials WHERE study_id = $1 AND number = $2",
                       {sid, std::to_string(trial_id)});
  std::optional<Trial> found;
  int n_trials = 0;
  if (q.rows() > 0) {
    found = trial_from_row(q, 0, url_);
  } else {
    n_trials = static_cast<int>(run(conn_, url_, "SELECT COUNT(*) FROM trials WHERE study_id = $1", {sid}).integer(0, 0));
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
  run(conn_, url_,
      "UPDATE trials SET state = $1, value = $2, reason = $3, finished_at = $4, constraints = $7, "
      "objective_values = $8, sem = $9 WHERE study_id = $5 AND number = $6",
      {to_string(state), t.value ? Param(fmt_double(*t.value)) : Param(), t.reason, fmt_double(t.finished_at), sid,
       std::to_string(trial_id), t.constraints.empty() ? Param() : Param(constraints_text(t.constraints)),
       t.values.empty() ? Param() : Param(values_text(t.values)), t.sem ? Param(fmt_double(*t.sem)) : Param()});
  txn.commit();  // durable (synchronous_commit on by default) before the caller reports the result
  return t;
}

std::optional<Trial> PostgresStorage::first_complete(const std::string& sid) {
  const Result q = run(conn_, url_,
                       std::string("SELECT ") + kPostgresTrialColumns +
                           " FROM trials WHERE study_id = $1 AND state = 'complete' ORDER BY number LIMIT 1",
                       {sid});
  if (q.rows() == 0) return std::nullopt;
  return trial_from_row(q, 0, url_);
}

std::vector<Trial> PostgresStorage::add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                                  const std::string& worker) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);  // one commit for all rows: an import is all or nothing
  const std::string sid = lock_study(study);
  std::optional<Trial> first = first_complete(sid);
  int next = static_cast<int>(run(conn_, url_, "SELECT COUNT(*) FROM trials WHERE study_id = $1", {sid}).integer(0, 0));
  std::vector<Trial> added;
  for (const EvaluatedPoint& r : rows) {
    check_constraint_count(first, r.constraints);
    Trial t = completed_trial(r, next++, worker, unix_now());
    run(conn_, url_,
        "INSERT INTO trials(study_id, number, x, value, state, worker, created_at, finished_at, constraints, "
        "objective_values, sem) VALUES($1, $2, $3, $4, 'complete', $5, $6, $7, $8, $9, $10)",
        {sid, std::to_string(t.id), dump_x(t.x), fmt_double(*t.value), worker, fmt_double(t.created_at),
         fmt_double(t.finished_at), t.constraints.empty() ? Param() : Param(constraints_text(t.constraints)),
         t.values.empty() ? Param() : Param(values_text(t.values)), t.sem ? Param(fmt_double(*t.sem)) : Param()});
    if (!first) first = t;
    added.push_back(std::move(t));
  }
  txn.commit();  // durable before the caller reports the rows
  return added;
}

bool PostgresStorage::set_lease(const std::string& study, int trial_id, double lease_until) {
  std::lock_guard lock(mutex_);
  if (PQstatus(conn_) != CONNECTION_OK) PQreset(conn_);
  const Result r = run(conn_, url_,
                       "UPDATE trials SET lease_until = $1 WHERE study_id = (SELECT id FROM studies WHERE name = $2) "
                       "AND number = $3 AND state = 'pending'",
                       {fmt_double(lease_until), study, std::to_string(trial_id)});
  return r.affected() == 1;
}

bool PostgresStorage::set_info(const std::string& study, int trial_id, const nlohmann::json& info) {
  std::lock_guard lock(mutex_);
  if (PQstatus(conn_) != CONNECTION_OK) PQreset(conn_);
  const Result r = run(conn_, url_, "UPDATE trials SET info = $1 WHERE study_id = (SELECT id FROM studies WHERE name = $2) AND number = $3",
                       {info.dump(), study, std::to_string(trial_id)});
  return r.affected() == 1;
}

bool PostgresStorage::release(const std::string& study, int trial_id, const std::string& worker) {
  std::lock_guard lock(mutex_);
  if (PQstatus(conn_) != CONNECTION_OK) PQreset(conn_);
  const Result r = run(conn_, url_,
                       "UPDATE trials SET worker = '', heartbeat_at = NULL, lease_until = NULL "
                       "WHERE study_id = (SELECT id FROM studies WHERE name = $1) AND number = $2 "
                       "AND state = 'pending' AND worker = $3",
                       {study, std::to_string(trial_id), worker});
  return r.affected() == 1;
}

bool PostgresStorage::heartbeat(const std::string& study, int trial_id, const std::string& worker) {
  std::lock_guard lock(mutex_);
  reconnect_if_broken(conn_, url_);
  // Autocommit, one statement, no study lock: it only waits for a writer of this very trial row.
  const Result r = run(conn_, url_,
                       "UPDATE trials SET heartbeat_at = $1 WHERE study_id = (SELECT id FROM studies WHERE name = $2) "
                       "AND number = $3 AND state = 'pending' AND worker = $4",
                       {fmt_double(unix_now()), study, std::to_string(trial_id), worker});
  return r.affected() == 1;
}

std::vector<Trial> PostgresStorage::reap_lost(const std::string& study, double stale_after, double now,
                                              const TrialPredicate& lost) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const std::string sid = lock_study(study);
  const auto ts = read_trials(sid);
  std::vector<Trial> retries;
  int next_id = static_cast<int>(ts.size());
  for (const Trial& t : ts) {
    const char* why = given_up_reason(t, stale_after, now, lost);
    if (!why) continue;
    run(conn_, url_,
        "UPDATE trials SET state = 'failed', reason = $1, finished_at = $2 WHERE study_id = $3 AND number = $4",
        {std::string(why), fmt_double(now), sid, std::to_string(t.id)});
    Trial r;
    r.id = next_id++;
    r.x = t.x;
    r.created_at = now;
    r.retry_of = t.id;
    run(conn_, url_,
        "INSERT INTO trials(study_id, number, x, value, state, worker, created_at, retry_of) "
        "VALUES($1, $2, $3, NULL, 'pending', '', $4, $5)",
        {sid, std::to_string(r.id), dump_x(r.x), fmt_double(now), std::to_string(t.id)});
    retries.push_back(std::move(r));
  }
  txn.commit();
  return retries;
}

std::vector<Trial> PostgresStorage::trials(const std::string& study) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const Result s = run(conn_, url_, "SELECT id FROM studies WHERE name = $1", {study});
  if (s.rows() == 0) throw InputError("no study named '" + study + "' in " + redact(url_));
  auto out = read_trials(s.text(0, 0));  // one statement: one consistent snapshot of the trials
  txn.commit();
  return out;
}

nlohmann::json PostgresStorage::load_model_state(const std::string& study) {
  std::lock_guard lock(mutex_);
  Txn txn(*this);
  const Result r = run(conn_, url_,
                       "SELECT state FROM model_state WHERE study_id = (SELECT id FROM studies WHERE name = $1)",
                       {study});
  txn.commit();
  if (r.rows() == 0) return nullptr;
  return nlohmann::json::parse(r.text(0, 0));
}

void PostgresStorage::save_model_state(const std::string& study, const nlohmann::json& state) {
  std::lock_guard lock(mutex_);
  reconnect_if_broken(conn_, url_);
  // Autocommit, one statement, no study lock: concurrent savers only wait for each other's row.
  const Result s = run(conn_, url_, "SELECT id FROM studies WHERE name = $1", {study});
  if (s.rows() == 0) throw InputError("no study named '" + study + "' in " + redact(url_));
  run(conn_, url_,
      "INSERT INTO model_state(study_id, state, updated_at) VALUES($1, $2, $3) "
      "ON CONFLICT (study_id) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at",
      {s.text(0, 0), state.dump(), fmt_double(unix_now())});
}

}  // namespace kbo
