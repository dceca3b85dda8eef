// Storage URLs → backends.
#include <chrono>

#include "kbo/error.hpp"
#include "kbo/storage/memory.hpp"
#include "kbo/storage/sqlite.hpp"

namespace kbo {

std::shared_ptr<Storage> open_storage(const std::string& url) {
  if (url == "memory") return std::make_shared<MemoryStorage>();
  if (url.rfind("sqlite:", 0) == 0) return std::make_shared<SqliteStorage>(url.substr(7));
  if (url.rfind("postgresql:", 0) == 0 || url.rfind("postgres:", 0) == 0)
    throw InputError("storage '" + url + "': PostgreSQL is not supported by this build (allowed: memory, sqlite:PATH)");
  throw InputError("unknown storage '" + url + "' (allowed: memory, sqlite:PATH)");
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace kbo
