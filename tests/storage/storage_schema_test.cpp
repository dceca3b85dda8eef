// Schema versions: a database written by an older kbo (version 1) is migrated in place on open; a
// database from a newer kbo is refused with a message asking for a newer kbo (SQLite and PostgreSQL).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "kbo/core/error.hpp"
#include "kbo/storage/postgres.hpp"
#include "kbo/storage/sqlite.hpp"
#include "kbo/study/study.hpp"
#include "postgres_server.hpp"

namespace fs = std::filesystem;
using namespace kbo;

namespace {

// The schema of kbo before workers (version 1), as the first SQLite release wrote it.
constexpr const char* kV1 = R"sql(
CREATE TABLE kbo_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO kbo_meta(key, value) VALUES('schema_version', '1');
CREATE TABLE studies(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, direction TEXT NOT NULL,
  space TEXT NOT NULL, config TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE trials(study_id INTEGER NOT NULL REFERENCES studies(id), number INTEGER NOT NULL, x TEXT NOT NULL,
  value REAL, state TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', worker TEXT NOT NULL DEFAULT '',
  created_at REAL NOT NULL, finished_at REAL NOT NULL DEFAULT 0, PRIMARY KEY(study_id, number));
INSERT INTO studies VALUES(1, 'old', 'minimize', '{"type":"box","lower":[0.0],"upper":[1.0]}', '{}', 1.0);
INSERT INTO trials VALUES(1, 0, '[0.25]', 3.5, 'complete', '', 'optimize@h:1', 2.0, 3.0);
INSERT INTO trials VALUES(1, 1, '[0.75]', NULL, 'pending', '', 'optimize@h:1', 4.0, 0);
)sql";

void sqlite_exec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  const std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << msg;
}

std::string sqlite_version(const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT value FROM kbo_meta WHERE key = 'schema_version'", -1, &st, nullptr);
  std::string v = sqlite3_step(st) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0)) : "";
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

void expect_migrated_v1(Storage& s) {
  const Study old = Study::open(std::shared_ptr<Storage>(&s, [](Storage*) {}), "old");
  EXPECT_FALSE(old.record().budget.has_value());
  const auto ts = old.trials();
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_EQ(*ts[0].value, 3.5);
  EXPECT_EQ(ts[0].x(0), 0.25);
  EXPECT_EQ(ts[1].state, TrialState::Pending);
  EXPECT_EQ(ts[1].heartbeat_at, 0.0);  // old pending trials have no heartbeat: never reaped
  EXPECT_EQ(ts[1].retry_of, -1);
  // The new columns work after the migration.
  s.update_study_budget("old", 10);
  EXPECT_EQ(s.load_study("old")->budget, 10);
  EXPECT_TRUE(s.heartbeat("old", 1, "optimize@h:1"));
  EXPECT_FALSE(ts[0].sem.has_value());  // trials from before standard errors have none
  EXPECT_EQ(*s.finish("old", 1, TrialState::Complete, 1.25, "", Teller{"optimize@h:1"}, {}, {}, 0.5).sem, 0.5);
  EXPECT_EQ(*s.trials("old")[1].sem, 0.5);
}

struct TempFile {
  fs::path dir;
  TempFile() {
    dir = fs::temp_directory_path() / ("kbo_schema_test_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempFile() { fs::remove_all(dir); }
  std::string db() const { return (dir / "s.db").string(); }
};

}  // namespace

TEST(StorageSchema, SqliteVersion1IsMigratedInPlace) {
  TempFile f;
  sqlite_exec(f.db(), kV1);
  {
    SqliteStorage s(f.db());
    expect_migrated_v1(s);
  }
  EXPECT_EQ(sqlite_version(f.db()), std::to_string(kSchemaVersion));
  SqliteStorage again(f.db());  // reopening a current schema is a no-op
  EXPECT_EQ(again.load_study("old")->budget, 10);
}

TEST(StorageSchema, SqliteNewerVersionIsRefusedWithAClearMessage) {
  TempFile f;
  { SqliteStorage s(f.db()); }
  EXPECT_EQ(sqlite_version(f.db()), std::to_string(kSchemaVersion));
  sqlite_exec(f.db(), "UPDATE kbo_meta SET value = '99' WHERE key = 'schema_version'");
  try {
    SqliteStorage s(f.db());
    FAIL() << "a newer schema was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("schema version 99"), std::string::npos) << msg;
    EXPECT_NE(msg.find("newer kbo"), std::string::npos) << msg;
    EXPECT_NE(msg.find(f.db()), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  EXPECT_EQ(sqlite_version(f.db()), "99");  // untouched
}

TEST(StorageSchema, PostgresVersion1IsMigratedAndNewerRefused) {
  KBO_REQUIRE_POSTGRES(server);
  const std::string url = server->new_database("schema");
  const std::string db = url.substr(std::string("postgresql:///").size(), url.find('?') - std::string("postgresql:///").size());
  // kV1 is plain SQL that PostgreSQL accepts too (REAL is float4 there: the values are exact in it).
  server->exec(db, kV1);
  {
    PostgresStorage s(url);
    expect_migrated_v1(s);
  }
  server->exec(db, "UPDATE kbo_meta SET value = '" + std::to_string(kSchemaVersion + 1) + "'");
  try {
    PostgresStorage s(url);
    FAIL() << "a newer schema was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("newer kbo"), std::string::npos) << e.what();
  }
}
