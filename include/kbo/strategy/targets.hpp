#pragma once
// How BOStrategy presents the observed values (to maximise) to its GP: an optional monotone warp, and a
// standardisation about a chosen prior-mean level. Small pure functions, tested on their own.
#include <string>

#include "kbo/core/enum_names.hpp"
#include "kbo/core/linalg.hpp"

namespace kbo {

/// Monotone warps of the targets: "none" (identity), "copula" (normal scores of the mid-ranks, ties
/// share a score) or "log" (−log of the gap to the best value plus 1e-3 of the range; stretches the
/// region near the best value) or "halfrank" (Vizier's half-rank warp, Song et al. 2022: values above the
/// median are kept, those below it get the normal scores of their ranks scaled by the upper half's spread
/// about the median, so a heavy bad tail cannot squeeze the good values together). InputError on another name.
/// "logtop": −log(gap to the best + δ) with δ the gap between the best and the (D+1)-th best value
/// (the k-th best of warp_targets' `top_k`): scale-free, the spacing among the best values is resolved at
/// the current precision of the search whatever the range of the others (ties ⇒ the next non-zero gap).
enum class OutputWarp { None, Copula, Log, HalfRank, LogTop };
template <>
struct EnumNames<OutputWarp> {
  static constexpr std::array<std::pair<OutputWarp, const char*>, 5> table{
      {{OutputWarp::None, "none"}, {OutputWarp::Copula, "copula"}, {OutputWarp::Log, "log"}, {OutputWarp::HalfRank, "halfrank"},
       {OutputWarp::LogTop, "logtop"}}};
};
Vec warp_targets(const Vec& y, OutputWarp warp, int top_k = 3);

/// Observed values of any finite magnitude (1e-300 … 1e300), in units the model can work in, before any
/// warp or standardisation: z = (y − median) / IQR, computed on y/4 so that no difference overflows and
/// so that scaling y by a power of two leaves z bit-for-bit unchanged (the median of the non-zero
/// deviations replaces an IQR of 0; all-equal values give zeros). Values further than kOutlierIqrs IQRs
/// from the median (a 1e300 penalty among values near 1) are extreme outliers: each is placed one unit
/// beyond the most extreme inlier on its side, further by log1p(log1p(excess)) so that order is kept.
/// Inliers are only shifted and scaled, so for ordinary data the (affine-invariant) model is unchanged.
Vec robust_scale_targets(const Vec& y);
inline constexpr double kOutlierIqrs = 20.0;

/// (y − level) / s with s the sample standard deviation of y (1 if y is constant or has one entry).
/// With a zero-mean GP on the result, `level` is the prior mean in the original units.
Vec standardize_about(const Vec& y, double level);

/// The q-quantile of v (0 ≤ q ≤ 1, linear interpolation between order statistics; v non-empty).
double quantile_of(Vec v, double q);

/// Φ⁻¹(p) for 0 < p < 1 (bisection on erfc: exact to double precision, no table).
double normal_quantile(double p);

}  // namespace kbo
