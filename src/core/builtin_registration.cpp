// Lazy registration of the built-in modules. kbo_core sits below the modules, so it cannot call
// register_builtin_modules() directly (a static archive of a lower layer would need a higher one); it
// reaches it through a weak reference instead. A weak reference pulls nothing out of an archive, so the
// hook is there exactly when the program links kbo_modules' registration object: every program that calls
// register_builtin_modules() and every program linking kbo::kbo (whose link options name the hook).
#include "kbo/core/registry.hpp"

extern "C" void kbo_register_builtin_modules_hook() __attribute__((weak));

namespace kbo::detail {
namespace {
thread_local bool filling_registries = false;
}

FillingRegistries::FillingRegistries() : was_filling_(filling_registries) { filling_registries = true; }
FillingRegistries::~FillingRegistries() { filling_registries = was_filling_; }

void ensure_builtin_modules() {
  if (filling_registries || kbo_register_builtin_modules_hook == nullptr) return;
  kbo_register_builtin_modules_hook();  // std::call_once inside: other threads wait until it is done
}

}  // namespace kbo::detail
