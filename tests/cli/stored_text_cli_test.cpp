// What enters a study from outside, run the way a user runs kbo: an objective's stderr with bytes that are not
// UTF-8 (a Latin-1 "ü", printf '\374') on SQLite and PostgreSQL (with --workers 2), a study name with a NUL
// byte, escape sequences in names and reasons shown by `kbo show`, values that are not whole numbers, a long
// JSON value line, and storage rows changed outside kbo (text in the value column, another dimension).
#include <gtest/gtest.h>

#include <sqlite3.h>

#include "cli_support.hpp"
#include "kbo/storage/storage.hpp"
#include "postgres_server.hpp"

using namespace kbo::test;

namespace {

std::string write_text_script(const TempDir& dir, const std::string& name, const std::string& body) {
  const std::string path = dir / name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

void tamper_sqlite(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* msg = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
  const std::string err = msg ? msg : "";
  sqlite3_free(msg);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << err;
}

/// Trials below x0 = 0.5 fail with a Latin-1 byte (0xFC) and an escape sequence on stderr; the others succeed,
/// also writing the byte to stderr.
constexpr const char* kLatin1Objective =
    "read l\n"
    "x=$(echo \"$l\" | sed 's/.*\\[\\([^],]*\\).*/\\1/')\n"
    "printf 'M\\374ller \\033[31mred\\n' >&2\n"
    "if awk \"BEGIN{exit !($x < 0.5)}\"; then exit 3; fi\n"
    "echo \"$x\"\n";

void expect_text_survives(const std::string& storage, const TempDir& dir, int workers) {
  const std::string objective = write_text_script(dir, "latin1.sh", kLatin1Objective);
  const int budget = 12;
  const CmdResult run = run_kbo("optimize --storage " + quote(storage) + " --study s --objective " + quote(objective) +
                                    " --bounds 0:1 --init 4 --iters " + std::to_string(budget - 4) +
                                    " --strategy random --fail-fast 0 --json --workers " + std::to_string(workers),
                                dir);
  ASSERT_EQ(run.code, 0) << run.err;
  const nlohmann::json j = run.json();  // `kbo optimize --json` parses
  EXPECT_EQ(j["n_complete"].get<int>() + j["n_failed"].get<int>(), budget) << run.out;
  EXPECT_EQ(j["n_pending"].get<int>(), 0);
  int failed = 0;
  for (const auto& t : j["trials"]) {
    if (t["state"] != "failed") continue;
    ++failed;
    const std::string reason = t["reason"].get<std::string>();
    EXPECT_NE(reason.find("M\xEF\xBF\xBDller"), std::string::npos) << "0xFC is stored as U+FFFD: " << reason;
  }
  EXPECT_GT(failed, 0) << "the random points include some below 0.5";
  const CmdResult show = run_kbo("show --storage " + quote(storage) + " --study s --json", dir);
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_EQ(show.json()["n_trials"], j["n_trials"]);
  // The table escapes the stored escape sequence for the terminal.
  const CmdResult table = run_kbo("show --storage " + quote(storage) + " --study s", dir);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_EQ(table.out.find('\x1b'), std::string::npos);
  EXPECT_NE(table.out.find("\\x1b[31mred"), std::string::npos) << table.out;
}

}  // namespace

TEST(StoredTextCli, ABadByteInAnObjectivesStderrIsReplacedOnSqlite) {
  TempDir dir("latin1_sqlite");
  expect_text_survives("sqlite:" + (dir / "s.db"), dir, 1);
}

TEST(StoredTextCli, ABadByteInAnObjectivesStderrIsReplacedOnPostgresWithTwoWorkers) {
  KBO_REQUIRE_POSTGRES(server);
  TempDir dir("latin1_pg");
  expect_text_survives(server->new_database("latin1"), dir, 2);
}

TEST(StoredTextCli, AStudyNameWithANulByteIsOneLineExit2) {
  TempDir dir("nul_name");
  std::ofstream(dir / "nul.toml") << "problem = \"branin\"\niters = 1\nstorage = \"" << (dir / "s.db")
                                  << "\"\nstudy = \"a\\u0000b\"\n";
  const CmdResult r = run_kbo("optimize --config " + quote(dir / "nul.toml"), dir);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("NUL"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "s.db") && run_kbo("show --storage " + quote(dir / "s.db") + " --study a", dir).code == 0)
      << "no study 'a' (the name cut at its NUL) was created";
}

