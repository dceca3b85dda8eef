// register_builtin_modules(): the one place that knows every module this build ships.
#include "kbo/modules.hpp"

#include <mutex>

#include "kbo/acquisition/registry.hpp"
#include "kbo/adaptive/register.hpp"
#include "kbo/invariance/register.hpp"
#include "kbo/moo/moo_strategy.hpp"
#include "kbo/sets/register.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

void register_builtin_modules() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_builtin_acquisitions();
    register_builtin_strategies();
    register_builtin_storages();
    register_invariance_module();
    register_sets_module();
    register_adaptive_module();
    register_moo_module();
  });
}

}  // namespace kbo
