#pragma once
// Plugs the invariance module into the registries (called by register_builtin_modules()).
namespace kbo {
void register_invariance_module();
}
