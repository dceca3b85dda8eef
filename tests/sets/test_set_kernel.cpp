// Set kernel and approximate set kernel against brute force, invariants, the paper's theorems (and
// where they fail), and gradients against finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "shuffled_set.hpp"

namespace kbo {
namespace {

Mat signed_random_sets(int n, int m, int d, Rng& rng) { return random_sets(n, m, d, rng, -1.0, 1.0); }

// Brute-force mean of the base kernel over all element pairs.
double brute_kset(const Kernel& base, const Vec& x, const Vec& y, int m, int d) {
  const Mat A = SetSpace::to_elements(x, m, d), B = SetSpace::to_elements(y, m, d);
  double s = 0;
  for (int a = 0; a < A.rows(); ++a)
    for (int b = 0; b < B.rows(); ++b) s += base(A.row(a).transpose(), B.row(b).transpose());
  return s / (A.rows() * B.rows());
}

// Elements kept by Algorithm 1, computed directly from the definition.
Vec brute_subset(const Vec& x, int m, int d, const SetSubsetDraw& draw) {
  const Mat E = SetSpace::to_elements(x, m, d);
  std::vector<std::pair<double, int>> proj;
  for (int i = 0; i < m; ++i) proj.push_back({E.row(i).dot(draw.w), i});
  std::stable_sort(proj.begin(), proj.end(), [](auto& a, auto& b) { return a.first < b.first; });
  Mat S(draw.ranks.size(), d);
  for (std::size_t j = 0; j < draw.ranks.size(); ++j) S.row(j) = E.row(proj[draw.ranks[j]].second);
  return SetSpace::from_elements(S);
}

StationaryKernel base_kernel(StationaryType t, int d, bool ard, Rng& rng) {
  StationaryKernel k(t, d, ard, 0.7, 1.3);
  if (ard) {
    std::uniform_real_distribution<double> u(0.4, 1.5);
    Vec l(d);
    for (int i = 0; i < d; ++i) l(i) = u(rng);
    k.set_lengthscales(l);
  }
  return k;
}

TEST(SetKernel, FullMatchesBruteForceForEveryBaseKernel) {
  Rng rng = make_rng(1);
  for (StationaryType t : {StationaryType::RBF, StationaryType::Matern12, StationaryType::Matern32,
                           StationaryType::Matern52}) {
    for (bool ard : {false, true}) {
      const int m = 5, d = 3;
      const StationaryKernel base = base_kernel(t, d, ard, rng);
      SetKernel k(base, m, d);
      const Mat X = signed_random_sets(4, m, d, rng), Y = signed_random_sets(3, m, d, rng);
      const Mat K = k.cross(X, Y);
      const Mat G = k.gram(X);
      const Vec D = k.diag(X);
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 3; ++j)
          EXPECT_NEAR(K(i, j), brute_kset(base, X.row(i).transpose(), Y.row(j).transpose(), m, d), 1e-12);
        for (int j = 0; j < 4; ++j)
          EXPECT_NEAR(G(i, j), brute_kset(base, X.row(i).transpose(), X.row(j).transpose(), m, d), 1e-12);
        EXPECT_NEAR(D(i), G(i, i), 1e-12);
      }
    }
  }
}

TEST(SetKernel, SingletonSetsReduceToTheBaseKernel) {
  Rng rng = make_rng(2);
  const StationaryKernel base = base_kernel(StationaryType::Matern52, 4, true, rng);
  SetKernel k(base, 1, 4);
  const Mat X = signed_random_sets(6, 1, 4, rng), Y = signed_random_sets(5, 1, 4, rng);
  EXPECT_TRUE(k.cross(X, Y).isApprox(base.cross(X, Y), 1e-12));
}

TEST(SetKernel, TiledComputationMatchesBruteForce) {
  // 12 sets of 300 elements = 3600 stacked elements > kTileElements: several tiles, incl. partial ones.
  Rng rng = make_rng(3);
  const int m = 300, d = 2;
  const StationaryKernel base(StationaryType::Matern52, d, false, 0.5);
  SetKernel k(base, m, d);
  const Mat X = signed_random_sets(12, m, d, rng);
  const Mat G = k.gram(X);
  const Mat C = k.cross(X, X.topRows(9));
  for (auto [i, j] : {std::pair{0, 0}, {0, 11}, {7, 3}, {11, 11}, {6, 8}}) {
    const double ref = brute_kset(base, X.row(i).transpose(), X.row(j).transpose(), m, d);
    EXPECT_NEAR(G(i, j), ref, 1e-12);
    if (j < 9) {
      EXPECT_NEAR(C(i, j), ref, 1e-12);
    }
  }
  EXPECT_EQ((G - G.transpose()).norm(), 0.0);
}

