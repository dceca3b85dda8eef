// Invariant kernels: invariance, symmetry, fast path = brute force, PSD projection, closed forms
// against numerical maximisation/averaging, and analytic gradients against finite differences.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>

#include "kbo/invariance/kernels.hpp"

using namespace kbo;

namespace {
Mat random_points(int n, int d, Rng& rng, double lo = 0.0, double hi = 1.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  Mat X(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) X(i, j) = u(rng);
  return X;
}
Vec center(int d) { return Vec::Constant(d, 0.5); }
KernelPtr iso(const std::string& type, int d, double ell, double var = 1.3) {
  return make_stationary(type, d, false, ell, var);
}
// x ↦ c + g(x − c) for a random group element (finite or continuous).
Mat act(const Group& g, const Mat& X, Rng& rng) {
  Mat out(X.rows(), X.cols());
  const Vec c = center(static_cast<int>(X.cols()));
  for (int i = 0; i < X.rows(); ++i) out.row(i) = (c + g.random_apply(X.row(i).transpose() - c, rng)).transpose();
  return out;
}
double min_eig(const Mat& K) { return Eigen::SelfAdjointEigenSolver<Mat>(K).eigenvalues()[0]; }

struct GroupCase {
  std::string name;
  int dim;
  nlohmann::json options = nlohmann::json::object();
};
std::vector<GroupCase> all_groups() {
  return {{"permutation", 3},
          {"signflip", 3},
          {"hyperoctahedral", 3},
          {"blocks:2", 4},
          {"cyclic", 4},
          {"rotation", 2},
          {"scaling", 2},
          {"custom", 2, {{"matrices", nlohmann::json::parse("[[[0,1],[1,0]], [[-1,0],[0,1]]]")}}}};
}

// Central finite differences of x ↦ k(x, Y) (columns) for gradient checks.
Mat fd_grad_x(const Kernel& k, const Vec& x, const Mat& Y, double h = 1e-6) {
  Mat out(x.size(), Y.rows());
  for (int d = 0; d < x.size(); ++d) {
    Vec a = x, b = x;
    a[d] += h;
    b[d] -= h;
    out.row(d) = (k.cross(a.transpose(), Y) - k.cross(b.transpose(), Y)).row(0) / (2 * h);
  }
  return out;
}
Vec fd_diag_grad(const Kernel& k, const Vec& x, double h = 1e-6) {
  Vec out(x.size());
  for (int d = 0; d < x.size(); ++d) {
    Vec a = x, b = x;
    a[d] += h;
    b[d] -= h;
    out[d] = (k.diag(a.transpose())[0] - k.diag(b.transpose())[0]) / (2 * h);
  }
  return out;
}
// Finite differences of the Gram matrix on X in each log-parameter; the kernel is re-conditioned on
// X at every θ (as the GP does).
std::vector<Mat> fd_gram_grads(const Kernel& k0, const Mat& X, double h = 1e-6) {
  std::vector<Mat> out;
  const Vec p = k0.log_params();
  for (int i = 0; i < p.size(); ++i) {
    auto a = k0.clone(), b = k0.clone();
    Vec pa = p, pb = p;
    pa[i] += h;
    pb[i] -= h;
    a->set_log_params(pa);
    b->set_log_params(pb);
    a->condition_on(X);
    b->condition_on(X);
    out.push_back((a->gram(X) - b->gram(X)) / (2 * h));
  }
  return out;
}
}  // namespace

