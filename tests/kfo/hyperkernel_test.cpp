// Matérn harmonic hyperkernel (eq. 3), grid, hyper-Gram and the PCA basis (eq. 4, eq. 7).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "kbo/kfo/hyperkernel.hpp"
#include "kbo/core/random.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {
Vec rand_vec(Rng& rng, int d) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Vec v(d);
  for (int i = 0; i < d; ++i) v(i) = u(rng);
  return v;
}
}  // namespace

TEST(KfoHyperkernel, MatchesHarmonicSeriesOfMatern) {
  // (1−λ)/(1−λ m1 m2) = (1−λ) Σ_i (λ m1 m2)^i with m the Matérn-3/2 correlation, written out independently.
  const HyperkernelParams p{0.4, 0.7};
  const double r1 = 0.3, r2 = 0.9;
  auto m = [&](double r) { const double u = std::sqrt(3.0) * r / p.lengthscale; return (1 + u) * std::exp(-u); };
  double series = 0.0, term = 1.0;
  for (int i = 0; i < 200; ++i) {
    series += term;
    term *= p.lambda_h * m(r1) * m(r2);
  }
  EXPECT_NEAR(harmonic(r1, r2, p), (1 - p.lambda_h) * series, 1e-14);
}

TEST(KfoHyperkernel, SymmetricInPairArgumentsAndInSwappingPairs) {
  Rng rng = make_rng(3);
  const HyperkernelParams p{0.6, 0.5};
  for (int trial = 0; trial < 20; ++trial) {
    const Vec a = rand_vec(rng, 3), b = rand_vec(rng, 3), c = rand_vec(rng, 3), d = rand_vec(rng, 3);
    const double k = hyperkernel(a, b, c, d, p);
    EXPECT_NEAR(k, hyperkernel(b, a, c, d, p), 1e-15);
    EXPECT_NEAR(k, hyperkernel(a, b, d, c, p), 1e-15);
    EXPECT_NEAR(k, hyperkernel(b, a, d, c, p), 1e-15);
    EXPECT_NEAR(k, hyperkernel(c, d, a, b, p), 1e-15);  // swapping the pairs
    // The authors' cross-pair grid form is symmetric under swapping the pairs (it is a kernel on X×X).
    EXPECT_NEAR(hyperkernel_cross(a, b, c, d, p), hyperkernel_cross(c, d, a, b, p), 1e-15);
  }
}

TEST(KfoHyperkernel, DerivativeMatchesFiniteDifference) {
  const HyperkernelParams p{0.7, 0.4};
  for (double r1 : {0.05, 0.3, 1.2}) {
    const double h = 1e-6;
    const double fd = (harmonic(r1 + h, 0.2, p) - harmonic(r1 - h, 0.2, p)) / (2 * h);
    EXPECT_NEAR(harmonic_d_r1(r1, 0.2, p), fd, 1e-7);
  }
  EXPECT_EQ(harmonic_d_r1(0.0, 0.2, p), 0.0);  // m'(0) = 0: the hyperkernel is smooth at r = 0
}

TEST(KfoHyperkernel, RejectsInvalidHyperparameters) {
  EXPECT_THROW(validate({1.0, 0.5}), InputError);
  EXPECT_THROW(validate({0.0, 0.5}), InputError);
  EXPECT_THROW(validate({0.5, -1.0}), InputError);
  BasisOptions o;
  o.base_points = 1;
  EXPECT_THROW(FunctionalBasis(2, o), InputError);
}

class KfoBasisConventions : public ::testing::TestWithParam<GridConvention> {};

