#pragma once
// Plugs the adaptive module (A-GP-UCB) into the registries (called by register_builtin_modules()).
namespace kbo {
void register_adaptive_module();
}
