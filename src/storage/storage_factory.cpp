// Storage URLs → backends, and the schema-version rule shared by the persistent backends.
#include <chrono>

#include "kbo/core/error.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/storage/postgres.hpp"
#include "kbo/storage/sqlite.hpp"

namespace kbo {

std::string storage_url_forms() {
  return "memory, sqlite:PATH, postgresql://USER@HOST:PORT/DB, postgresql:///DB?host=/socket/dir";
}

std::shared_ptr<Storage> open_storage(const std::string& url) {
  if (url == "memory") return std::make_shared<MemoryStorage>();
  if (url.rfind("sqlite:", 0) == 0) return std::make_shared<SqliteStorage>(url.substr(7));
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0)
    return std::make_shared<PostgresStorage>(url);
  throw InputError("unknown storage '" + url + "' (allowed: " + storage_url_forms() + ")");
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
