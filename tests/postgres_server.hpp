#pragma once
// A throw-away PostgreSQL cluster for tests: initdb in a fresh temporary directory (/dev/shm, else /tmp), a free TCP port on
// 127.0.0.1 plus a unix socket in that directory, started with pg_ctl and removed (stopped + deleted)
// when the test process exits. PostgreSQL refuses to run as root, so under root the server commands
// run as the `postgres` system user (runuser) and the directory is handed to that user.
//
// Use KBO_REQUIRE_POSTGRES(server) at the top of a test: when the server binaries are missing the test
// is reported as SKIPPED (ctest counts it as skipped, never passed) with the reason; when they are
// present but the cluster cannot start, the test FAILS with the server's log.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libpq-fe.h>

#include <algorithm>
#include <csignal>
#include <vector>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

namespace kbo::test {

class PostgresServer {
 public:
  /// The shared server of this test process (started on first use). nullptr with `why` set when it is
  /// unavailable; `missing_binaries` tells a skip (not installed) from a failure (installed, broken).
  static PostgresServer* get(std::string& why, bool& missing_binaries) {
    static std::unique_ptr<PostgresServer> server;
    static std::string error;
    static bool missing = false;
    static bool tried = false;
    if (!tried) {
      tried = true;
      try {
        server.reset(new PostgresServer());
      } catch (const MissingBinaries& e) {
        missing = true;
        error = e.what();
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    why = error;
    missing_binaries = missing;
    return server.get();
  }

  /// Creates a fresh database and returns its unix-socket URL (postgresql:///DB?host=DIR&port=P&user=kbo).
  std::string new_database(const std::string& prefix) {
    static int counter = 0;
    const std::string name = prefix + "_" + std::to_string(++counter);
    exec_admin("CREATE DATABASE " + name);
    return socket_url(name);
  }
  std::string socket_url(const std::string& db) const {
    return "postgresql:///" + db + "?host=" + dir_.string() + "&port=" + std::to_string(port_) + "&user=kbo";
  }
  std::string tcp_url(const std::string& db) const {
    return "postgresql://kbo@127.0.0.1:" + std::to_string(port_) + "/" + db;
  }
  /// Runs one SQL statement on database `db` (test set-up, e.g. faking an old or newer schema).
  void exec(const std::string& db, const std::string& sql) const {
    PGconn* c = PQconnectdb(socket_url(db).c_str());
    std::string err;
    if (PQstatus(c) != CONNECTION_OK) {
      err = PQerrorMessage(c);
    } else {
      PGresult* r = PQexec(c, sql.c_str());
      if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) err = PQresultErrorMessage(r);
      PQclear(r);
    }
    PQfinish(c);
    if (!err.empty()) throw std::runtime_error("test postgres: " + sql + ": " + err);
  }
  int port() const { return port_; }
  /// Stops the server (fast shutdown: every client connection is cut), waits `down_seconds`, and starts it
  /// again on the same port and socket — a server restart as clients see it.
  void restart(double down_seconds) const {
    stop();
    std::system(("sleep " + std::to_string(down_seconds)).c_str());
    start();
  }
  /// Sends `sig` to the server's postmaster and every process it started (its backends): SIGSTOP freezes the
  /// server as a hung host looks to clients (connections stay open, nothing answers), SIGCONT thaws it.
  void signal_processes(int sig) const {
    std::ifstream pidfile(dir_ / "data" / "postmaster.pid");
    long postmaster = 0;
    pidfile >> postmaster;
    if (postmaster <= 0) throw std::runtime_error("the test PostgreSQL server has no postmaster.pid");
    std::vector<long> pids{postmaster};
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::ifstream stat(e.path() / "stat");
      std::string line;
      std::getline(stat, line);
      const auto close = line.rfind(')');  // "pid (comm) state ppid …"; comm may hold spaces
      if (close == std::string::npos) continue;
      std::istringstream rest(line.substr(close + 1));
      std::string state;
      long ppid = 0;
      rest >> state >> ppid;
      if (ppid == postmaster) pids.push_back(std::stol(name));
    }
    for (long pid : pids) ::kill(static_cast<pid_t>(pid), sig);
  }
  /// Fast shutdown: every client connection is cut; start() brings it back on the same port and socket.
  void stop() const {
    if (run_as_server("'" + bin_ + "/pg_ctl' -D '" + (dir_ / "data").string() + "' -m fast -w stop > /dev/null 2>&1") != 0)
      throw std::runtime_error("the test PostgreSQL server did not stop");
  }
  void start() const {
    const std::string data = (dir_ / "data").string(), log = (dir_ / "server.log").string();
    // fsync off: the tests kill workers and stop the server cleanly, so committed rows survive without it.
    const std::string opts = "-k " + dir_.string() + " -p " + std::to_string(port_) +
                             " -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60";
    if (run_as_server("'" + bin_ + "/pg_ctl' -D '" + data + "' -l '" + log + "' -w -t 60 -o '" + opts + "' start > /dev/null 2>&1") != 0)
      throw std::runtime_error("the test PostgreSQL server did not start: " + slurp(log));
  }  const std::filesystem::path& dir() const { return dir_; }

