// parallel_for (include/kbo/core/parallel.hpp).
#include "kbo/core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo {

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void parallel_for(int count, int threads, const std::function<void(int)>& fn) {
  if (count < 0) throw InputError("parallel_for: count must be >= 0 (got " + std::to_string(count) + ")");
  if (threads < 0) throw InputError("parallel_for: threads must be >= 0 (got " + std::to_string(threads) + ")");
  if (threads == 0) threads = hardware_threads();
  threads = std::min(threads, count);
  std::vector<std::exception_ptr> errors(count);
  auto run = [&](int i) {
    try {
      fn(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  if (threads <= 1) {
    for (int i = 0; i < count; ++i) run(i);
  } else {
    std::atomic<int> next{0};
    auto work = [&] {
      for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) run(i);
    };
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (int t = 1; t < threads; ++t) {
      try {
        pool.emplace_back(work);
      } catch (const std::system_error&) {
        break;  // no more threads available: the ones running (and this one) take every index
      }
    }
    work();
    for (auto& th : pool) th.join();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace kbo
