#pragma once
// KFO over ARD-scaled inputs (docs/bench/kfo.md). An eq.-(3) functional sees a pair only through ||x − x'||, so on its own it
// cannot weight dimensions by relevance. kbo's default adds an outer step: per-dimension scales s are fixed first
// from an ARD Matérn-5/2 GP fitted on the search's training points (regression: the targets; classification: the
// 0/1 indicator of each class, one-vs-rest), s_d ∝ 1/ℓ_d (classification: s_d² ∝ mean over classes of 1/ℓ_{k,d}²),
// and the functional is then learned on ||s ⊙ (x − x')||. The scales are normalised to ||s||₂ = √D, so the unit
// cube's diagonal keeps its length √D and the grid (distances [0, √D]) and the Θ box of the isotropic method still
// span the data's distances; equal ℓ_d give s = 1, the paper's kernel.
#include <cstdint>
#include <string>

#include "kbo/core/linalg.hpp"
#include "kbo/kfo/svm.hpp"

namespace kbo::kfo {

enum class InputScalingMode { None, Ard };
InputScalingMode parse_input_scaling(const std::string& name);  // "ard" | "none"
std::string to_string(InputScalingMode mode);

/// v normalised to ||v||₂ = √size (v finite, > 0).
Vec normalised_scales(const Vec& inverse_lengthscales);
/// Scales from an ARD Matérn-5/2 GP on (X, y) (MAP with kbo's default priors when map).
Vec ard_scales_regression(const Mat& X, const Vec& y, int restarts, std::uint64_t seed, bool map = true);
/// Scales from one ARD Matérn-5/2 GP per class on its 0/1 indicator (one fit for two classes).
Vec ard_scales_classification(const Mat& X, const Labels& y, int restarts, std::uint64_t seed, bool map = true);

}  // namespace kbo::kfo
