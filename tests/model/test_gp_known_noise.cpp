// GP with known per-observation noise (heteroscedastic, fixed): posterior and likelihood against the dense
// textbook formulas with Σ = diag(σ² + s_i²), the incremental paths against a from-scratch factorisation,
// and replicates (equal rows) with tiny noise.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/random.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"

using namespace kbo;

namespace {

constexpr double kKnownNoiseLog2Pi = 1.8378770664093453;

struct KnownNoiseData {
  Mat X;
  Vec y, s2;  // targets and known noise variances
};

KnownNoiseData known_noise_data(int n, int d, std::uint64_t seed) {
  Rng rng = make_rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  KnownNoiseData out{Mat(n, d), Vec(n), Vec(n)};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) out.X(i, j) = u(rng);
    out.y(i) = std::sin(4.0 * out.X(i, 0)) + 0.5 * out.X.row(i).sum();
    out.s2(i) = i % 3 == 0 ? 0.0 : 0.3 * u(rng) * u(rng);  // some rows without known noise
  }
  return out;
}

/// Dense Gram matrix k(A, B) of an isotropic RBF with lengthscale l and variance v (the kernel under test).
Mat dense_rbf(const Mat& A, const Mat& B, double l, double v) {
  Mat K(A.rows(), B.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.rows(); ++j) K(i, j) = v * std::exp(-0.5 * (A.row(i) - B.row(j)).squaredNorm() / (l * l));
  return K;
}

}  // namespace

TEST(GPKnownNoise, PosteriorAndLikelihoodEqualTheDenseFormulas) {
  const double l = 0.3, v = 1.7, sigma2 = 0.01;
  const KnownNoiseData d = known_noise_data(25, 2, 3);
  Mat Xs(7, 2);
  Rng rng = make_rng(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (Eigen::Index i = 0; i < Xs.rows(); ++i) Xs.row(i) << u(rng), u(rng);
  Xs.row(0) = d.X.row(4);  // at an observation too

  GP gp(make_stationary("rbf", 2, false, l, v), sigma2, /*normalize=*/false, /*learn_noise=*/true);
  gp.set_data(d.X, d.y, d.s2);

  // Dense: C = K + diag(σ² + s²), mean = K*ᵀ C⁻¹ y, var = k** − K*ᵀ C⁻¹ K*, LML = −½ yᵀC⁻¹y − ½ log|C| − n/2 log 2π.
  Mat C = dense_rbf(d.X, d.X, l, v);
  C.diagonal() += (d.s2.array() + sigma2).matrix();
  const Eigen::LDLT<Mat> ldlt(C);
  const Mat Ks = dense_rbf(d.X, Xs, l, v);
  const Vec mean = Ks.transpose() * ldlt.solve(d.y);
  const Vec var = (dense_rbf(Xs, Xs, l, v) - Ks.transpose() * ldlt.solve(Ks)).diagonal();
  const double logdet = ldlt.vectorD().array().log().sum();
  const double lml = -0.5 * d.y.dot(ldlt.solve(d.y)) - 0.5 * logdet - 0.5 * 25 * kKnownNoiseLog2Pi;

  const GP::Prediction p = gp.predict(Xs);
  for (Eigen::Index i = 0; i < Xs.rows(); ++i) {
    EXPECT_NEAR(p.mean[i], mean[i], 1e-9);
    EXPECT_NEAR(p.variance[i], var[i], 1e-9);
  }
  EXPECT_NEAR(gp.log_marginal_likelihood(), lml, 1e-8);
  EXPECT_NEAR(gp.log_marginal_likelihood_at(gp.hyperparameters(), nullptr), lml, 1e-8);
  // Information gain ½ log det(I + Σ⁻¹K) = ½ (log|C| − Σ log(σ² + s_i²)).
  EXPECT_NEAR(gp.information_gain(), 0.5 * (logdet - (d.s2.array() + sigma2).log().sum()), 1e-8);
  // A noisy observation pulls the mean less: its known noise shows in the residual at its own point.
  EXPECT_GT(std::abs(p.mean[0] - d.y(4)), 1e-3);
}

TEST(GPKnownNoise, StandardisedTargetsScaleTheKnownNoise) {
  // normalize = true: the GP works on (y − mean)/scale, so a known variance s² is s²/scale² there. Scaling
  // y and s by 10 must give the same posterior in the original units, scaled by 10.
  const KnownNoiseData d = known_noise_data(20, 2, 5);
  GP a(make_stationary("matern52", 2, true, 0.3), 0.02, /*normalize=*/true);
  GP b(make_stationary("matern52", 2, true, 0.3), 0.02, /*normalize=*/true);
  a.set_data(d.X, d.y, d.s2);
  b.set_data(d.X, 10.0 * d.y, 100.0 * d.s2);
  const GP::Prediction pa = a.predict(d.X), pb = b.predict(d.X);
  for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
    EXPECT_NEAR(pb.mean[i], 10.0 * pa.mean[i], 1e-8 * (1.0 + std::abs(pb.mean[i])));
    EXPECT_NEAR(pb.variance[i], 100.0 * pa.variance[i], 1e-8 * (1.0 + pb.variance[i]));
  }
  EXPECT_NEAR(a.known_noise_targets()[1], d.s2[1] / (a.y_scale() * a.y_scale()), 1e-15);
}

