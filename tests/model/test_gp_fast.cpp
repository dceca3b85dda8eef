// The fast paths of the GP engine against the generic ones they replace:
// - the fused log-marginal-likelihood path (stationary kernels: one pass for K, in-place Cholesky and
//   inverse, one pass for every gradient entry) against gram() + Cholesky + gram_gradient_contract on a
//   dense W, reached through a forwarding kernel that does not override the fused methods;
// - the AVX2 build of the per-pair loops against the portable build;
// - cross() from exact differences against the closed-form kernel value pair by pair;
// - the small-matrix Cholesky/inverse kernels against Eigen's LLT;
// - prediction through an explicit L⁻¹ (many test points) against one point at a time.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/core/random.hpp"
#include "support/test_data.hpp"

using namespace kbo;

namespace {
Vec targets(const Mat& X) { return (4.0 * X).array().sin().rowwise().sum().matrix() + X.col(0).array().square().matrix(); }

// Forwards everything except the fused path, so a GP around it takes the generic route.
class Forwarding : public Kernel {
 public:
  explicit Forwarding(KernelPtr k) : k_(std::move(k)) {}
  std::unique_ptr<Kernel> clone() const override { return std::make_unique<Forwarding>(k_->clone()); }
  std::string describe() const override { return k_->describe(); }
  Vec log_params() const override { return k_->log_params(); }
  void set_log_params(const Vec& p) override { k_->set_log_params(p); }
  std::vector<std::string> param_names() const override { return k_->param_names(); }
  std::vector<ParamSpec> param_specs() const override { return k_->param_specs(); }
  Mat cross(const Mat& X, const Mat& Y) const override { return k_->cross(X, Y); }
  Mat gram(const Mat& X) const override { return k_->gram(X); }
  Vec diag(const Mat& X) const override { return k_->diag(X); }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return k_->gram_gradients(X); }
  Vec gram_gradient_contract(const Mat& X, const Mat& W) const override { return k_->gram_gradient_contract(X, W); }
  Mat cross_grad_x(const Vec& x, const Mat& X) const override { return k_->cross_grad_x(x, X); }
 private:
  KernelPtr k_;
};

// Brute-force k(x, y) from the closed forms.
double closed_form(const std::string& type, const Vec& x, const Vec& y, const Vec& l, double s2) {
  const double r = ((x - y).array() / l.array()).matrix().norm();
  if (type == "rbf") return s2 * std::exp(-0.5 * r * r);
  if (type == "matern12") return s2 * std::exp(-r);
  if (type == "matern32") return s2 * (1 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
  return s2 * (1 + std::sqrt(5.0) * r + 5.0 / 3.0 * r * r) * std::exp(-std::sqrt(5.0) * r);
}

// Each build the CPU has (a cap above the CPU's best runs the best one, i.e. repeats it).
const StationarySimd kBuilds[] = {StationarySimd::AVX512, StationarySimd::AVX2, StationarySimd::Portable};
std::string build_name(StationarySimd s) {
  set_stationary_simd_max(s);
  const StationarySimd used = stationary_simd_in_use();
  return used == StationarySimd::AVX512 ? " avx512" : used == StationarySimd::AVX2 ? " avx2" : " portable";
}

// Restores the default dispatch whatever a test does; one BLAS thread (many small LAPACK calls thrash
// when the machine is loaded and OpenBLAS spins up all cores for each).
struct SimdGuard {
  int blas = set_blas_threads(1);
  ~SimdGuard() {
    set_stationary_simd(true);
    set_blas_threads(blas);
  }
};
}  // namespace