TEST(SetKernel, PermutationInvariantFullAndApprox) {
  Rng rng = make_rng(4);
  const int m = 8, d = 2;
  const StationaryKernel base(StationaryType::Matern52, d, true);
  for (SetKernelMode mode : {SetKernelMode::Full, SetKernelMode::Approx}) {
    SetKernel k(base, m, d, mode, 3, 17);
    const Mat X = signed_random_sets(5, m, d, rng), Y = signed_random_sets(4, m, d, rng);
    Mat Xs = X, Ys = Y;
    for (int i = 0; i < 5; ++i) Xs.row(i) = shuffled(X.row(i).transpose(), m, d, rng).transpose();
    for (int i = 0; i < 4; ++i) Ys.row(i) = shuffled(Y.row(i).transpose(), m, d, rng).transpose();
    EXPECT_TRUE(k.cross(Xs, Ys).isApprox(k.cross(X, Y), 1e-13));
    EXPECT_TRUE(k.gram(Xs).isApprox(k.gram(X), 1e-13));
    EXPECT_TRUE(k.diag(Xs).isApprox(k.diag(X), 1e-13));
  }
}

TEST(SetKernel, GramIsPositiveSemidefinite) {
  Rng rng = make_rng(5);
  const int m = 6, d = 2;
  const StationaryKernel base(StationaryType::Matern52, d, false, 0.5);
  for (SetKernelMode mode : {SetKernelMode::Full, SetKernelMode::Approx}) {
    SetKernel k(base, m, d, mode, 2, 3);
    const Mat X = signed_random_sets(40, m, d, rng);
    const SymmetricEigen e = symmetric_eigen(k.gram(X));
    EXPECT_GT(e.values.minCoeff(), -1e-12 * e.values.maxCoeff());
  }
}

TEST(SetKernel, ApproxSelectsTheRanksOfAlgorithm1) {
  Rng rng = make_rng(6);
  const int m = 9, d = 3, L = 4;
  const StationaryKernel base(StationaryType::Matern52, d, false);
  SetKernel k(base, m, d, SetKernelMode::Approx, L, 99);
  const Mat X = signed_random_sets(5, m, d, rng), Y = signed_random_sets(3, m, d, rng);
  const Mat K = k.cross(X, Y);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec xs = brute_subset(X.row(i).transpose(), m, d, k.draw());
      const Vec ys = brute_subset(Y.row(j).transpose(), m, d, k.draw());
      EXPECT_NEAR(K(i, j), brute_kset(base, xs, ys, L, d), 1e-13);
    }
}

TEST(SetKernel, ApproxWithLEqualMIsTheFullKernel) {
  Rng rng = make_rng(7);
  const int m = 7, d = 2;
  const StationaryKernel base(StationaryType::Matern52, d, true);
  SetKernel full(base, m, d), approx(base, m, d, SetKernelMode::Approx, m, 5);
  const Mat X = signed_random_sets(6, m, d, rng), Y = signed_random_sets(4, m, d, rng);
  for (int rep = 0; rep < 3; ++rep) {
    approx.redraw();
    EXPECT_TRUE(approx.cross(X, Y).isApprox(full.cross(X, Y), 1e-13));
    EXPECT_TRUE(approx.gram(X).isApprox(full.gram(X), 1e-13));
  }
}