TEST(InvariantKernels, InvariantUnderRandomGroupElementsAndSymmetric) {
  Rng rng = make_rng(11);
  for (const auto& gc : all_groups()) {
    for (const std::string mode : {"max", "average"}) {
      for (bool normalize : {false, true}) {
        if (mode == "max" && normalize) continue;
        nlohmann::json opt = gc.options;
        if (normalize) opt["normalize"] = true;
        // RBF for rotation: its average has the exact (Bessel) closed form.
        const std::string type = gc.name == "rotation" ? "rbf" : "matern52";
        auto k = make_invariant_kernel(iso(type, gc.dim, 0.3), gc.name, mode, center(gc.dim), opt);
        const Mat D = random_points(12, gc.dim, rng);
        k->condition_on(D);  // projected kernel: a real design set
        const Mat X = random_points(5, gc.dim, rng), Y = random_points(6, gc.dim, rng);
        auto g = make_group(gc.name, gc.dim, gc.options);
        const Mat K = k->cross(X, Y);
        const Mat Kg = k->cross(act(*g, X, rng), act(*g, Y, rng));
        const std::string what = gc.name + "/" + mode + (normalize ? "/normalized" : "");
        // Scaling acts on directions, so k(g x, g' y) = k(x, y) exactly; rotation averages of Matérn
        // use an angle rule (invariant under its own angles only), so they are excluded here.
        EXPECT_LT((K - Kg).cwiseAbs().maxCoeff(), 1e-10) << what;
        EXPECT_LT((k->cross(Y, X) - K.transpose()).cwiseAbs().maxCoeff(), 1e-12) << what;
        const Mat G = k->gram(X);
        EXPECT_LT((G - G.transpose()).cwiseAbs().maxCoeff(), 1e-12) << what;
        EXPECT_LT((k->diag(X) - G.diagonal()).cwiseAbs().maxCoeff(), 1e-10) << what;
      }
    }
  }
}

TEST(InvariantKernels, RotationAverageOfMaternIsInvariantUnderItsAngleRule) {
  // Matérn has no closed-form rotation average: kbo averages over m equally spaced angles, which is
  // exactly invariant under rotations by multiples of 2π/m and converges to the full average.
  Rng rng = make_rng(12);
  auto k = make_invariant_kernel(iso("matern52", 2, 0.3), "rotation", "average", center(2), {{"quadrature", 32}});
  const Mat X = random_points(4, 2, rng), Y = random_points(4, 2, rng);
  Mat Yr = Y;
  const Mat R = RotationGroup::rotation(2 * M_PI * 5 / 32.0);
  for (int i = 0; i < 4; ++i) Yr.row(i) = (center(2) + R * (Y.row(i).transpose() - center(2))).transpose();
  EXPECT_LT((k->cross(X, Y) - k->cross(X, Yr)).cwiseAbs().maxCoeff(), 1e-12);
  auto k512 = make_invariant_kernel(iso("matern52", 2, 0.3), "rotation", "average", center(2), {{"quadrature", 512}});
  EXPECT_LT((k->cross(X, Y) - k512->cross(X, Y)).cwiseAbs().maxCoeff(), 1e-3);
}

TEST(InvariantKernels, MaxFastPathEqualsBruteForce) {
  Rng rng = make_rng(13);
  std::vector<GroupCase> cases = {{"permutation", 4}, {"signflip", 4},        {"hyperoctahedral", 4},
                                  {"blocks:3", 6},    {"blocks:4", 8},        {"cyclic", 5},
                                  {"hyperoctahedral", 5}, {"custom", 2, all_groups().back().options}};
  for (const auto& gc : cases)
    for (const std::string type : {"matern52", "rbf", "matern12"}) {
      const Vec c = center(gc.dim);
      auto g = make_group(gc.name, gc.dim, gc.options);
      MaxKernel fast(iso(type, gc.dim, 0.4), g, c, OrbitPath::Fast);
      MaxKernel brute(iso(type, gc.dim, 0.4), g, c, OrbitPath::Brute);
      ASSERT_TRUE(fast.uses_fast_path());
      ASSERT_FALSE(brute.uses_fast_path());
      const Mat X = random_points(7, gc.dim, rng), Y = random_points(6, gc.dim, rng);
      EXPECT_LT((fast.cross(X, Y) - brute.cross(X, Y)).cwiseAbs().maxCoeff(), 1e-12) << gc.name << " " << type;
      // On the Gram diagonal r = 0: the brute path goes through the base kernel's ||x||²+||y||²−2x·y
      // distances (error ~1e-8 in r), to which only Matérn-1/2 (slope −1 at 0) is sensitive.
      EXPECT_LT((fast.gram(X) - brute.gram(X)).cwiseAbs().maxCoeff(), type == "matern12" ? 1e-7 : 1e-12)
          << gc.name << " " << type;
      const auto pf = fast.cross_param_gradients(X, Y), pb = brute.cross_param_gradients(X, Y);
      for (std::size_t p = 0; p < pf.size(); ++p)
        EXPECT_LT((pf[p] - pb[p]).cwiseAbs().maxCoeff(), 1e-10) << gc.name << " " << type;
      if (type != "matern12") {  // Matérn-1/2 has a kink at 0, compare gradients on smooth kernels
        const Vec x = X.row(0).transpose();
        EXPECT_LT((fast.cross_grad_x(x, Y) - brute.cross_grad_x(x, Y)).cwiseAbs().maxCoeff(), 1e-10) << gc.name;
      }
    }
}