  ~PostgresServer() {
    run_as_server("'" + bin_ + "/pg_ctl' -D '" + (dir_ / "data").string() + "' -m immediate -w stop > /dev/null 2>&1");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

 private:
  struct MissingBinaries : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  PostgresServer() {
    bin_ = find_bin();
    // tmpfs when there is one: initdb writes ~40 MB, which on a busy disk costs seconds per test.
    char tmpl[] = "/dev/shm/kbo_pg_XXXXXX";
    char fallback[] = "/tmp/kbo_pg_XXXXXX";
    if (!mkdtemp(tmpl)) {
      if (!mkdtemp(fallback)) throw std::runtime_error("mkdtemp failed");
      std::copy(fallback, fallback + sizeof(fallback), tmpl);
    }
    dir_ = tmpl;
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("postgres");
      if (!pw) throw std::runtime_error("running as root and there is no 'postgres' user to run the server as");
      if (chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) throw std::runtime_error("chown of " + dir_.string() + " failed");
      as_user_ = "runuser -u postgres -- ";
    }
    const std::string data = (dir_ / "data").string();
    if (run_as_server("'" + bin_ + "/initdb' -D '" + data + "' -A trust -U kbo -E UTF8 --no-sync > '" +
                      (dir_ / "initdb.log").string() + "' 2>&1") != 0)
      throw std::runtime_error("initdb failed: " + slurp(dir_ / "initdb.log"));
    port_ = free_port();
    start();
  }



  static std::string find_bin() {
    if (const char* env = std::getenv("KBO_PG_BIN")) {
      if (!std::filesystem::exists(std::filesystem::path(env) / "postgres") ||
          !std::filesystem::exists(std::filesystem::path(env) / "initdb"))
        throw MissingBinaries(std::string("KBO_PG_BIN=") + env + " holds no postgres/initdb binaries");
      return env;
    }
    std::string best;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
      const auto bin = e.path() / "bin";
      if (std::filesystem::exists(bin / "postgres") && std::filesystem::exists(bin / "initdb") &&
          (best.empty() || std::stoi(e.path().filename().string()) > std::stoi(std::filesystem::path(best).parent_path().filename().string())))
        best = bin.string();
    }
    if (best.empty())
      throw MissingBinaries("PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin (install the Debian "
                            "package 'postgresql', or set KBO_PG_BIN)");
    return best;
  }

  static int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof(addr);
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("cannot find a free TCP port");
    const int port = ntohs(addr.sin_port);
    close(fd);
    return port;
  }

  static std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    return s.size() > 2000 ? s.substr(s.size() - 2000) : s;
  }

  int run_as_server(const std::string& cmd) const { return std::system((as_user_ + "sh -c \"" + cmd + "\"").c_str()); }

  void exec_admin(const std::string& sql) const { exec("postgres", sql); }

  std::string bin_, as_user_;
  std::filesystem::path dir_;
  int port_ = 0;
};

}  // namespace kbo::test

/// Declares `PostgresServer* NAME` for this test; fails with the reason when the server binaries are missing
/// (scripts/install-deps.sh installs Debian's postgresql) or the cluster cannot start.
#define KBO_REQUIRE_POSTGRES(NAME)                                                   \
  std::string NAME##_why;                                                           \
  bool NAME##_missing = false;                                                      \
  ::kbo::test::PostgresServer* NAME = ::kbo::test::PostgresServer::get(NAME##_why, NAME##_missing); \
  if (!NAME && NAME##_missing) FAIL() << NAME##_why << " (install Debian's postgresql: scripts/install-deps.sh)"; \
  ASSERT_NE(NAME, nullptr) << NAME##_why