// E_π[k̃ | w] computed by enumerating all m! permutations equals the rank-coupling formula
// (1/L)·A + (1 − 1/L)·B (A: same-rank pairs, B: different-rank pairs along w).
TEST(SetKernel, ApproxExpectationOverPermutationsIsTheRankCouplingFormula) {
  Rng rng = make_rng(8);
  const int m = 5, d = 2, L = 2;
  const StationaryKernel base(StationaryType::Matern52, d, false, 0.8);
  SetKernel k(base, m, d, SetKernelMode::Approx, L, 1);
  const Mat XY = signed_random_sets(2, m, d, rng);
  const Vec x = XY.row(0).transpose(), y = XY.row(1).transpose();
  Vec w(2);
  w << 0.3, -1.1;
  std::vector<int> perm(m);
  std::iota(perm.begin(), perm.end(), 0);
  double sum = 0;
  int count = 0;
  do {
    k.set_draw({w, {perm[0], perm[1]}});
    sum += k.cross(x.transpose(), y.transpose())(0, 0);
    ++count;
  } while (std::next_permutation(perm.begin(), perm.end()));
  const double mean = sum / count;
  // Formula from the ranked elements.
  SetKernel full_order(base, m, d, SetKernelMode::Approx, m, 1);
  std::vector<int> all(m);
  std::iota(all.begin(), all.end(), 0);
  full_order.set_draw({w, all});
  const Mat xr = SetSpace::to_elements(full_order.select(x.transpose()).row(0).transpose(), m, d);
  const Mat yr = SetSpace::to_elements(full_order.select(y.transpose()).row(0).transpose(), m, d);
  const Mat Kr = base.cross(xr, yr);
  const double A = Kr.diagonal().mean();
  const double B = (Kr.sum() - Kr.diagonal().sum()) / (m * (m - 1));
  EXPECT_NEAR(mean, A / L + (1.0 - 1.0 / L) * B, 1e-13);
  const double kset = brute_kset(base, x, y, m, d);
  EXPECT_NEAR(kset, A / m + (1.0 - 1.0 / m) * B, 1e-13);
}

// Theorem 1 holds where the two subsets are effectively independent: a set whose elements are all
// equal makes the rank coupling irrelevant, so k̃ must be unbiased; checked by Monte Carlo over
// (w, π) with a 4.5-sigma bound from the sample standard deviation.
TEST(SetKernel, ApproxIsUnbiasedWhenTheCouplingVanishesMonteCarlo) {
  Rng rng = make_rng(9);
  const int m = 10, d = 2, L = 3, N = 4000;
  const StationaryKernel base(StationaryType::Matern52, d, false, 0.6);
  SetKernel k(base, m, d, SetKernelMode::Approx, L, 2);
  Vec x = signed_random_sets(1, m, d, rng).row(0).transpose();
  Vec y(m * d);
  for (int i = 0; i < m; ++i) y.segment(i * d, d) << 0.2, -0.3;
  double s = 0, s2 = 0;
  for (int t = 0; t < N; ++t) {
    k.redraw();
    const double v = k.cross(x.transpose(), y.transpose())(0, 0);
    s += v;
    s2 += v * v;
  }
  const double mean = s / N, sd = std::sqrt((s2 - N * mean * mean) / (N - 1));
  const double truth = brute_kset(base, x, y, m, d);
  EXPECT_GT(sd, 0.0);
  EXPECT_LT(std::abs(mean - truth), 4.5 * sd / std::sqrt(N));
}

// Where Theorem 1 fails: on the diagonal both subsets coincide, so with L = 1 the estimate is always
// k(x, x) = variance, far above k_set(X, X) = mean over all pairs.
TEST(SetKernel, ApproxIsBiasedOnTheDiagonalUnlikeTheorem1Claims) {
  Rng rng = make_rng(10);
  const int m = 10, d = 2;
  const StationaryKernel base(StationaryType::Matern52, d, false, 0.3, 2.0);
  SetKernel k(base, m, d, SetKernelMode::Approx, 1, 4);
  SetKernel full(base, m, d);
  const Mat X = signed_random_sets(1, m, d, rng);
  for (int t = 0; t < 20; ++t) {
    k.redraw();
    EXPECT_NEAR(k.gram(X)(0, 0), 2.0, 1e-12);
  }
  EXPECT_LT(full.gram(X)(0, 0), 1.0);
}

// Theorem 2 (k ≥ 0): its proof's pointwise step k̃ ≤ (m/L)² k_set holds for every draw, and the
// Monte Carlo variance is below (m⁴/L⁴ − 1) k_set².
TEST(SetKernel, Theorem2VarianceBound) {
  Rng rng = make_rng(11);
  const int m = 12, d = 2, N = 2000;
  const StationaryKernel base(StationaryType::Matern52, d, false, 0.5);
  const Mat XY = signed_random_sets(2, m, d, rng);
  const double kset = brute_kset(base, XY.row(0).transpose(), XY.row(1).transpose(), m, d);
  for (int L : {1, 3, 6}) {
    SetKernel k(base, m, d, SetKernelMode::Approx, L, 100 + L);
    double s = 0, s2 = 0;
    for (int t = 0; t < N; ++t) {
      k.redraw();
      const double v = k.cross(XY.topRows(1), XY.bottomRows(1))(0, 0);
      ASSERT_LE(v, (double(m) * m) / (double(L) * L) * kset * (1 + 1e-12));
      ASSERT_GE(v, 0.0);
      s += v;
      s2 += v * v;
    }
    const double mean = s / N, var = (s2 - N * mean * mean) / (N - 1);
    const double bound = (std::pow(double(m) / L, 4) - 1.0) * kset * kset;
    EXPECT_LT(var, bound);
  }
}