TEST_P(KfoBasisConventions, HyperGramIsSymmetricPsdAndEigenpairsAreExact) {
  for (HyperkernelParams p : {HyperkernelParams{0.3, 0.3}, HyperkernelParams{0.8, 1.5}, HyperkernelParams{0.1, 0.1}}) {
    BasisOptions o;
    o.convention = GetParam();
    o.hyper = p;
    FunctionalBasis basis(3, o);
    const Mat& G = basis.hyper_gram();
    const int m = basis.options().base_points;
    ASSERT_EQ(G.rows(), basis.grid_size());
    // Paper: one grid point per distinct pair distance (m of them); code: all m² pairs.
    EXPECT_EQ(basis.grid_size(), GetParam() == GridConvention::Paper ? m : m * m);
    EXPECT_NEAR(basis.multiplicities().sum(), m * m, 1e-12);
    EXPECT_LT((G - G.transpose()).cwiseAbs().maxCoeff(), 1e-15);
    Eigen::SelfAdjointEigenSolver<Mat> es(G);
    EXPECT_GT(es.eigenvalues().minCoeff(), -1e-12 * es.eigenvalues().maxCoeff());
    // (C^{1/2} G C^{1/2}) V = V Λ for the kept components, eigenvalues descending and positive.
    const Vec c = basis.multiplicities().cwiseSqrt();
    const Mat W = c.asDiagonal() * G * c.asDiagonal();
    const Mat& E = basis.eigenvectors();
    const Vec& L = basis.eigenvalues();
    EXPECT_LT((W * E - E * L.asDiagonal()).cwiseAbs().maxCoeff(), 1e-10 * L(0));
    for (int i = 1; i < L.size(); ++i) EXPECT_LE(L(i), L(i - 1));
    EXPECT_GT(L.minCoeff(), 0.0);
  }
}

TEST_P(KfoBasisConventions, RkhsDistanceEqualsCoordinateDistance) {
  // Eq. (7): sqrt(α1ᵀκα1 + α2ᵀκα2 − 2α1ᵀκα2) with α = E Λ^{-1/2} z equals ||z1 − z2||.
  BasisOptions o;
  o.convention = GetParam();
  o.hyper = {0.6, 0.8};
  o.components = 5;
  FunctionalBasis basis(2, o);
  ASSERT_EQ(basis.components(), 5);
  Rng rng = make_rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    const Vec z1 = basis.sample_direction(rng), z2 = basis.sample_direction(rng);
    const double d = FunctionalBasis::rkhs_distance(z1, z2);
    EXPECT_NEAR(basis.rkhs_distance_alpha_form(z1, z2), d, 1e-10 * std::max(1.0, d));
  }
}

TEST_P(KfoBasisConventions, CoordinatesInvertGridValues) {
  BasisOptions o;
  o.convention = GetParam();
  FunctionalBasis basis(2, o);
  Rng rng = make_rng(5);
  const Vec z = basis.sample_direction(rng);
  EXPECT_LT((basis.coordinates(basis.grid_values(z)) - z).cwiseAbs().maxCoeff(), 1e-8);
}

INSTANTIATE_TEST_SUITE_P(Both, KfoBasisConventions,
                         ::testing::Values(GridConvention::Paper, GridConvention::CodeCompat));

namespace {
// The paper's grid written out in full, independently of FunctionalBasis: all m² ordered pairs of m points on the
// cube's diagonal, the m² × m² hyper-Gram of eq. (3) and its top eigenpairs (the full pair grid).
struct FullGrid {
  Vec r;        // within-pair distance of each of the m² pairs
  Mat gram;     // eq. (3) between the pairs
  Vec values;   // top eigenvalues, descending
  Mat vectors;  // their eigenvectors
};
FullGrid full_grid(int dim, int m, const HyperkernelParams& p, int keep) {
  FullGrid g;
  g.r.resize(m * m);
  for (int a = 0; a < m * m; ++a) {
    const Vec ga = Vec::Constant(dim, static_cast<double>(a / m) / (m - 1));
    const Vec gb = Vec::Constant(dim, static_cast<double>(a % m) / (m - 1));
    g.r(a) = (ga - gb).norm();
  }
  g.gram.resize(m * m, m * m);
  for (int a = 0; a < m * m; ++a)
    for (int b = 0; b < m * m; ++b) g.gram(a, b) = harmonic(g.r(a), g.r(b), p);
  Eigen::SelfAdjointEigenSolver<Mat> es(g.gram);
  const int n = m * m;
  g.values.resize(keep);
  g.vectors.resize(n, keep);
  for (int i = 0; i < keep; ++i) {
    g.values(i) = es.eigenvalues()(n - 1 - i);
    g.vectors.col(i) = es.eigenvectors().col(n - 1 - i);
  }
  return g;
}
}  // namespace

