// Target warps and standardisation of BOStrategy (kbo/bo_targets.hpp) against closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/strategy/targets.hpp"
#include "kbo/core/error.hpp"

using namespace kbo;

TEST(BOTargets, NormalQuantileInvertsTheNormalCdf) {
  // Known values: Φ⁻¹(0.5) = 0, Φ⁻¹(0.975) = 1.959963984540054, Φ⁻¹(0.001) = −3.090232306167814.
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-14);
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167814, 1e-12);
  for (double p : {1e-10, 0.2, 0.7, 1 - 1e-9}) EXPECT_NEAR(0.5 * std::erfc(-normal_quantile(p) / std::sqrt(2.0)), p, 1e-14 + 1e-12 * p);
  EXPECT_THROW(normal_quantile(0.0), InputError);
  EXPECT_THROW(normal_quantile(1.0), InputError);
}

TEST(BOTargets, QuantileInterpolatesOrderStatistics) {
  const Vec v{{4.0, -1.0, 2.0, 10.0}};  // sorted: −1, 2, 4, 10
  EXPECT_EQ(quantile_of(v, 0.0), -1.0);
  EXPECT_EQ(quantile_of(v, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(quantile_of(v, 0.5), 3.0);        // halfway between 2 and 4
  EXPECT_DOUBLE_EQ(quantile_of(v, 1.0 / 3.0), 2.0);  // the second order statistic
  EXPECT_THROW(quantile_of(Vec(0), 0.5), InputError);
  EXPECT_THROW(quantile_of(v, 1.5), InputError);
}

TEST(BOTargets, StandardizeAboutShiftsByTheLevelAndScalesByTheStd) {
  const Vec y{{1.0, 2.0, 4.0}};  // mean 7/3, sample variance 7/3
  const Vec z = standardize_about(y, 1.0);
  const double s = std::sqrt(7.0 / 3.0);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(z[i], (y[i] - 1.0) / s, 1e-15);
  EXPECT_EQ(standardize_about(Vec::Constant(3, 5.0), 5.0), Vec::Zero(3));  // constant: scale 1
  EXPECT_EQ(standardize_about(Vec{{2.0}}, 0.0)[0], 2.0);
}

TEST(BOTargets, WarpsAreMonotoneAndCopulaGivesNormalScores) {
  const Vec y{{3.0, -1.0, 7.0, 3.0, 0.5}};
  EXPECT_EQ(warp_targets(y, OutputWarp::None), y);
  const Vec c = warp_targets(y, OutputWarp::Copula);
  // Mid-ranks / n: −1 → 0.1, 0.5 → 0.3, 3 (tied twice) → 0.6, 7 → 0.9.
  EXPECT_NEAR(c[1], normal_quantile(0.1), 1e-15);
  EXPECT_NEAR(c[4], normal_quantile(0.3), 1e-15);
  EXPECT_EQ(c[0], c[3]);
  EXPECT_NEAR(c[0], normal_quantile(0.6), 1e-15);
  EXPECT_NEAR(c[2], normal_quantile(0.9), 1e-15);
  const Vec l = warp_targets(y, OutputWarp::Log);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      if (y[i] < y[j]) {
        EXPECT_LT(l[i], l[j]);
      }
  EXPECT_NEAR(l[2], -std::log(1e-3 * 8.0), 1e-12);  // the best value: −log(offset), offset = 1e-3 · range
  EXPECT_THROW(parse_enum<OutputWarp>("output_warp", "sqrt"), InputError);
}

TEST(BOTargets, HalfRankKeepsTheUpperHalfAndRankWarpsTheLowerHalf) {
  // Values to maximise with a heavy lower tail. Sorted: −1e6, −10, 2, 3, 4: median 2; the upper
  // half {2, 3, 4} about the median: spread = √((0 + 1 + 4) / 3). Each value below the median becomes
  // median + spread · Φ⁻¹(mid-rank / n): −1e6 → rank 1 of 5 → Φ⁻¹(0.1), −10 → Φ⁻¹(0.3).
  const Vec y{{3.0, -1e6, 4.0, 2.0, -10.0}};
  const Vec h = warp_targets(y, OutputWarp::HalfRank);
  const double spread = std::sqrt(5.0 / 3.0);
  EXPECT_EQ(h[0], 3.0);
  EXPECT_EQ(h[2], 4.0);
  EXPECT_EQ(h[3], 2.0);
  EXPECT_NEAR(h[1], 2.0 + spread * normal_quantile(0.1), 1e-12);
  EXPECT_NEAR(h[4], 2.0 + spread * normal_quantile(0.3), 1e-12);
  // Monotone on random data with ties, and the identity when nothing lies below the median.
  const Vec r{{0.3, -2.0, 0.3, 5.0, -2.0, 1.0, -7.5, 0.0}};
  const Vec hr = warp_targets(r, OutputWarp::HalfRank);
  for (int i = 0; i < r.size(); ++i)
    for (int j = 0; j < r.size(); ++j) {
      if (r[i] < r[j]) {
        EXPECT_LT(hr[i], hr[j]);
      } else if (r[i] == r[j]) {
        EXPECT_EQ(hr[i], hr[j]);
      }
    }
  const Vec flat{{1.0, 1.0, 1.0}};
  EXPECT_EQ(warp_targets(flat, OutputWarp::HalfRank), flat);
  EXPECT_EQ(parse_enum<OutputWarp>("output_warp", "halfrank"), OutputWarp::HalfRank);
}

TEST(BOTargets, RankScoresMatchCountingEveryPairOnManyTies) {
  // The mid-rank of each entry counted by brute force over all pairs, on values with many ties.
  Vec y(300);
  for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = static_cast<double>((i * 37) % 23) - 11.0 + (i % 7 == 0 ? 0.5 : 0.0);
  const Vec c = warp_targets(y, OutputWarp::Copula);
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    double below = 0.0, ties = 0.0;
    for (Eigen::Index j = 0; j < y.size(); ++j) below += y[j] < y[i], ties += y[j] == y[i];
    EXPECT_EQ(c[i], normal_quantile((below + 0.5 * ties) / static_cast<double>(y.size()))) << i;
  }
}

TEST(BOTargets, LogTopIsScaleFreeAndResolvesTheBestValues) {
  // Values to maximise: best 0, then gaps 1, 2, 10, 1e6. top_k = 2: δ = the 2nd smallest non-zero gap = 2,
  // z = −log(gap + δ) + log δ.
  const Vec y{{-2.0, 0.0, -1e6, -1.0, -10.0}};
  const Vec z = warp_targets(y, OutputWarp::LogTop, 2);
  EXPECT_EQ(z[1], 0.0);
  EXPECT_NEAR(z[3], -std::log(3.0 / 2.0), 1e-12);
  EXPECT_NEAR(z[0], -std::log(4.0 / 2.0), 1e-12);
  EXPECT_NEAR(z[2], -std::log((1e6 + 2.0) / 2.0), 1e-9);
  // Scale-free: an affine change a·y + b (a > 0) of the values leaves the warped targets unchanged, so
  // the spacing of the best values does not depend on how far the worst ones lie.
  const Vec w = warp_targets((1e-7 * y.array() + 123.0).matrix(), OutputWarp::LogTop, 2);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(w[i], z[i], 1e-6);
  // Ties at the best are skipped when δ is chosen; all-equal values give zeros.
  const Vec t = warp_targets(Vec{{5.0, 5.0, 4.0, 3.0}}, OutputWarp::LogTop, 1);
  EXPECT_EQ(t[0], 0.0);
  EXPECT_NEAR(t[2], -std::log(2.0), 1e-12);  // δ = 1 (the first non-zero gap)
  EXPECT_EQ(warp_targets(Vec::Constant(3, 2.0), OutputWarp::LogTop, 1), Vec::Zero(3));
  EXPECT_EQ(parse_enum<OutputWarp>("output_warp", "logtop"), OutputWarp::LogTop);
}
