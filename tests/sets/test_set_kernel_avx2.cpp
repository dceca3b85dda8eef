// The vector per-pair passes — AVX2+FMA (src/sets/set_profile_avx2.cpp: libmvec exp/sqrt) and AVX-512
// (src/sets/set_profile_avx512.cpp: intrinsics, own exp), both on L2-sized GEMM chunks with mirrored
// upper chunks on diagonal tiles — against the portable Eigen pass, for every base kernel, isotropic and
// ARD, full and approximate, through every public entry point that uses them; and the AVX-512 exp
// against std::exp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "kbo/sets/set_kernel.hpp"

namespace kbo {
namespace {

// Restores the automatic choice whatever the test does.
struct PathGuard {
  ~PathGuard() { set_set_kernel_path(SetKernelPath::Auto); }
};

bool cpu_has_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

Mat random_sets(int n, int m, int d, Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat X(n, m * d);
  for (int i = 0; i < X.size(); ++i) X(i) = u(rng);
  return X;
}

// max |a − b| relative to max |b| (entries of a kernel matrix share one scale: the variance).
double rel_diff(const Mat& a, const Mat& b) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  return (a - b).cwiseAbs().maxCoeff() / std::max(1e-300, b.cwiseAbs().maxCoeff());
}

struct Outputs {
  Mat cross, gram;
  Vec diag, contract;
  std::vector<Mat> grads;
};

Outputs evaluate(const SetKernel& k, const Mat& X, const Mat& Y, const Mat& W, SetKernelPath path) {
  set_set_kernel_path(path);
  return {k.cross(X, Y), k.gram(X), k.diag(X), k.gram_gradient_contract(X, W), k.gram_gradients(X)};
}

TEST(SetKernelAvx2, PathSwitch) {
  PathGuard guard;
  const bool avx512 = set_kernel_cpu_has_avx512();
  set_set_kernel_path(SetKernelPath::Generic);
  EXPECT_FALSE(set_kernel_uses_avx2());
  EXPECT_FALSE(set_kernel_uses_avx512());
  EXPECT_STREQ(set_kernel_pass_name(), "generic");
  set_set_kernel_path(SetKernelPath::Avx2);
  EXPECT_EQ(set_kernel_uses_avx2(), cpu_has_avx2_fma());
  EXPECT_FALSE(set_kernel_uses_avx512());
  set_set_kernel_path(SetKernelPath::Auto);
  EXPECT_EQ(set_kernel_uses_avx512(), avx512);
  EXPECT_EQ(set_kernel_uses_avx2(), cpu_has_avx2_fma() && !avx512);
  EXPECT_STREQ(set_kernel_pass_name(), avx512 ? "AVX-512" : cpu_has_avx2_fma() ? "AVX2" : "generic");
  EXPECT_EQ(avx512, __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                        __builtin_cpu_supports("avx512vl") && cpu_has_avx2_fma());
}

// Distance in units in the last place between two non-negative doubles (their bit patterns are
// ordered like the values, through the subnormals down to +0).
std::int64_t ulp_distance(double a, double b) {
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  return ia > ib ? ia - ib : ib - ia;
}

TEST(SetKernelAvx2, Avx512ExpMatchesStdExpOverTheWholeRange) {
  if (!set_kernel_cpu_has_avx512()) {
    // Without AVX-512 the vector exp cannot run; what must hold is that the dispatch never picks it.
    EXPECT_FALSE(set_kernel_uses_avx512());
    return;
  }
  // Every argument the pass uses is ≤ 0 (−c·r, −r²/2). Dense uniform samples of [−760, 0] (through the
  // subnormal results below −708.4 and the underflow to +0 below −745.13), a fine grid of [−1, 0]
  // (arguments of nearby element pairs), the points where the reduction index k changes (x = j·ln2/16,
  // where ρ is largest in magnitude just beside them) and special values.
  std::vector<double> xs;
  Rng rng = make_rng(77);
  std::uniform_real_distribution<double> wide(-760.0, 0.0);
  for (int i = 0; i < 400000; ++i) xs.push_back(wide(rng));
  for (int i = 0; i <= 100000; ++i) xs.push_back(-i * 1e-5);
  const double ln2_16 = std::log(2.0) / 16.0;
  for (int j = 0; j < 16 * 1100; j += 7) {
    const double c = -(j + 0.5) * ln2_16;
    xs.push_back(std::nextafter(c, 0.0));
    xs.push_back(c);
    xs.push_back(std::nextafter(c, -1.0));
  }
  for (double x : {0.0, -0.0, -1e-300, -4.9e-324, -1e-17, -1e-8, -0.5, -1.0, -708.39, -708.4, -745.13, -745.14,
                   -746.0, -800.0, -1000.0, -1e4, -1e300})
    xs.push_back(x);
  const Vec x = Eigen::Map<const Vec>(xs.data(), static_cast<Eigen::Index>(xs.size()));
  Vec y;
  set_kernel_exp_avx512(x, y);
  std::int64_t worst = 0;
  double worst_x = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double ref = std::exp(x(i));
    ASSERT_TRUE(std::isfinite(y(i)) && y(i) >= 0.0) << "exp(" << x(i) << ") = " << y(i);
    const std::int64_t u = ulp_distance(y(i), ref);
    if (u > worst) worst = u, worst_x = x(i);
  }
  EXPECT_LE(worst, 2) << "worst at x = " << worst_x;
  EXPECT_EQ(y(x.size() - 17), 1.0);  // exp(0) exactly
  for (Eigen::Index i = x.size() - 5; i < x.size(); ++i) EXPECT_EQ(y(i), 0.0) << x(i);  // underflow to +0
  // Lengths that are not a multiple of the vector width (masked tail).
  for (Eigen::Index n : {1, 7, 9, 15}) {
    Vec yt;
    set_kernel_exp_avx512(x.head(n), yt);
    ASSERT_EQ(yt.size(), n);
    for (Eigen::Index i = 0; i < n; ++i) EXPECT_EQ(yt(i), y(i));
  }
}