TEST(KfoBasis, DistinctDistanceBasisEqualsTheFullPairGrid) {
  // The m² pairs have only m distinct distances. The m-point representation must give the same
  // eigenvalues and, component by component, the same functional (up to the eigenvector's sign) as the
  // m² × m² construction, and hence the same kernel matrices on data.
  for (int dim : {1, 3}) {
    const int m = 6;
    BasisOptions o;
    o.base_points = m;
    o.components = 4;
    o.hyper = {0.7, 0.6};
    const FunctionalBasis basis(dim, o);
    ASSERT_EQ(basis.grid_size(), m);
    ASSERT_EQ(basis.components(), 4);
    const FullGrid full = full_grid(dim, m, o.hyper, 4);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(basis.eigenvalues()(i), full.values(i), 1e-10 * full.values(0));
    // The rank of the full hyper-Gram is the number of distinct distances.
    Eigen::SelfAdjointEigenSolver<Mat> es(full.gram);
    const int rank = static_cast<int>((es.eigenvalues().array() > 1e-10 * es.eigenvalues().maxCoeff()).count());
    EXPECT_LE(rank, m);
    Rng rng = make_rng(4);
    const Mat X = Mat::NullaryExpr(7, dim, [&]() { return std::uniform_real_distribution<double>(0, 1)(rng); });
    for (int i = 0; i < 4; ++i) {
      Vec z = Vec::Zero(4);
      z(i) = 1.0;
      const Vec w = basis.alpha(z);
      const Vec alpha_full = full.vectors.col(i) / std::sqrt(full.values(i));  // old P e_i
      Mat K_new(7, 7), K_old(7, 7);
      for (int a = 0; a < 7; ++a)
        for (int b = 0; b < 7; ++b) {
          const double r = (X.row(a) - X.row(b)).norm();
          double kn = 0.0, ko = 0.0;
          for (int u = 0; u < basis.grid_size(); ++u) kn += w(u) * harmonic(r, basis.grid_distances()(u), o.hyper);
          for (int j = 0; j < m * m; ++j) ko += alpha_full(j) * harmonic(r, full.r(j), o.hyper);
          K_new(a, b) = kn;
          K_old(a, b) = ko;
        }
      const double sign = K_new.cwiseProduct(K_old).sum() >= 0.0 ? 1.0 : -1.0;
      EXPECT_LT((K_new - sign * K_old).cwiseAbs().maxCoeff(), 1e-8 * K_old.cwiseAbs().maxCoeff()) << "component " << i;
    }
  }
  // Default m: Ng ≈ 10·D (paper) but at least N base points; the authors' code uses m = 4.
  EXPECT_EQ(default_base_points(1, BasisOptions{}), 10);
  EXPECT_EQ(default_base_points(60, BasisOptions{}), 25);
  BasisOptions code;
  code.convention = GridConvention::CodeCompat;
  EXPECT_EQ(default_base_points(60, code), 4);
}

TEST(KfoBasis, FullRankGridInterpolatesGridValues) {
  // Code-compat 4×4 grid (full rank): keeping all 16 eigenpairs makes P Pᵀ = κ_G^{-1}, so eq. (4) interpolates
  // the grid values: κ_G α = κ_G κ_G^{-1} k = k.
  BasisOptions o;
  o.convention = GridConvention::CodeCompat;
  o.components = 16;
  o.hyper = {0.8, 0.6};
  o.rel_eig_floor = 1e-14;
  FunctionalBasis basis(1, o);
  ASSERT_EQ(basis.components(), 16);
  Rng rng = make_rng(2);
  const Vec z = basis.sample_direction(rng);
  const Vec k = basis.grid_values(z);
  EXPECT_LT((basis.hyper_gram() * basis.alpha(z) - k).cwiseAbs().maxCoeff(), 1e-8 * k.cwiseAbs().maxCoeff());
}