TEST(InvariantKernels, ProjectedGramIsPsdWhereTheMaxGramIsNot) {
  // Search (bounded) for a design on which the raw max Gram matrix is indefinite, then check the
  // projected one is PSD and that the eigenvalues above the threshold are reproduced.
  Rng rng = make_rng(14);
  bool found = false;
  for (int trial = 0; trial < 200 && !found; ++trial) {
    // Cyclic shifts are not a reflection group: their orbit distance is not Euclidean, k_max indefinite.
    const Mat D = random_points(30, 4, rng);
    MaxKernel mk(iso("matern52", 4, 0.3), make_group("cyclic", 4), center(4));
    const Mat K = mk.gram(D);
    if (min_eig(K) > -1e-3) continue;
    found = true;
    ProjectedKernel pk(mk, 1e-4, true);
    pk.condition_on(D);
    const Mat Kp = pk.gram(D);
    EXPECT_GT(min_eig(Kp), -1e-10);
    // On D the Nyström extension reproduces K₊ = V max(Λ, 0 | λ ≥ τ) Vᵀ (Frobenius-nearest PSD).
    Eigen::SelfAdjointEigenSolver<Mat> es(K);
    Vec lam = es.eigenvalues();
    for (int i = 0; i < lam.size(); ++i)
      if (lam[i] < 1e-4) lam[i] = 0.0;
    const Mat Kplus = es.eigenvectors() * lam.asDiagonal() * es.eigenvectors().transpose();
    EXPECT_LT((Kp - Kplus).cwiseAbs().maxCoeff(), 1e-8);
    // and the projected kernel at new points is PSD jointly with D
    const Mat Q = random_points(10, 4, rng);
    Mat all(40, 4);
    all << D, Q;
    EXPECT_GT(min_eig(pk.gram(all)), -1e-10);
  }
  EXPECT_TRUE(found) << "no indefinite max-kernel Gram matrix found";
}

TEST(InvariantKernels, ReflectionGroupMaxKernelsAreTheBaseKernelOnCanonicalRepresentatives) {
  // For permutations, sign flips and signed permutations, min_g ||z − g w|| = ||Φz − Φw|| with
  // Φ = sort, |·|, sort∘|·| (the fast paths' closed forms), so k_max(x, y) = k(Φx, Φy) is PSD.
  Rng rng = make_rng(22);
  auto base = iso("matern52", 4, 0.3);
  for (const std::string name : {"permutation", "signflip", "hyperoctahedral"}) {
    MaxKernel mk(base->clone(), make_group(name, 4), center(4));
    EXPECT_TRUE(mk.known_psd());
    const Mat X = random_points(40, 4, rng);
    Mat F(40, 4);
    for (int i = 0; i < 40; ++i) {
      Vec z = X.row(i).transpose() - center(4);
      if (name != "permutation") z = z.cwiseAbs();
      if (name != "signflip") std::sort(z.data(), z.data() + 4);
      F.row(i) = z.transpose();
    }
    EXPECT_LT((mk.gram(X) - base->gram(F)).cwiseAbs().maxCoeff(), 1e-12) << name;
    EXPECT_GT(min_eig(mk.gram(X)), -1e-12) << name;
  }
  EXPECT_FALSE(MaxKernel(base->clone(), make_group("cyclic", 4), center(4)).known_psd());
  EXPECT_FALSE(MaxKernel(base->clone(), make_group("blocks:2", 4), center(4)).known_psd());
}

