#pragma once
// The one way kbo runs independent tasks on several threads (acquisition starts, hyperparameter-fit
// starts, large prediction batches).
//
// Determinism contract: parallel_for says nothing about which thread runs an index or in which order the
// indices finish. Callers make task i write only its own output slot (results[i], …) and reduce the slots
// afterwards in index order; the result is then the same, bit for bit, for any thread count and any
// scheduling.
//
// Threads are started by each call and joined before it returns (no pool outlives a call), so a task may
// itself call parallel_for (a GP fit inside a parallel refit) without waiting on its own pool.
#include <functional>

namespace kbo {

/// std::thread::hardware_concurrency(), at least 1.
int hardware_threads();

/// Runs fn(i) exactly once for every i in [0, count) on min(threads, count) threads, the calling thread
/// being one of them (threads = 0 ⇒ hardware_threads(); one thread or count ≤ 1 ⇒ a plain loop in index
/// order, no thread started). Indices are handed out in increasing order from a shared counter.
///
/// Errors: an exception thrown by fn(i) does not stop the other indices; once every index has run, the
/// exception of the lowest failing index is rethrown (the same one whatever the scheduling).
/// InputError if count < 0 or threads < 0.
void parallel_for(int count, int threads, const std::function<void(int)>& fn);

}  // namespace kbo
