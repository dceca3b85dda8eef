// PostgreSQL-specific storage behaviour: both URL forms reach the same data, unreachable servers and
// malformed URLs are one-line input errors, passwords are not echoed, values round-trip exactly, and
// concurrent askers on separate connections are serialised by the study row lock.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "kbo/core/error.hpp"
#include "kbo/storage/postgres.hpp"
#include "kbo/study/study.hpp"
#include "postgres_server.hpp"

using namespace kbo;

namespace {
StudyRecord postgres_box_record(const std::string& name) {
  StudyRecord r;
  r.name = name;
  r.space = box_space_json(Box(Vec::Zero(2), Vec::Ones(2)));
  r.config = to_json(StrategyConfig{});
  return r;
}

std::string input_error(const std::string& url) {
  try {
    open_storage(url);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}
}  // namespace

TEST(PostgresStorage, TcpAndSocketUrlsReachTheSameDataAndValuesRoundTripExactly) {
  KBO_REQUIRE_POSTGRES(server);
  const std::string socket_url = server->new_database("forms");
  const std::string db = socket_url.substr(14, socket_url.find('?') - 14);
  auto a = open_storage(socket_url);
  Study study = Study::create_or_open(a, postgres_box_record("s"));
  const Vec x{{0.1 + 1e-17, 1.0 / 3.0}};
  const Trial t = a->ask("s", [&](const std::vector<Trial>&) { return x; }, "w");
  study.tell(t.id, 1.0 / 7.0);
  auto b = open_storage(server->tcp_url(db));
  const auto ts = b->trials("s");
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].x(0), x(0));  // bit-exact
  EXPECT_EQ(ts[0].x(1), x(1));
  EXPECT_EQ(*ts[0].value, 1.0 / 7.0);
  EXPECT_EQ(b->url(), server->tcp_url(db));
}

TEST(PostgresStorage, UnreachableServersAndBadUrlsAreOneLineInputErrors) {
  KBO_REQUIRE_POSTGRES(server);
  // A port nobody listens on (the server's port + 1 is free with overwhelming probability), a socket
  // directory without a server, a database that does not exist, a malformed URI.
  const std::string closed = "postgresql://kbo@127.0.0.1:" + std::to_string(server->port() + 1) + "/x";
  const std::string nosock = "postgresql:///x?host=/nonexistent-kbo-dir";
  const std::string nodb = server->socket_url("no_such_db");
  const std::string bad = "postgresql://[::1";
  for (const std::string& url : {closed, nosock, nodb, bad}) {
    const std::string msg = input_error(url);
    EXPECT_NE(msg.find(url), std::string::npos) << msg;
    EXPECT_NE(msg.find("postgresql://USER@HOST:PORT/DB"), std::string::npos) << msg;
    EXPECT_NE(msg.find("postgresql:///DB?host=/socket/dir"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  EXPECT_NE(input_error("mysql://x").find("allowed: memory, sqlite:PATH, sqlite:///ABSOLUTE/PATH, postgresql://"),
            std::string::npos);
  // Passwords never appear in messages.
  const std::string secret = input_error("postgresql://kbo:s3cret@127.0.0.1:" + std::to_string(server->port() + 1) + "/x");
  EXPECT_EQ(secret.find("s3cret"), std::string::npos) << secret;
  EXPECT_NE(secret.find("kbo:***@127.0.0.1"), std::string::npos) << secret;
}

TEST(PostgresStorage, ConcurrentAskersOnSeparateConnectionsAreSerialised) {
  KBO_REQUIRE_POSTGRES(server);
  const std::string url = server->new_database("concurrent");
  Study::create_or_open(open_storage(url), postgres_box_record("s"));
  constexpr int kThreads = 6, kAsks = 15;
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      auto storage = open_storage(url);  // one connection per "machine"
      for (int i = 0; i < kAsks; ++i)
        storage->ask("s", [](const std::vector<Trial>& seen) { return Vec{{double(seen.size()), 0.0}}; },
                     "t" + std::to_string(t));
    });
  for (auto& th : pool) th.join();
  const auto ts = open_storage(url)->trials("s");
  ASSERT_EQ(ts.size(), static_cast<size_t>(kThreads * kAsks));
  // Serialised read-suggest-insert: trial i saw exactly the i earlier trials.
  for (const Trial& t : ts) EXPECT_EQ(t.x(0), double(t.id));
}

TEST(PostgresStorage, ConcurrentFirstUseCreatesTheSchemaOnce) {
  KBO_REQUIRE_POSTGRES(server);
  const std::string url = server->new_database("race");
  std::vector<std::thread> pool;
  std::atomic<int> errors{0};
  for (int t = 0; t < 6; ++t)
    pool.emplace_back([&] {
      try {
        Study::create_or_open(open_storage(url), postgres_box_record("s"));
      } catch (const std::exception&) {
        ++errors;
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(open_storage(url)->study_names(), std::vector<std::string>{"s"});
}

TEST(PostgresStorage, ReadOnlyCreatesNoSchemaAndReadsWithoutWriting) {
  KBO_REQUIRE_POSTGRES(server);
  const std::string url = server->new_database("readonly");
  try {
    open_storage(url, StorageAccess::ReadOnly);
    FAIL() << "a database without kbo tables opened read-only";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no kbo studies"), std::string::npos) << e.what();
  }
  // Still no kbo table: reading created nothing (a read-write open would have created the schema).
  const std::string db = url.substr(std::string("postgresql:///").size(), url.find('?') - std::string("postgresql:///").size());
  EXPECT_THROW(server->exec(db, "SELECT * FROM kbo_meta"), std::runtime_error);
  Study::create_or_open(open_storage(url), postgres_box_record("s"));
  auto reader = open_storage(url, StorageAccess::ReadOnly);
  EXPECT_EQ(reader->study_names(), std::vector<std::string>{"s"});
  EXPECT_TRUE(reader->trials("s").empty());
  EXPECT_ANY_THROW(reader->ask("s", [](const std::vector<Trial>&) { return Vec::Constant(2, 0.5); }, "w"));
  EXPECT_TRUE(open_storage(url)->trials("s").empty());
}