TEST(InvariantKernels, ProjectedEqualsMaxOnTheDesignSetWhenAlreadyPsd) {
  // Points in the positive orthant around the centre: every sign flip aligns to the identity there,
  // so k_max = k on D (PSD), and the projection must give back k_max exactly.
  Rng rng = make_rng(15);
  const Mat D = random_points(15, 3, rng, 0.55, 1.0);
  MaxKernel mk(iso("matern52", 3, 0.2), make_group("signflip", 3), center(3));
  ASSERT_GT(min_eig(mk.gram(D)), 1e-6);
  ProjectedKernel pk(mk, 1e-10, true);
  pk.condition_on(D);
  EXPECT_EQ(pk.rank(), 15);
  EXPECT_LT((pk.gram(D) - mk.gram(D)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((pk.cross(D.topRows(4), D) - mk.cross(D.topRows(4), D)).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(InvariantKernels, RotationClosedFormsMatchNumericalMaxAndAverage) {
  Rng rng = make_rng(16);
  const double ell = 0.23, v = 1.7;
  auto base = iso("rbf", 2, ell, v);
  auto kmax = make_invariant_kernel(base->clone(), "rotation", "max", center(2));
  auto kavg = make_invariant_kernel(base->clone(), "rotation", "average", center(2));
  ASSERT_EQ(static_cast<const AveragedKernel&>(*kavg).method(), AveragingMethod::Bessel);
  const Mat X = random_points(6, 2, rng), Y = random_points(6, 2, rng);
  const Mat Km = kmax->cross(X, Y), Ka = kavg->cross(X, Y);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      const Vec z = X.row(i).transpose() - center(2), w = Y.row(j).transpose() - center(2);
      // numerical average over the angle (trapezoid: spectrally accurate for periodic integrands)
      const int N = 4000;
      double sum = 0, mx = 0;
      for (int k = 0; k < N; ++k) {
        const double kv = v * std::exp(-(z - RotationGroup::rotation(2 * M_PI * k / N) * w).squaredNorm() / (2 * ell * ell));
        sum += kv;
        mx = std::max(mx, kv);
      }
      EXPECT_NEAR(Ka(i, j), sum / N, 1e-12);
      // closed form of the max: exp(−(||x||−||y||)²/2ℓ²); the grid max approaches it from below
      EXPECT_NEAR(Km(i, j), v * std::exp(-std::pow(z.norm() - w.norm(), 2) / (2 * ell * ell)), 1e-14);
      EXPECT_LE(mx, Km(i, j) + 1e-14);
      EXPECT_GT(mx, Km(i, j) - 1e-5);
    }
}

TEST(InvariantKernels, BesselScaledFunctionsAreAccurateAndDoNotOverflow) {
  for (double x : {0.0, 0.3, 5.0, 49.0}) {
    EXPECT_NEAR(bessel_i0e(x), std::cyl_bessel_i(0.0, x) * std::exp(-x), 1e-15 * (1 + bessel_i0e(x)));
    EXPECT_NEAR(bessel_i1e(x), std::cyl_bessel_i(1.0, x) * std::exp(-x), 1e-15 * (1 + bessel_i1e(x)));
  }
  // continuity across the switch to the asymptotic series, and finite far beyond overflow of I0
  for (double x : {50.0, 80.0, 300.0, 600.0}) {  // asymptotic branch vs the library (still finite here)
    EXPECT_NEAR(bessel_i0e(x) / (std::cyl_bessel_i(0.0, x) * std::exp(-x)), 1.0, 1e-13) << x;
    EXPECT_NEAR(bessel_i1e(x) / (std::cyl_bessel_i(1.0, x) * std::exp(-x)), 1.0, 1e-13) << x;
  }
  EXPECT_NEAR(bessel_i0e(50.0 - 1e-12) / bessel_i0e(50.0 + 1e-12), 1.0, 1e-13);
  EXPECT_NEAR(bessel_i1e(50.0 - 1e-12) / bessel_i1e(50.0 + 1e-12), 1.0, 1e-13);
  EXPECT_NEAR(bessel_i0e(1e6) * std::sqrt(2 * M_PI * 1e6), 1.0, 1e-6);
  auto kavg = make_invariant_kernel(iso("rbf", 2, 1e-3), "rotation", "average", center(2));
  Mat X(1, 2), Y(1, 2);
  X << 0.9, 0.9;
  Y << 0.1, 0.1;  // same radius, r s / ℓ² = 3.2e5
  EXPECT_TRUE(std::isfinite(kavg->cross(X, Y)(0, 0)));
  EXPECT_NEAR(kavg->cross(X, Y)(0, 0), 1.3 / std::sqrt(2 * M_PI * 0.32e6), 1e-6);
}

TEST(InvariantKernels, ScalingKernelsMatchNumericalMaxAndAverage) {
  Rng rng = make_rng(17);
  const double ell = 0.3, v = 1.3, rho = 0.5, A = 2.0;
  auto base = iso("rbf", 2, ell, v);
  nlohmann::json opt = {{"radius", rho}, {"max_factor", A}};
  auto kmax = make_invariant_kernel(base->clone(), "scaling", "max", center(2), opt);
  auto kavg = make_invariant_kernel(base->clone(), "scaling", "average", center(2), opt);
  const Mat X = random_points(4, 2, rng), Y = random_points(4, 2, rng);
  const Mat Km = kmax->cross(X, Y), Ka = kavg->cross(X, Y);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const Vec u = rho * (X.row(i).transpose() - center(2)).normalized();
      const Vec w = rho * (Y.row(j).transpose() - center(2)).normalized();
      // max over a fine (a, a') grid in log a, and the average by the composite Simpson rule
      const int N = 400;
      double mx = 0, sum = 0;
      for (int p = 0; p <= N; ++p)
        for (int q = 0; q <= N; ++q) {
          const double a = std::exp(std::log(A) * (2.0 * p / N - 1)), b = std::exp(std::log(A) * (2.0 * q / N - 1));
          const double kv = v * std::exp(-(a * u - b * w).squaredNorm() / (2 * ell * ell));
          mx = std::max(mx, kv);
          const double sp = (p == 0 || p == N) ? 1 : (p % 2 ? 4 : 2), sq = (q == 0 || q == N) ? 1 : (q % 2 ? 4 : 2);
          sum += sp * sq * kv;
        }
      sum /= 9.0 * N * N;
      EXPECT_NEAR(Km(i, j), mx, 1e-12);  // the grid contains the optimal corner a = a' = 1/A
      EXPECT_NEAR(Ka(i, j), sum, 1e-8);
    }
}

TEST(InvariantKernels, InputGradientsMatchFiniteDifferences) {
  Rng rng = make_rng(18);
  struct K {
    std::string group, mode;
    int dim;
    nlohmann::json opt;
    std::string type;
  };
  std::vector<K> ks = {{"hyperoctahedral", "max", 3, {{"projection", "always"}}, "matern52"},
                       {"cyclic", "max", 4, {}, "matern52"},
                       {"blocks:2", "max", 4, {}, "rbf"},
                       {"rotation", "max", 2, {}, "rbf"},
                       {"scaling", "max", 2, {}, "matern52"},
                       {"hyperoctahedral", "average", 3, {}, "matern52"},
                       {"hyperoctahedral", "average", 3, {{"normalize", true}}, "matern52"},
                       {"rotation", "average", 2, {}, "rbf"},
                       {"rotation", "average", 2, {{"normalize", true}}, "rbf"},
                       {"rotation", "average", 2, {}, "matern32"},
                       {"scaling", "average", 2, {}, "rbf"},
                       {"signflip", "max", 3, {{"projection", "never"}}, "matern52"}};
  for (const auto& c : ks) {
    nlohmann::json opt = c.opt.is_null() ? nlohmann::json::object() : c.opt;
    auto k = make_invariant_kernel(iso(c.type, c.dim, 0.35), c.group, c.mode, center(c.dim), opt);
    k->condition_on(random_points(10, c.dim, rng));
    const Mat Y = random_points(5, c.dim, rng);
    for (int t = 0; t < 3; ++t) {
      const Vec x = random_points(1, c.dim, rng).row(0).transpose();
      const std::string what = c.group + "/" + c.mode + "/" + opt.dump();
      EXPECT_LT((k->cross_grad_x(x, Y) - fd_grad_x(*k, x, Y)).cwiseAbs().maxCoeff(), 1e-6) << what;
      EXPECT_LT((k->diag_grad_x(x) - fd_diag_grad(*k, x)).cwiseAbs().maxCoeff(), 1e-6) << what;
    }
  }
}

TEST(InvariantKernels, TwoSidedFormsForArdBasesAreInvariantAndHaveCorrectGradients) {
  Rng rng = make_rng(19);
  for (const std::string mode : {"max", "average"}) {
    auto base = make_stationary("matern52", 3, true, 0.3, 1.1);
    Vec p = base->log_params();
    p[0] = std::log(0.2);
    p[2] = std::log(0.5);
    base->set_log_params(p);
    auto k = make_invariant_kernel(std::move(base), "hyperoctahedral", mode, center(3), {{"projection", "never"}});
    auto g = make_group("hyperoctahedral", 3);
    const Mat X = random_points(4, 3, rng), Y = random_points(5, 3, rng);
    EXPECT_LT((k->cross(X, Y) - k->cross(act(*g, X, rng), act(*g, Y, rng))).cwiseAbs().maxCoeff(), 1e-12) << mode;
    EXPECT_LT((k->cross(Y, X) - k->cross(X, Y).transpose()).cwiseAbs().maxCoeff(), 1e-12) << mode;
    const Vec x = X.row(0).transpose();
    EXPECT_LT((k->cross_grad_x(x, Y) - fd_grad_x(*k, x, Y)).cwiseAbs().maxCoeff(), 1e-6) << mode;
    EXPECT_LT((k->diag_grad_x(x) - fd_diag_grad(*k, x)).cwiseAbs().maxCoeff(), 1e-6) << mode;
    const auto an = k->gram_gradients(X);
    const auto fd = fd_gram_grads(*k, X);
    for (std::size_t i = 0; i < an.size(); ++i) EXPECT_LT((an[i] - fd[i]).cwiseAbs().maxCoeff(), 1e-6) << mode;
  }
}

TEST(InvariantKernels, HyperparameterGradientsMatchFiniteDifferences) {
  Rng rng = make_rng(20);
  struct K {
    std::string group, mode;
    int dim;
    nlohmann::json opt;
    std::string type;
  };
  std::vector<K> ks = {{"hyperoctahedral", "max", 2, {{"fit", "kernel"}, {"projection", "always"}}, "matern52"},
                       {"cyclic", "max", 4, {{"fit", "kernel"}}, "matern52"},
                       {"blocks:2", "max", 4, {{"fit", "kernel"}}, "rbf"},
                       {"hyperoctahedral", "max", 3, {{"fit", "kernel"}, {"projection", "never"}}, "matern52"},
                       {"signflip", "max", 3, {{"fit", "kernel"}, {"eig_threshold", 0.0}, {"projection", "always"}}, "rbf"},
                       {"hyperoctahedral", "average", 3, {}, "matern52"},
                       {"hyperoctahedral", "average", 3, {{"normalize", true}}, "matern32"},
                       {"rotation", "average", 2, {}, "rbf"},
                       {"rotation", "average", 2, {{"normalize", true}}, "rbf"},
                       {"scaling", "average", 2, {}, "matern52"}};
  for (const auto& c : ks) {
    auto k = make_invariant_kernel(iso(c.type, c.dim, 0.25), c.group, c.mode, center(c.dim), c.opt);
    const Mat X = random_points(9, c.dim, rng);
    k->condition_on(X);
    const auto an = k->gram_gradients(X);
    const auto fd = fd_gram_grads(*k, X);
    ASSERT_EQ(an.size(), fd.size());
    for (std::size_t i = 0; i < an.size(); ++i)
      EXPECT_LT((an[i] - fd[i]).cwiseAbs().maxCoeff(), 1e-6) << c.group << "/" << c.mode << " " << c.opt.dump() << " p" << i;
  }
}

TEST(InvariantKernels, ProjectedGradientOffTheDesignSetMatchesFiniteDifferences) {
  // gram_gradients at points other than D (general Nyström derivative).
  Rng rng = make_rng(21);
  auto k = make_invariant_kernel(iso("matern52", 2, 0.2), "hyperoctahedral", "max", center(2), {{"fit", "kernel"}});
  const Mat D = random_points(12, 2, rng), X = random_points(6, 2, rng);
  k->condition_on(D);
  const auto an = k->gram_gradients(X);
  const Vec p = k->log_params();
  for (int i = 0; i < p.size(); ++i) {
    auto a = k->clone(), b = k->clone();
    Vec pa = p, pb = p;
    pa[i] += 1e-6;
    pb[i] -= 1e-6;
    a->set_log_params(pa);
    b->set_log_params(pb);
    EXPECT_LT((an[i] - (a->gram(X) - b->gram(X)) / 2e-6).cwiseAbs().maxCoeff(), 1e-6);
  }
}

// Each option parsed from text names its key and the allowed values when the text is unknown.
TEST(InvariantKernels, EnumOptionErrorsNameTheKeyAndTheAllowedValues) {
  auto message = [](const std::string& mode, const nlohmann::json& opt) -> std::string {
    try {
      make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", mode, center(2), opt);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string mode = message("mean", nlohmann::json::object());
  EXPECT_NE(mode.find("invariant_kernel"), std::string::npos) << mode;
  EXPECT_NE(mode.find("max, average"), std::string::npos) << mode;
  const std::string path = message("max", {{"path", "quick"}});
  EXPECT_NE(path.find("\"path\""), std::string::npos) << path;
  EXPECT_NE(path.find("auto, fast, brute"), std::string::npos) << path;
  const std::string proj = message("max", {{"projection", "sometimes"}});
  EXPECT_NE(proj.find("\"projection\""), std::string::npos) << proj;
  EXPECT_NE(proj.find("auto, always, never"), std::string::npos) << proj;
  const std::string fit = message("average", {{"fit", "both"}});
  EXPECT_NE(fit.find("\"fit\""), std::string::npos) << fit;
  EXPECT_NE(fit.find("base, kernel"), std::string::npos) << fit;
  const InvariantOptions o = InvariantOptions::from_json({{"projection", "never"}, {"fit", "kernel"}, {"path", "brute"}});
  EXPECT_EQ(o.projection, MaxProjection::Never);
  EXPECT_EQ(o.fit, InvariantFit::Kernel);
  EXPECT_EQ(o.path, OrbitPath::Brute);
  // the typed overload builds the same kernel as the text one
  for (auto type : {InvariantKernelType::Max, InvariantKernelType::Average})
    EXPECT_EQ(make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", type, center(2))->describe(),
              make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", enum_name(type), center(2))->describe());
}

// The properties the kernels rely on, per group: the averaging rule (action) and whether the max kernel
// of an isotropic base is the base kernel on canonical representatives (PSD by construction).
TEST(InvariantKernels, GroupPropertiesUsedByTheKernels) {
  struct Case {
    std::string spec;
    int dim;
    GroupAction action;
    bool canonical;
  };
  for (const auto& c : {Case{"permutation", 3, GroupAction::SignedPermutations, true},
                        Case{"signflip", 3, GroupAction::SignedPermutations, true},
                        Case{"hyperoctahedral", 3, GroupAction::SignedPermutations, true},
                        Case{"cyclic", 3, GroupAction::SignedPermutations, false},
                        Case{"blocks:2", 4, GroupAction::SignedPermutations, false},
                        Case{"rotation", 2, GroupAction::PlanarRotations, true},
                        Case{"scaling", 3, GroupAction::Scalings, true}}) {
    const GroupPtr g = make_group(c.spec, c.dim);
    EXPECT_EQ(g->action(), c.action) << c.spec;
    EXPECT_EQ(g->has_canonical_orbit_map(), c.canonical) << c.spec;
    EXPECT_EQ(g->is_finite(), c.action == GroupAction::SignedPermutations) << c.spec;
    const MaxKernel mk(iso("rbf", c.dim, 0.3), g, center(c.dim));
    EXPECT_EQ(mk.known_psd(), c.canonical) << c.spec;
  }
  EXPECT_EQ(static_cast<const AveragedKernel&>(*make_invariant_kernel(iso("matern52", 2, 0.3), "rotation", "average",
                                                                      center(2))).method(),
            AveragingMethod::Angles);
  EXPECT_EQ(static_cast<const AveragedKernel&>(*make_invariant_kernel(iso("rbf", 3, 0.3), "scaling", "average",
                                                                      center(3))).method(),
            AveragingMethod::Factors);
}

TEST(InvariantKernels, FactoryNamesOptionsAndFitSurrogate) {
  try {
    make_invariant_kernel(iso("rbf", 2, 0.3), "mirror", "max", center(2));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("none|permutation|signflip|hyperoctahedral|cyclic|blocks:K|rotation|scaling|custom"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "mean", center(2)), InputError);
  EXPECT_THROW(make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "max", center(2), {{"colour", 1}}), InputError);
  EXPECT_THROW(make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "max", center(2), {{"path", "quick"}}), InputError);
  EXPECT_THROW(make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "max", center(2), {{"normalize", true}}), InputError);
  EXPECT_THROW(make_invariant_kernel(make_stationary("rbf", 2, true), "rotation", "max", center(2)), InputError);
  EXPECT_THROW(make_invariant_kernel(make_stationary("rbf", 2, true), "signflip", "max", center(2), {{"path", "fast"}}),
               InputError);
  auto none = make_invariant_kernel(iso("rbf", 2, 0.3), "none", "max", center(2));
  EXPECT_EQ(none->describe(), iso("rbf", 2, 0.3)->describe());
  EXPECT_EQ(fit_surrogate(*none), nullptr);
  auto k = make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "max", center(2));
  ASSERT_NE(fit_surrogate(*k), nullptr);
  EXPECT_EQ(fit_surrogate(*k)->describe(), iso("rbf", 2, 0.3)->describe());
  EXPECT_EQ(k->log_params(), iso("rbf", 2, 0.3)->log_params());
  EXPECT_EQ(fit_surrogate(*make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "max", center(2), {{"fit", "kernel"}})),
            nullptr);
  EXPECT_NE(fit_surrogate(*make_invariant_kernel(iso("rbf", 2, 0.3), "signflip", "average", center(2), {{"normalize", true}})),
            nullptr);
  // the surrogate follows the kernel's hyperparameters
  Vec p = k->log_params();
  p[0] = std::log(0.7);
  k->set_log_params(p);
  EXPECT_EQ(fit_surrogate(*k)->log_params(), p);
}

