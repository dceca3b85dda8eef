#pragma once
// One random engine type for the whole library, so that a seed reproduces a run exactly.
#include <cstdint>
#include <random>

namespace kbo {
using Rng = std::mt19937_64;
inline Rng make_rng(std::uint64_t seed) { return Rng(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL); }
}  // namespace kbo
