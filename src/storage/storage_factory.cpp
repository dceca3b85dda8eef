// Storage URLs → backends, and the schema-version rule shared by the persistent backends.
#include <algorithm>
#include <cctype>
#include <chrono>

#include "kbo/core/error.hpp"
#include "kbo/core/registry.hpp"
#include "kbo/core/suggest.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/storage/postgres.hpp"
#include "kbo/storage/reconnecting.hpp"
#include "kbo/storage/sqlite.hpp"

namespace kbo {

namespace {
constexpr const char* kSqliteForms = "sqlite:PATH, sqlite:///ABSOLUTE/PATH";
}  // namespace

Registry<StorageEntry>& storages() {
  static Registry<StorageEntry> registry("storage scheme");
  return registry;
}

void register_builtin_storages() {
  auto& r = storages();
  r.add("memory", {[](const std::string&, StorageAccess) -> std::shared_ptr<Storage> {
                     return std::make_shared<MemoryStorage>();
                   },
                   "memory", "this process only"});
  r.add("sqlite", {[](const std::string& url, StorageAccess access) -> std::shared_ptr<Storage> {
                     return std::make_shared<SqliteStorage>(url.substr(url.find(':') + 1), access);
                   },
                   kSqliteForms, "an embedded SQLite file (WAL), shared by processes on one machine"});
  StorageEntry postgres{[](const std::string& url, StorageAccess access) -> std::shared_ptr<Storage> {
                          // A server restart mid-run is waited out (kReconnectSeconds) instead of ending the run.
                          return std::make_shared<ReconnectingStorage>(std::make_shared<PostgresStorage>(url, access),
                                                                       reconnect_seconds());
                        },
                        "postgresql://USER@HOST:PORT/DB, postgresql:///DB?host=/socket/dir",
                        "a PostgreSQL database, shared by workers on many machines"};
  r.add("postgresql", postgres);
  r.add_alias("postgres", "postgresql");
}

std::string storage_url_forms() {
  std::string forms;
  for (const auto& name : storages().names()) forms += (forms.empty() ? "" : ", ") + storages().get(name).forms;
  return forms;
}

std::string normalize_storage_url(const std::string& text) {
  const std::string allowed = " (allowed: " + storage_url_forms() + ", or a plain file path such as study.db)";
  if (text == "memory") return text;
  // A scheme is letters, digits, '+', '-' or '.' before the first ':' (a path such as ./a:b has a '/' first).
  const auto colon = text.find(':');
  const bool has_scheme =
      colon != std::string::npos && colon > 0 &&
      std::all_of(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(colon),
                  [](unsigned char c) { return std::isalnum(c) || c == '+' || c == '-' || c == '.'; }) &&
      std::isalpha(static_cast<unsigned char>(text[0]));
  if (!has_scheme) {
    if (text.find_first_of("/.") == std::string::npos)
      throw InputError("unknown storage '" + text + "'" + did_you_mean(text, {"memory"}) + allowed);
    return "sqlite:" + text;
  }
  const std::string scheme = text.substr(0, colon);
  const StorageEntry* entry = storages().find(scheme);
  if (!entry || storages().canonical(scheme) == "memory")
    throw InputError("unknown storage scheme '" + scheme + ":' in '" + text + "'" + allowed);
  if (storages().canonical(scheme) != "sqlite") return text;
  const std::string rest = text.substr(colon + 1);
  if (rest.empty()) throw InputError("storage '" + text + "' has no file path (allowed: " + kSqliteForms + ")");
  if (rest.rfind("//", 0) == 0) {
    // File-URL style: sqlite:///abs/path. Two slashes and a name (sqlite://x.db) would make x.db a host.
    if (rest.size() < 4 || rest[2] != '/')
      throw InputError("storage '" + text + "' is malformed: after 'sqlite://' comes an absolute path (sqlite:///" +
                       rest.substr(2) + "); a relative path is written sqlite:" + rest.substr(2) +
                       " (allowed: " + kSqliteForms + ")");
    return "sqlite:" + rest.substr(2);
  }
  return "sqlite:" + rest;
}

std::shared_ptr<Storage> open_storage(const std::string& text, StorageAccess access) {
  const std::string url = normalize_storage_url(text);
  // The scheme is what precedes the first ':' ("memory" has none); the backend parses the rest.
  return storages().get(url.substr(0, url.find(':'))).open(url, access);
}

void check_schema_version(int stored, const std::string& url) {
  if (stored < 1)
    throw InputError("storage '" + url + "' has an invalid kbo schema version " + std::to_string(stored));
  if (stored > kSchemaVersion)
    throw InputError("storage '" + url + "' has kbo schema version " + std::to_string(stored) +
                     ", newer than this kbo understands (1.." + std::to_string(kSchemaVersion) +
                     "): use a newer kbo for this study");
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace kbo