TEST(SetKernelAvx2, EqualsGenericPassForEveryBaseKernel) {
  // Without AVX2+FMA the Auto path is the generic pass, and the comparison below still holds.
  PathGuard guard;
  Rng rng = make_rng(31);
  // m = 90, n = 7: 630 stacked elements = 5 chunks of <= 128 rows, so sets straddle chunk borders and the
  // diagonal tile mixes computed and mirrored chunks; L = 90 uses the fused run sums, L = 5 the column
  // buffers.
  const int m = 90, d = 3;
  std::uniform_real_distribution<double> u(0.4, 1.5);
  for (StationaryType t : {StationaryType::RBF, StationaryType::Matern12, StationaryType::Matern32,
                           StationaryType::Matern52}) {
    for (bool ard : {false, true}) {
      // ℓ = 0.003: scaled distances of hundreds, so exp underflows (subnormal results and +0).
      for (auto [mode, ls] : {std::pair{SetKernelMode::Full, 0.7}, std::pair{SetKernelMode::Approx, 0.7},
                              std::pair{SetKernelMode::Full, 0.003}}) {
        StationaryKernel base(t, d, ard, ls, 1.3);
        if (ard) base.set_lengthscales(Vec::NullaryExpr(d, [&](Eigen::Index) { return u(rng) * ls / 0.7; }));
        const SetKernel k(base, m, d, mode, 5, 9);
        const Mat X = random_sets(7, m, d, rng);
        Mat Y = random_sets(5, m, d, rng);
        Y.row(2) = X.row(4);  // identical elements in different sets: r² rounds around 0 off the diagonal
        std::normal_distribution<double> nd;
        Mat W(7, 7);
        for (Eigen::Index i = 0; i < W.size(); ++i) W(i) = nd(rng);
        W = (W + W.transpose()).eval();
        const Outputs g = evaluate(k, X, Y, W, SetKernelPath::Generic);
        for (SetKernelPath path : {SetKernelPath::Avx2, SetKernelPath::Auto}) {  // AVX2, then AVX-512
          const Outputs v = evaluate(k, X, Y, W, path);
          const std::string what = k.describe() + " on the " + set_kernel_pass_name() + " pass";
          EXPECT_LT(rel_diff(v.cross, g.cross), 1e-12) << what;
          EXPECT_LT(rel_diff(v.gram, g.gram), 1e-12) << what;
          EXPECT_LT(rel_diff(v.diag, g.diag), 1e-12) << what;
          EXPECT_EQ((v.gram - v.gram.transpose()).norm(), 0.0) << what;
          ASSERT_EQ(v.grads.size(), g.grads.size());
          for (std::size_t p = 0; p < g.grads.size(); ++p)
            EXPECT_LT(rel_diff(v.grads[p], g.grads[p]), 1e-12) << what << " gradient " << p;
          EXPECT_LT(rel_diff(v.contract, g.contract), 1e-12) << what;
        }
      }
    }
  }
}

TEST(SetKernelAvx2, EqualsGenericPassAcrossTiles) {
  // Without AVX2+FMA the Auto path is the generic pass, and the comparison below still holds.
  PathGuard guard;
  // 9 sets of 500 elements = 4500 stacked elements: several tiles of whole sets (kTileElements = 2048),
  // off-diagonal tiles computed once and mirrored, partial last tiles.
  Rng rng = make_rng(32);
  const int m = 500, d = 4;
  const SetKernel k(StationaryKernel(StationaryType::Matern52, d, false, 0.8), m, d);
  const Mat X = random_sets(9, m, d, rng), Y = random_sets(4, m, d, rng);
  set_set_kernel_path(SetKernelPath::Generic);
  const Mat Gg = k.gram(X), Cg = k.cross(Y, X);
  for (SetKernelPath path : {SetKernelPath::Avx2, SetKernelPath::Auto}) {
    set_set_kernel_path(path);
    const Mat Gv = k.gram(X), Cv = k.cross(Y, X);
    EXPECT_LT(rel_diff(Gv, Gg), 1e-12) << set_kernel_pass_name();
    EXPECT_LT(rel_diff(Cv, Cg), 1e-12) << set_kernel_pass_name();
  }
}

}  // namespace
}  // namespace kbo
