// Storage URLs → backends, and the schema-version rule shared by the persistent backends.
#include <chrono>

#include "kbo/core/error.hpp"
#include "kbo/core/registry.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/storage/postgres.hpp"
#include "kbo/storage/sqlite.hpp"

namespace kbo {

Registry<StorageEntry>& storages() {
  static Registry<StorageEntry> registry("storage scheme");
  return registry;
}

void register_builtin_storages() {
  auto& r = storages();
  r.add("memory", {[](const std::string&) -> std::shared_ptr<Storage> { return std::make_shared<MemoryStorage>(); },
                   "memory", "this process only"});
  r.add("sqlite", {[](const std::string& url) -> std::shared_ptr<Storage> {
                     return std::make_shared<SqliteStorage>(url.substr(url.find(':') + 1));
                   },
                   "sqlite:PATH", "an embedded SQLite file (WAL), shared by processes on one machine"});
  StorageEntry postgres{[](const std::string& url) -> std::shared_ptr<Storage> {
                          return std::make_shared<PostgresStorage>(url);
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

std::shared_ptr<Storage> open_storage(const std::string& url) {
  // The scheme is what precedes the first ':' ("memory" has none); the backend parses the rest.
  const std::string scheme = url.substr(0, url.find(':'));
  const StorageEntry* entry = storages().find(scheme);
  const bool memory = scheme == url;
  if (!entry || memory != (storages().canonical(scheme) == "memory"))
    throw InputError("unknown storage '" + url + "' (allowed: " + storage_url_forms() + ")");
  return entry->open(url);
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