TEST(GPFast, FusedLikelihoodAndGradientEqualGenericPath) {
  SimdGuard guard;
  // n = 40 runs the small-matrix kernels, n = 130 LAPACK; the noise levels cover a well and a badly
  // conditioned K.
  for (int n : {40, 130}) {
    Mat X = test_support::uniform_points(n, 3, 100 + n);
    Vec y = targets(X);
    for (const char* type : {"rbf", "matern12", "matern32", "matern52"})
      for (bool ard : {false, true})
        for (double noise : {1e-1, 1e-4})
          for (StationarySimd simd : kBuilds) {
            set_stationary_simd_max(simd);
            auto k = make_stationary(type, 3, ard, 0.3, 1.3);
            Vec p = k->log_params();
            for (int i = 0; i < p.size(); ++i) p[i] += 0.15 * i;  // distinct lengthscales
            k->set_log_params(p);
            GP fast(k->clone(), noise), slow(std::make_unique<Forwarding>(k->clone()), noise);
            fast.set_data(X, y);
            slow.set_data(X, y);
            Vec theta = fast.hyperparameters(), gf, gs;
            const double lf = fast.log_marginal_likelihood_at(theta, &gf);
            const double ls = slow.log_marginal_likelihood_at(theta, &gs);
            const std::string what = std::string(type) + (ard ? " ard" : " iso") + " n=" + std::to_string(n) +
                                     " noise=" + std::to_string(noise) + build_name(simd);
            EXPECT_NEAR(lf, ls, 1e-10 * (1 + std::abs(ls))) << what;
            ASSERT_EQ(gf.size(), gs.size());
            // The ill-conditioned case (noise 1e-4, κ ~ 1e5) loses digits in K⁻¹ on both paths alike.
            const double tol = noise > 1e-2 ? 1e-10 : 1e-8;
            for (int i = 0; i < gf.size(); ++i) EXPECT_NEAR(gf[i], gs[i], tol * (1 + std::abs(gs[i]))) << what << " θ" << i;
            EXPECT_NEAR(fast.log_marginal_likelihood(), lf, 1e-10 * (1 + std::abs(lf))) << what;
          }
  }
}

TEST(GPFast, FusedGradientMatchesFiniteDifferencesOnFortyPoints) {
  // Independent of the generic path: central differences of the fused LML itself.
  Mat X = test_support::uniform_points(40, 4, 7);
  GP gp(make_stationary("matern52", 4, true, 0.4), 0.02);
  gp.set_data(X, targets(X));
  Vec theta = gp.hyperparameters(), g;
  gp.log_marginal_likelihood_at(theta, &g);
  for (int i = 0; i < theta.size(); ++i) {
    Vec tp = theta, tm = theta;
    tp[i] += 1e-5;
    tm[i] -= 1e-5;
    const double fd = (gp.log_marginal_likelihood_at(tp, nullptr) - gp.log_marginal_likelihood_at(tm, nullptr)) / 2e-5;
    EXPECT_NEAR(g[i], fd, 1e-5 * (1 + std::abs(fd))) << "θ" << i;
  }
}

TEST(GPFast, CrossAndGramMatchClosedFormsOnBothBuilds) {
  SimdGuard guard;
  Mat X = test_support::uniform_points(23, 5, 3), Y = test_support::uniform_points(7, 5, 4);
  Y.row(2) = X.row(5);  // a coincident pair: φ(0) exactly
  for (StationarySimd simd : kBuilds) {
    set_stationary_simd_max(simd);
    for (const char* type : {"rbf", "matern12", "matern32", "matern52"}) {
      auto k = std::make_unique<StationaryKernel>(parse_stationary_type(type), 5, true, 1.0, 0.7);
      Vec l(5);
      l << 0.2, 0.5, 0.9, 1.4, 3.0;
      k->set_lengthscales(l);
      Mat C = k->cross(X, Y), CT = k->cross(Y, X), G = k->gram(X);
      for (int i = 0; i < X.rows(); ++i)
        for (int j = 0; j < Y.rows(); ++j) {
          const double ref = closed_form(type, X.row(i).transpose(), Y.row(j).transpose(), l, 0.7);
          EXPECT_NEAR(C(i, j), ref, 1e-14) << type << build_name(simd);
          EXPECT_NEAR(CT(j, i), ref, 1e-14) << type << build_name(simd);
        }
      EXPECT_EQ(C(5, 2), 0.7) << type << build_name(simd);
      for (int i = 0; i < X.rows(); ++i)
        for (int j = 0; j < X.rows(); ++j)
          EXPECT_NEAR(G(i, j), closed_form(type, X.row(i).transpose(), X.row(j).transpose(), l, 0.7), 1e-14) << type << build_name(simd);
    }
  }
}