TEST(InvariantKernels, DeclareTheirBaseKernelsParameterSpecs) {
  // Every invariant kernel has its base kernel's parameters, so it has its specs too (same roles, same
  // coordinates), whether the base is isotropic (fast paths) or ARD (two-sided forms).
  for (const bool ard : {false, true}) {
    const KernelPtr base = make_stationary("matern52", 3, ard, 0.4, 1.2);
    const auto expected = base->param_specs();
    for (const std::string mode : {"max", "average"})
      for (const nlohmann::json& opt : {nlohmann::json::object(), nlohmann::json{{"normalize", true}},
                                        nlohmann::json{{"projection", "never"}}}) {
        if (mode == "max" && opt.contains("normalize")) continue;
        if (mode == "average" && opt.contains("projection")) continue;
        const KernelPtr k = make_invariant_kernel(base->clone(), "permutation", mode, center(3), opt);
        const auto specs = k->param_specs();
        ASSERT_EQ(static_cast<int>(specs.size()), k->num_params()) << k->describe();
        for (std::size_t p = 0; p < specs.size(); ++p) {
          EXPECT_EQ(specs[p].role, expected[p].role) << k->describe() << " p=" << p;
          EXPECT_EQ(specs[p].dim, expected[p].dim) << k->describe() << " p=" << p;
        }
      }
  }
}
