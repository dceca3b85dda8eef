// splitmix64 / trial_seed against published values and the formula every strategy used before they
// shared one copy.
#include <gtest/gtest.h>

#include "kbo/core/random.hpp"

using namespace kbo;

namespace {
// The per-trial seed as BOStrategy, A-GP-UCB and its baselines computed it (three copies until now).
std::uint64_t old_trial_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
// The per-start seed mixer of the acquisition optimiser (src/optimize/multistart.cpp) before it used splitmix64.
std::uint64_t old_multistart_mix(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace

TEST(Random, SplitMix64PublishedSequence) {
  // SplitMix64 seeded with 0 (Vigna's splitmix64.c): the first three outputs.
  EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(trial_seed(0, 0), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(trial_seed(0, 1), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ(trial_seed(0, 2), 0x06C45D188009454FULL);
  EXPECT_EQ(splitmix64(1), 0x910A2DEC89025CC1ULL);
  EXPECT_EQ(trial_seed(42, 7), 0xCCF635EE9E9E2FA4ULL);
  static_assert(splitmix64(0) == 0xE220A8397B1DCDAFULL, "usable in constant expressions");
}

TEST(Random, TrialSeedIsTheFormerPerTrialSeed) {
  for (std::uint64_t seed : {0ULL, 1ULL, 7ULL, 0x5EEDULL, 12345ULL ^ 0xACCULL, ~0ULL})
    for (std::uint64_t i : {0ULL, 1ULL, 2ULL, 99ULL, 1000003ULL + 17, 3000017ULL + 40, ~0ULL})
      EXPECT_EQ(trial_seed(seed, i), old_trial_seed(seed, i)) << seed << " " << i;
  // An int trial index converts as static_cast<std::uint64_t>(int) did, negative ones included.
  const int negative = -1;
  EXPECT_EQ(trial_seed(5, negative), old_trial_seed(5, static_cast<std::uint64_t>(negative)));
}

TEST(Random, SplitMix64IsTheFormerMultistartMixer) {
  for (std::uint64_t x : {0ULL, 1ULL, 2ULL, 42ULL, 0xDEADBEEFULL, ~0ULL}) EXPECT_EQ(splitmix64(x), old_multistart_mix(x));
}

TEST(Random, TrialSeedsDiffer) {
  EXPECT_NE(trial_seed(0, 0), trial_seed(0, 1));
  EXPECT_NE(trial_seed(0, 0), trial_seed(1, 0));
}