TEST(GPFast, InPlaceCholeskyAndInverseMatchEigenAroundTheSizeThresholds) {
  // up to 96: small-matrix kernels (with AVX2; blocks of four columns, so sizes on both sides of a
  // multiple of four); from 97: LAPACK potrf, and L⁻¹ by recursive halving (333: three levels) + lauum.
  for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 50, 53, 96, 97, 150, 333}) {
    Mat B = test_support::uniform_points(n, n, 20 + n);
    Mat K = B * B.transpose() + 0.5 * Mat::Identity(n, n);
    Mat A = K;
    A.triangularView<Eigen::StrictlyUpper>().setConstant(7.0);  // must survive untouched
    ASSERT_TRUE(cholesky_lower_in_place(A)) << n;
    Mat Lref = Eigen::LLT<Mat>(K).matrixL();
    Mat L = A.triangularView<Eigen::Lower>();
    EXPECT_LT((L - Lref).norm(), 1e-12 * Lref.norm()) << n;
    cholesky_inverse_lower_in_place(A);
    Mat inv = A.triangularView<Eigen::Lower>();
    inv.triangularView<Eigen::StrictlyUpper>() = inv.transpose();
    EXPECT_LT((K * inv - Mat::Identity(n, n)).norm(), 1e-10) << n;
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < j; ++i) ASSERT_EQ(A(i, j), 7.0) << n;
  }
  Mat bad = -Mat::Identity(5, 5);
  EXPECT_FALSE(cholesky_lower_in_place(bad));
  Mat bad2 = -Mat::Identity(120, 120);
  EXPECT_FALSE(cholesky_lower_in_place(bad2));
}

TEST(GPFast, LargeBatchPredictionEqualsOnePointAtATime) {
  // 120 x 5000 = 600,000 kernel values: split between threads, variances by L⁻¹ and an in-place trmm.
  // 40 test points (< n/2): triangular-solve path. Both against the one-point vector solve.
  Mat X = test_support::uniform_points(120, 3, 11);
  GP gp(make_stationary("matern52", 3, true, 0.4), 1e-3);
  gp.set_data(X, targets(X));
  for (int m : {5000, 40}) {
    Mat Xs = test_support::uniform_points(m, 3, 12);
    auto all = gp.predict(Xs);
    for (int i = 0; i < Xs.rows(); i += 37) {
      auto one = gp.predict(Xs.row(i));
      EXPECT_NEAR(all.mean[i], one.mean[0], 1e-10) << m;
      EXPECT_NEAR(all.variance[i], one.variance[0], 1e-10) << m;
    }
    EXPECT_NEAR(all.mean[m - 1], gp.predict(Xs.row(m - 1)).mean[0], 1e-10) << m;  // the last chunk
  }
}

TEST(GPFast, ManyPointPredictionEqualsOnePointAtATime) {
  // 200 test points ≥ 4n: variances through an explicit L⁻¹ and a GEMM; one point: a vector solve.
  Mat X = test_support::uniform_points(30, 2, 9);
  GP gp(make_stationary("matern52", 2, true, 0.3), 1e-3);
  gp.set_data(X, targets(X));
  Mat Xs = test_support::uniform_points(200, 2, 10);
  auto all = gp.predict(Xs);
  for (int i = 0; i < Xs.rows(); i += 7) {
    auto one = gp.predict(Xs.row(i));
    EXPECT_NEAR(all.mean[i], one.mean[0], 1e-10);
    EXPECT_NEAR(all.variance[i], one.variance[0], 1e-10);
  }
}