TEST(SetKernel, DrawFollowsTheTrainingSetAndSurvivesCloning) {
  Rng rng = make_rng(12);
  const int m = 6, d = 2;
  SetKernel k(StationaryKernel(StationaryType::Matern52, d, false), m, d, SetKernelMode::Approx, 2, 7);
  const Mat X1 = signed_random_sets(5, m, d, rng);
  Mat X2 = X1;
  X2(0, 0) += 0.01;
  k.condition_on(X1);
  const SetSubsetDraw a = k.draw();
  k.condition_on(X1);  // same data (e.g. refitting hyperparameters): same draw
  EXPECT_EQ(k.draw().w, a.w);
  EXPECT_EQ(k.draw().ranks, a.ranks);
  k.condition_on(X2);  // new data: new draw
  EXPECT_NE(k.draw().w, a.w);
  // The draw is a function of (seed, X_train): a fresh copy conditioned on X1 reproduces it.
  SetKernel k2(StationaryKernel(StationaryType::Matern52, d, false), m, d, SetKernelMode::Approx, 2, 7);
  k2.condition_on(X1);
  EXPECT_EQ(k2.draw().w, a.w);
  auto c = k.clone();
  const Mat Y = signed_random_sets(3, m, d, rng);
  EXPECT_EQ(c->cross(Y, X1), k.cross(Y, X1));
}

// ---------------------------------------------------------------- gradients
double fd_step() { return 1e-6; }

void check_param_gradients(SetKernel& k, const Mat& X) {
  const std::vector<Mat> G = k.gram_gradients(X);
  const Vec p0 = k.log_params();
  ASSERT_EQ(static_cast<int>(G.size()), p0.size());
  Rng rng = make_rng(77);
  std::normal_distribution<double> nd;
  Mat W(X.rows(), X.rows());
  for (int i = 0; i < W.size(); ++i) W(i) = nd(rng);
  W = 0.5 * (W + W.transpose()).eval();
  const Vec contract = k.gram_gradient_contract(X, W);
  for (int p = 0; p < p0.size(); ++p) {
    Vec pp = p0, pm = p0;
    pp(p) += fd_step();
    pm(p) -= fd_step();
    k.set_log_params(pp);
    const Mat Kp = k.gram(X);
    k.set_log_params(pm);
    const Mat Km = k.gram(X);
    k.set_log_params(p0);
    const Mat fd = (Kp - Km) / (2 * fd_step());
    EXPECT_LT((G[p] - fd).cwiseAbs().maxCoeff(), 1e-7) << k.describe() << " param " << p;
    EXPECT_NEAR(contract(p), W.cwiseProduct(G[p]).sum(), 1e-9 * (1 + std::abs(contract(p))));
  }
}

TEST(SetKernel, HyperparameterGradientsMatchFiniteDifferences) {
  Rng rng = make_rng(13);
  const int m = 4, d = 3;
  for (StationaryType t : {StationaryType::RBF, StationaryType::Matern32, StationaryType::Matern52}) {
    for (bool ard : {false, true}) {
      for (SetKernelMode mode : {SetKernelMode::Full, SetKernelMode::Approx}) {
        SetKernel k(base_kernel(t, d, ard, rng), m, d, mode, 2, 21);
        check_param_gradients(k, signed_random_sets(7, m, d, rng));
      }
    }
  }
}

