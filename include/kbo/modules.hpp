#pragma once
// One explicit call fills every registry with what this build ships: acquisitions, strategies, kernels,
// space kinds, storages, and the research modules (invariance groups and kernels, set spaces and kernels,
// A-GP-UCB). Programs call it once at start (the CLI's main, the Python module's init, the tests' main);
// it is idempotent. Explicit, because static archives drop static initialisers.
namespace kbo {
void register_builtin_modules();
}