TEST(StoredTextCli, EscapeSequencesInNamesAndReasonsAreEscapedByShow) {
  TempDir dir("ansi");
  const std::string db = dir / "s.db";
  const std::string name = "$(printf 'evil\\033[2J\\033]0;title\\007')";
  ASSERT_EQ(run_kbo("optimize --problem branin --iters 2 --init 2 --strategy random --storage " + quote(db) +
                        " --study \"" + name + "\"",
                    dir)
                .code,
            0);
  const CmdResult asked = run_kbo("ask --storage " + quote(db) + " --study \"" + name + "\"", dir);
  ASSERT_EQ(asked.code, 0) << asked.err;
  std::string last_line = asked.out.substr(0, asked.out.find_last_not_of('\n') + 1);
  last_line = last_line.substr(last_line.rfind('\n') == std::string::npos ? 0 : last_line.rfind('\n') + 1);
  const int id = nlohmann::json::parse(last_line)["trial"].get<int>();
  ASSERT_EQ(run_kbo("tell --storage " + quote(db) + " --study \"" + name + "\" --trial " + std::to_string(id) +
                        " --failed \"$(printf 'boom\\033[1A\\rforged line')\"",
                    dir)
                .code,
            0);
  const CmdResult show = run_kbo("show --storage " + quote(db) + " --study \"" + name + "\"", dir);
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_EQ(show.out.find('\x1b'), std::string::npos) << show.out;
  EXPECT_EQ(show.out.find('\r'), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("evil\\x1b[2J\\x1b]0;title\\x07"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("boom\\x1b[1A\\x0dforged line"), std::string::npos) << show.out;
  // JSON keeps the text itself (JSON escapes control characters).
  const CmdResult json = run_kbo("show --json --storage " + quote(db) + " --study \"" + name + "\"", dir);
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_EQ(json.json()["study"], "evil\x1b[2J\x1b]0;title\x07");
  // An error naming a stored name is one line without the escape characters.
  const CmdResult missing = run_kbo("show --storage " + quote(db) + " --study nope", dir);
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err.find('\x1b'), std::string::npos) << missing.err;
  EXPECT_EQ(missing.err_lines(), 1) << missing.err;
}

TEST(StoredTextCli, AValueIsTheWholeLineAndALongJsonLineIsRead) {
  TempDir dir("strict_value");
  const std::string db = dir / "s.db";
  // "1.5\0garbage": strtod would stop at the NUL and read 1.5.
  const std::string nul = write_text_script(dir, "nul.sh", "cat > /dev/null\nprintf '1.5\\000garbage\\n'\n");
  CmdResult r = run_kbo("optimize --storage " + quote(db) + " --study nul --objective " + quote(nul) +
                            " --bounds 0:1 --init 1 --iters 0 --fail-fast 0 --json",
                        dir);
  nlohmann::json j = nlohmann::json::parse(run_kbo("show --json --storage " + quote(db) + " --study nul", dir).out);
  ASSERT_EQ(j["trials"].size(), 1u) << r.err;
  EXPECT_EQ(j["trials"][0]["state"], "failed") << j.dump();
  EXPECT_NE(j["trials"][0]["reason"].get<std::string>().find("not a number"), std::string::npos) << j.dump();
  // A valid JSON value line of 3 MB: the value is read.
  const std::string big = write_text_script(
      dir, "big.sh",
      "cat > /dev/null\nprintf '{\"value\": 2.25, \"log\": \"'\nhead -c 3000000 /dev/zero | tr '\\0' x\nprintf '\"}\\n'\n");
  r = run_kbo("optimize --storage " + quote(db) + " --study big --objective " + quote(big) +
                  " --bounds 0:1 --init 1 --iters 0 --json",
              dir);
  ASSERT_EQ(r.code, 0) << r.err.substr(0, 400);
  j = r.json();
  ASSERT_EQ(j["n_complete"], 1) << r.out.substr(0, 400);
  EXPECT_EQ(j["trials"][0]["value"], 2.25);
}

TEST(StoredTextCli, RowsChangedOutsideKboAreReportedAsDamageNamingTheTrial) {
  TempDir dir("damage");
  const std::string db = dir / "s.db";
  ASSERT_EQ(run_kbo("optimize --problem branin --iters 4 --init 4 --strategy random --storage " + quote(db) +
                        " --study d",
                    dir)
                .code,
            0);
  ASSERT_EQ(run_kbo("show --storage " + quote(db) + " --study d", dir).code, 0);
  // A text value (SQLite keeps whatever it is given): never read as 0.0.
  tamper_sqlite(db, "UPDATE trials SET value = 'abc' WHERE number = 1");
  CmdResult r = run_kbo("show --storage " + quote(db) + " --study d", dir);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("damaged: trial 1: value is not a number ('abc')"), std::string::npos) << r.err;
  tamper_sqlite(db, "UPDATE trials SET value = 1.5 WHERE number = 1");
  ASSERT_EQ(run_kbo("show --storage " + quote(db) + " --study d", dir).code, 0);
  // A point of another dimension.
  tamper_sqlite(db, "UPDATE trials SET x = '[0.1, 0.2, 0.3]' WHERE number = 2");
  r = run_kbo("show --storage " + quote(db) + " --study d --json", dir);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.err.find("damaged: trial 2: its point has 3 coordinates; the space of study 'd' has 2"),
            std::string::npos)
      << r.err;
  // A point that is not a list of numbers.
  tamper_sqlite(db, "UPDATE trials SET x = '[0.1, \"y\"]' WHERE number = 2");
  r = run_kbo("show --storage " + quote(db) + " --study d", dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("damaged: trial 2: coordinate 1 of x is not a finite number"), std::string::npos) << r.err;
}
