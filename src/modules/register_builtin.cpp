// register_builtin_modules(): the one place that knows every module this build ships.
#include "kbo/modules.hpp"

#include <mutex>

#include "kbo/acquisition/registry.hpp"
#include "kbo/core/registry.hpp"
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
    detail::FillingRegistries filling;  // the registrations' own registry calls must not re-enter this
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

// What the registries call on first use (kbo/core/registry.hpp); kbo::kbo's link options name it, so a
// program linking kbo::kbo gets this object (and the built-in modules) without calling anything.
extern "C" void kbo_register_builtin_modules_hook() { kbo::register_builtin_modules(); }
