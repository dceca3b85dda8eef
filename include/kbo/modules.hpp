#pragma once
// One explicit call fills every registry with what this build ships: acquisitions, strategies, kernels,
// space kinds, storages, and the research modules (invariance groups and kernels, set spaces and kernels,
// A-GP-UCB). It is idempotent and thread-safe. A program linking the CMake target kbo::kbo need not call it:
// the first registry access does (kbo/core/registry.hpp). The CLI, the Python module and the tests call it
// at start anyway. Not a static initialiser, because static archives drop those.
namespace kbo {
void register_builtin_modules();
}
