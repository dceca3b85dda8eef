#pragma once
// One random engine type for the whole library, so that a seed reproduces a run exactly, and the one
// way seeds are derived from other seeds.
#include <cstdint>
#include <random>

namespace kbo {
using Rng = std::mt19937_64;
inline Rng make_rng(std::uint64_t seed) { return Rng(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL); }

/// SplitMix64 (Steele, Lea & Flood 2014; Vigna's reference code): the output of the generator whose
/// state is x, i.e. the finaliser applied to x + 0x9E3779B97F4A7C15. A bijection on 64-bit integers that
/// sends neighbouring inputs to unrelated outputs; used to derive seeds, never as the run's stream.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Seed of stream `index` of a run seeded with `seed` (a trial, a fit, a restart…): the (index+1)-th
/// output of SplitMix64 started at state `seed`, so neighbouring indices give unrelated streams and the
/// stream of trial k does not depend on how many others were drawn. Negative indices wrap (mod 2^64).
constexpr std::uint64_t trial_seed(std::uint64_t seed, std::uint64_t index) {
  return splitmix64(seed + 0x9E3779B97F4A7C15ULL * index);
}

}  // namespace kbo
