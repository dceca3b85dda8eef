#pragma once
// Plugs the sets module into the registries (called by register_builtin_modules()).
namespace kbo {
void register_sets_module();
}