TEST(GPKnownNoise, LikelihoodGradientMatchesFiniteDifferences) {
  const KnownNoiseData d = known_noise_data(18, 2, 11);
  GP gp(make_stationary("matern52", 2, true, 0.4), 0.05, /*normalize=*/true);
  gp.set_data(d.X, d.y, d.s2);
  const Vec theta = gp.hyperparameters();
  Vec grad;
  gp.log_marginal_likelihood_at(theta, &grad);
  for (Eigen::Index k = 0; k < theta.size(); ++k) {
    Vec up = theta, down = theta;
    up[k] += 1e-5;
    down[k] -= 1e-5;
    const double fd = (gp.log_marginal_likelihood_at(up, nullptr) - gp.log_marginal_likelihood_at(down, nullptr)) / 2e-5;
    EXPECT_NEAR(grad[k], fd, 1e-5 * (1.0 + std::abs(fd))) << "θ entry " << k;
  }
}

TEST(GPKnownNoise, AppendingAndReplacingTargetsEqualAFreshFactorisation) {
  const KnownNoiseData d = known_noise_data(30, 2, 17);
  GP full(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/false);
  full.set_data(d.X, d.y, d.s2);
  // The first 20 rows, then 10 appended with their known noise.
  GP inc(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/false);
  inc.set_data(d.X.topRows(20), d.y.head(20), d.s2.head(20));
  inc.append_observations(d.X.bottomRows(10), d.y.tail(10), d.s2.tail(10));
  EXPECT_NEAR(inc.log_marginal_likelihood(), full.log_marginal_likelihood(), 1e-9);
  EXPECT_NEAR((inc.predict(d.X).mean - full.predict(d.X).mean).cwiseAbs().maxCoeff(), 0.0, 1e-9);
  // Rows appended without known noise have none.
  GP none(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/false);
  none.set_data(d.X.topRows(20), d.y.head(20), d.s2.head(20));
  none.append_observations(d.X.bottomRows(10), d.y.tail(10));
  Vec s2 = d.s2;
  s2.tail(10).setZero();
  GP expect(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/false);
  expect.set_data(d.X, d.y, s2);
  EXPECT_NEAR(none.log_marginal_likelihood(), expect.log_marginal_likelihood(), 1e-9);
  // New targets with new known noise: the factor follows the new diagonal.
  const Vec y2 = 2.0 * d.y;
  const Vec n2 = 0.5 * d.s2;
  inc.set_targets(y2, n2);
  GP fresh(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/false);
  fresh.set_data(d.X, y2, n2);
  EXPECT_NEAR(inc.log_marginal_likelihood(), fresh.log_marginal_likelihood(), 1e-9);
  // Standardising GP: new targets move the scale, and the known noise in target units with it.
  GP st(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/true);
  st.set_data(d.X, d.y, d.s2);
  st.set_targets(3.0 * d.y);
  GP st_fresh(make_stationary("rbf", 2, true, 0.3), 0.01, /*normalize=*/true);
  st_fresh.set_data(d.X, 3.0 * d.y, d.s2);
  EXPECT_NEAR(st.log_marginal_likelihood(), st_fresh.log_marginal_likelihood(), 1e-9);
}

TEST(GPKnownNoise, ReplicatesAtOnePointAverageByTheirPrecision) {
  // Two observations at the same x with known noise s1², s2² and a flat prior (large variance, tiny learned
  // noise): the posterior mean there is their precision-weighted average.
  Mat X(3, 1);
  X << 0.5, 0.5, 0.9;
  const Vec y{{1.0, 3.0, 0.0}};
  const Vec s2{{0.1, 0.4, 0.0}};
  GP gp(make_stationary("rbf", 1, false, 0.05, 1e4), 1e-9, /*normalize=*/false);
  gp.set_data(X, y, s2);
  const double weighted = (1.0 / 0.1 * 1.0 + 1.0 / 0.4 * 3.0) / (1.0 / 0.1 + 1.0 / 0.4);
  EXPECT_NEAR(gp.predict(X.topRows(1)).mean[0], weighted, 1e-3);
  EXPECT_NEAR(gp.predict(X.topRows(1)).variance[0], 1.0 / (1.0 / 0.1 + 1.0 / 0.4), 1e-3);
  // Replicates without known noise at a tiny learned noise still factorise (jitter) and interpolate their mean.
  GP tiny(make_stationary("rbf", 1, false, 0.3), 1e-12, /*normalize=*/false);
  tiny.set_data(X, y);
  EXPECT_TRUE(std::isfinite(tiny.log_marginal_likelihood()));
  EXPECT_NEAR(tiny.predict(X.topRows(1)).mean[0], 2.0, 1e-3);
}

TEST(GPKnownNoise, BadKnownNoiseIsRefused) {
  const KnownNoiseData d = known_noise_data(5, 1, 1);
  GP gp(make_stationary("rbf", 1, false, 0.3), 0.01);
  EXPECT_THROW(gp.set_data(d.X, d.y, Vec::Constant(4, 0.1)), InputError);
  EXPECT_THROW(gp.set_data(d.X, d.y, Vec::Constant(5, -0.1)), InputError);
  Vec bad = Vec::Constant(5, 0.1);
  bad[2] = std::nan("");
  EXPECT_THROW(gp.set_data(d.X, d.y, bad), InputError);
}
