// parallel_for: each index visited exactly once for any thread count, results independent of the
// thread count when each task writes its own slot, the lowest failing index rethrown, nesting works.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "kbo/core/error.hpp"
#include "kbo/core/parallel.hpp"

using namespace kbo;

TEST(Parallel, EachIndexVisitedOnce) {
  for (int threads : {0, 1, 2, 3, 8, 100}) {
    for (int count : {0, 1, 2, 5, 64, 1000}) {
      std::vector<std::atomic<int>> visits(count);
      parallel_for(count, threads, [&](int i) { visits[i].fetch_add(1); });
      for (int i = 0; i < count; ++i) ASSERT_EQ(visits[i].load(), 1) << "threads " << threads << " index " << i;
    }
  }
}

TEST(Parallel, SlotsMakeResultsIndependentOfThreads) {
  auto run = [](int threads) {
    std::vector<double> out(257);
    parallel_for(static_cast<int>(out.size()), threads, [&](int i) {
      double s = 0.0;
      for (int k = 1; k <= 1000 + i; ++k) s += 1.0 / (k + 0.5 * i);
      out[i] = s;
    });
    return out;
  };
  const auto one = run(1);
  EXPECT_EQ(run(2), one);
  EXPECT_EQ(run(7), one);
}

TEST(Parallel, OneThreadRunsInIndexOrder) {
  std::vector<int> order;
  parallel_for(5, 1, [&](int i) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(Parallel, RethrowsLowestFailingIndexAfterAllRan) {
  for (int threads : {1, 2, 4}) {
    std::atomic<int> ran{0};
    try {
      parallel_for(20, threads, [&](int i) {
        ran.fetch_add(1);
        if (i == 13 || i == 5 || i == 17) throw std::runtime_error("index " + std::to_string(i));
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "index 5");
    }
    EXPECT_EQ(ran.load(), 20);
  }
}

TEST(Parallel, Nests) {
  std::vector<std::atomic<int>> visits(6 * 9);
  parallel_for(6, 3, [&](int i) { parallel_for(9, 2, [&](int j) { visits[i * 9 + j].fetch_add(1); }); });
  for (auto& v : visits) EXPECT_EQ(v.load(), 1);
}

TEST(Parallel, RejectsNegativeArguments) {
  EXPECT_THROW(parallel_for(-1, 1, [](int) {}), InputError);
  EXPECT_THROW(parallel_for(1, -1, [](int) {}), InputError);
  EXPECT_GE(hardware_threads(), 1);
}