TEST(SetKernel, InputGradientsMatchFiniteDifferences) {
  Rng rng = make_rng(14);
  const int m = 5, d = 2;
  for (StationaryType t : {StationaryType::RBF, StationaryType::Matern32, StationaryType::Matern52}) {
    for (SetKernelMode mode : {SetKernelMode::Full, SetKernelMode::Approx}) {
      SetKernel k(base_kernel(t, d, true, rng), m, d, mode, 3, 8);
      const Mat X = signed_random_sets(4, m, d, rng);
      const Vec x = signed_random_sets(1, m, d, rng).row(0).transpose();
      const Mat g = k.cross_grad_x(x, X);
      const Vec gd = k.diag_grad_x(x);
      ASSERT_EQ(g.rows(), m * d);
      ASSERT_EQ(g.cols(), 4);
      for (int i = 0; i < x.size(); ++i) {
        Vec xp = x, xm = x;
        xp(i) += fd_step();
        xm(i) -= fd_step();
        const Mat fd = (k.cross(xp.transpose(), X) - k.cross(xm.transpose(), X)) / (2 * fd_step());
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(g(i, j), fd(0, j), 1e-7);
        const double fdd = (k.diag(xp.transpose())(0) - k.diag(xm.transpose())(0)) / (2 * fd_step());
        EXPECT_NEAR(gd(i), fdd, 1e-7);
      }
    }
  }
}

TEST(SetKernel, FactoryAndBadInput) {
  auto k = make_set_kernel("matern52", 20, 2, true, "approx", 5, 1);
  EXPECT_EQ(k->num_params(), 3);
  EXPECT_NE(k->describe().find("approx L=5"), std::string::npos);
  EXPECT_EQ(make_set_kernel("rbf", 4, 1, false, "full", 0, 1)->num_params(), 2);
  EXPECT_THROW(make_set_kernel("matern52", 20, 2, true, "exact", 5, 1), InputError);
  EXPECT_THROW(make_set_kernel("matern52", 20, 2, true, "approx", 21, 1), InputError);
  EXPECT_THROW(make_set_kernel("cosine", 20, 2, true, "full", 0, 1), InputError);
  EXPECT_THROW(make_set_kernel("matern52", 0, 2, true, "full", 0, 1), InputError);
  Mat wrong(2, 39);
  EXPECT_THROW(k->gram(wrong), InputError);
  SetKernel sk(StationaryKernel(StationaryType::Matern52, 2, false), 4, 2, SetKernelMode::Approx, 2);
  EXPECT_THROW(sk.set_draw({Vec::Ones(2), {1, 1}}), InputError);
  EXPECT_THROW(sk.set_draw({Vec::Ones(3), {0, 1}}), InputError);
}

// The mode parsed from text names its key and the allowed values when the text is unknown.
TEST(SetKernel, ModeParseErrorNamesTheKeyAndTheAllowedValues) {
  try {
    make_set_kernel("matern52", 20, 2, true, "exact", 5, 1);
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("set_kernel"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'exact'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("full, approx"), std::string::npos) << msg;
  }
  EXPECT_EQ(parse_set_kernel_mode("approx"), SetKernelType::Approx);
  for (auto type : {SetKernelType::Full, SetKernelType::Approx})
    EXPECT_EQ(make_set_kernel("matern52", 6, 2, true, type, 3, 1)->describe(),
              make_set_kernel("matern52", 6, 2, true, enum_name(type), 3, 1)->describe());
}

}  // namespace
TEST(SetKernel, DeclaresTheBaseKernelsParameterSpecs) {
  // Lengthscales over the d element coordinates (ARD: coordinate i < d), then the variance.
  for (const SetKernelMode mode : {SetKernelMode::Full, SetKernelMode::Approx}) {
    SetKernel ard(StationaryKernel(StationaryType::Matern52, 2, true), 4, 2, mode, 2, 1);
    const auto specs = ard.param_specs();
    ASSERT_EQ(static_cast<int>(specs.size()), ard.num_params());
    ASSERT_EQ(specs.size(), 3u);
    EXPECT_EQ(specs[0].role, ParamRole::Lengthscale);
    EXPECT_EQ(specs[0].dim, 0);
    EXPECT_EQ(specs[1].role, ParamRole::Lengthscale);
    EXPECT_EQ(specs[1].dim, 1);
    EXPECT_EQ(specs[2].role, ParamRole::Variance);
    SetKernel iso(StationaryKernel(StationaryType::RBF, 2, false), 4, 2, mode, 2, 1);
    ASSERT_EQ(iso.param_specs().size(), 2u);
    EXPECT_EQ(iso.param_specs()[0].role, ParamRole::Lengthscale);
    EXPECT_EQ(iso.param_specs()[0].dim, -1);
    EXPECT_EQ(iso.param_specs()[1].role, ParamRole::Variance);
  }
}

}  // namespace kbo
