// The AVX2+FMA per-pair pass (src/sets/set_profile_avx2.cpp: libmvec exp/sqrt, L2-sized GEMM chunks,
// mirrored upper chunks on diagonal tiles) against the portable Eigen pass, for every base kernel,
// isotropic and ARD, full and approximate, through every public entry point that uses it.
#include <gtest/gtest.h>

#include <random>

#include "kbo/kernels/set.hpp"

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
  set_set_kernel_path(SetKernelPath::Generic);
  EXPECT_FALSE(set_kernel_uses_avx2());
  set_set_kernel_path(SetKernelPath::Auto);
  EXPECT_EQ(set_kernel_uses_avx2(), cpu_has_avx2_fma());
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
      for (SetKernelMode mode : {SetKernelMode::Full, SetKernelMode::Approx}) {
        StationaryKernel base(t, d, ard, 0.7, 1.3);
        if (ard) base.set_lengthscales(Vec::NullaryExpr(d, [&](Eigen::Index) { return u(rng); }));
        const SetKernel k(base, m, d, mode, 5, 9);
        const Mat X = random_sets(7, m, d, rng);
        Mat Y = random_sets(5, m, d, rng);
        Y.row(2) = X.row(4);  // identical elements in different sets: r² rounds around 0 off the diagonal
        std::normal_distribution<double> nd;
        Mat W(7, 7);
        for (Eigen::Index i = 0; i < W.size(); ++i) W(i) = nd(rng);
        W = (W + W.transpose()).eval();
        const Outputs g = evaluate(k, X, Y, W, SetKernelPath::Generic);
        const Outputs v = evaluate(k, X, Y, W, SetKernelPath::Auto);
        ASSERT_TRUE(set_kernel_uses_avx2());
        const std::string what = k.describe();
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
  set_set_kernel_path(SetKernelPath::Auto);
  const Mat Gv = k.gram(X), Cv = k.cross(Y, X);
  EXPECT_LT(rel_diff(Gv, Gg), 1e-12);
  EXPECT_LT(rel_diff(Cv, Cg), 1e-12);
}

}  // namespace
}  // namespace kbo
