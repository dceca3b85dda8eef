// HMC against targets whose moments are known in closed form, and against a brute-force grid posterior.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/error.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/model/hmc.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo {
namespace {

// Monte-Carlo standard error of a chain's mean from its effective sample size.
double mcse(const Vec& chain) {
  const double mean = chain.mean();
  const double var = (chain.array() - mean).square().sum() / (chain.size() - 1);
  return std::sqrt(var / effective_sample_size(chain));
}

TEST(Hmc, RecoversMeanAndVarianceOf1dGaussian) {
  const double mu = 3.0, sd = 2.0;
  LogDensityFn f = [&](const Vec& q, Vec* g) {
    const double z = (q[0] - mu) / sd;
    if (g) *g = Vec::Constant(1, -z / sd);
    return -0.5 * z * z;
  };
  HmcOptions o;
  o.num_warmup = 500;
  o.num_samples = 4000;
  o.num_leapfrog = 8;
  Rng rng = make_rng(11);
  const HmcResult r = hmc_sample(f, Vec::Constant(1, -5.0), o, rng);
  const Vec c = r.samples.col(0);
  const double se = mcse(c);
  EXPECT_LT(se, 0.1);  // the chain must actually mix for the next check to mean anything
  EXPECT_NEAR(c.mean(), mu, 4.0 * se);
  const double var = (c.array() - c.mean()).square().mean();
  // Var of the sample variance of a Gaussian ≈ 2σ⁴/ESS.
  const double ess = effective_sample_size(c);
  EXPECT_NEAR(var, sd * sd, 4.0 * std::sqrt(2.0 / ess) * sd * sd);
  EXPECT_GT(r.acceptance_rate, 0.6);
  EXPECT_EQ(r.divergences, 0);
}

TEST(Hmc, RecoversMomentsOfCorrelated2dGaussian) {
  Vec mu(2);
  mu << -1.0, 2.0;
  Mat S(2, 2);
  S << 1.0, 0.9 * 1.0 * 3.0, 0.9 * 3.0, 9.0;  // sd (1, 3), correlation 0.9
  const Mat P = S.inverse();
  LogDensityFn f = [&](const Vec& q, Vec* g) {
    const Vec r = q - mu;
    if (g) *g = -P * r;
    return -0.5 * r.dot(P * r);
  };
  HmcOptions o;
  o.num_warmup = 600;
  o.num_samples = 6000;
  o.num_leapfrog = 12;
  Rng rng = make_rng(5);
  const HmcResult r = hmc_sample(f, Vec::Zero(2), o, rng);
  for (int i = 0; i < 2; ++i) {
    const Vec c = r.samples.col(i);
    const double se = mcse(c);
    EXPECT_LT(se, 0.1 * std::sqrt(S(i, i)));
    EXPECT_NEAR(c.mean(), mu[i], 4.0 * se) << "dim " << i;
    const double ess = effective_sample_size(c);
    const double var = (c.array() - c.mean()).square().mean();
    EXPECT_NEAR(var, S(i, i), 4.0 * std::sqrt(2.0 / ess) * S(i, i)) << "dim " << i;
  }
  const Vec a = r.samples.col(0).array() - r.samples.col(0).mean();
  const Vec b = r.samples.col(1).array() - r.samples.col(1).mean();
  const double corr = a.dot(b) / std::sqrt(a.squaredNorm() * b.squaredNorm());
  EXPECT_NEAR(corr, 0.9, 0.03);
  // The mass adaptation must have picked up the different scales (M⁻¹ ≈ marginal variances).
  EXPECT_GT(r.inverse_mass[1] / r.inverse_mass[0], 3.0);
}

TEST(Hmc, WithoutAdaptationAndLargeStepStillTargetsTheDensity) {
  // ε = 1.5 on N(0,1) gives frequent rejections; the Metropolis correction keeps the chain exact.
  LogDensityFn f = [](const Vec& q, Vec* g) {
    if (g) *g = -q;
    return -0.5 * q.squaredNorm();
  };
  HmcOptions o;
  o.num_warmup = 0;
  o.num_samples = 6000;
  o.num_leapfrog = 3;
  o.step_size = 1.5;
  o.adapt_step_size = false;
  o.adapt_mass = false;
  Rng rng = make_rng(3);
  const HmcResult r = hmc_sample(f, Vec::Constant(1, 0.5), o, rng);
  EXPECT_LT(r.acceptance_rate, 0.95);
  const Vec c = r.samples.col(0);
  const double se = mcse(c);
  EXPECT_NEAR(c.mean(), 0.0, 4.0 * se);
  const double var = (c.array() - c.mean()).square().mean();
  EXPECT_NEAR(var, 1.0, 4.0 * std::sqrt(2.0 / effective_sample_size(c)));
}

TEST(Hmc, GpLengthscalePosteriorMatchesGrid) {
  // Posterior of log ℓ for a 1-d GP (fixed variance and noise) under a Gamma(2, 5) prior on ℓ:
  // HMC's mean of log ℓ must match the mean computed by quadrature on a fine grid.
  Mat X(8, 1);
  Vec y(8);
  for (int i = 0; i < 8; ++i) {
    X(i, 0) = i / 7.0;
    y[i] = std::sin(9.0 * X(i, 0)) + 0.3 * std::cos(23.0 * X(i, 0));
  }
  GP gp(make_stationary("rbf", 1, true, 0.3, 1.0), 1e-2, /*normalize=*/true, /*learn_noise=*/false);
  gp.set_data(X, y);
  const Vec full0 = gp.hyperparameters();
  const Prior prior = Prior::gamma(2.0, 5.0);
  LogDensityFn f = [&](const Vec& q, Vec* g) {
    Vec full = full0;
    full[0] = q[0];
    Vec gg(full.size());
    double dp = 0.0;
    const double v = gp.log_marginal_likelihood_at(full, g ? &gg : nullptr) + prior.log_density(q[0], &dp);
    if (g) *g = Vec::Constant(1, gg[0] + dp);
    return v;
  };
  // Grid posterior on [log 1e-3, log 1e2].
  const int n = 4000;
  const double lo = std::log(1e-3), hi = std::log(1e2);
  std::vector<double> lp(n), q(n);
  double mx = -1e300;
  for (int i = 0; i < n; ++i) {
    q[i] = lo + (hi - lo) * i / (n - 1);
    lp[i] = f(Vec::Constant(1, q[i]), nullptr);
    mx = std::max(mx, lp[i]);
  }
  double z = 0, m1 = 0, m2 = 0;
  for (int i = 0; i < n; ++i) {
    const double w = std::exp(lp[i] - mx);
    z += w, m1 += w * q[i], m2 += w * q[i] * q[i];
  }
  const double mean = m1 / z, sd = std::sqrt(m2 / z - mean * mean);

  HmcOptions o;
  o.num_warmup = 300;
  o.num_samples = 1500;
  o.num_leapfrog = 8;
  Rng rng = make_rng(21);
  const HmcResult r = hmc_sample(f, Vec::Constant(1, std::log(0.3)), o, rng);
  const Vec c = r.samples.col(0);
  EXPECT_NEAR(c.mean(), mean, 4.0 * mcse(c) + 1e-3);
  const double var = (c.array() - c.mean()).square().mean();
  EXPECT_NEAR(std::sqrt(var), sd, 0.15 * sd);
}

TEST(Hmc, EffectiveSampleSizeOfAr1Chain) {
  // AR(1) with coefficient ρ has ESS ≈ n (1 − ρ)/(1 + ρ).
  Rng rng = make_rng(9);
  std::normal_distribution<double> normal;
  const int n = 20000;
  const double rho = 0.8;
  Vec c(n);
  c[0] = normal(rng);
  for (int i = 1; i < n; ++i) c[i] = rho * c[i - 1] + std::sqrt(1 - rho * rho) * normal(rng);
  const double expected = n * (1 - rho) / (1 + rho);
  EXPECT_NEAR(effective_sample_size(c), expected, 0.2 * expected);
  Vec iid(n);
  for (int i = 0; i < n; ++i) iid[i] = normal(rng);
  EXPECT_NEAR(effective_sample_size(iid), n, 0.15 * n);
}

TEST(Hmc, RejectsBadInput) {
  LogDensityFn f = [](const Vec& q, Vec* g) {
    if (g) *g = -q;
    return -0.5 * q.squaredNorm();
  };
  Rng rng = make_rng(1);
  HmcOptions o;
  EXPECT_THROW(hmc_sample(f, Vec(), o, rng), InputError);
  EXPECT_THROW(hmc_sample(f, Vec::Constant(1, NAN), o, rng), InputError);
  o.step_size = -1;
  EXPECT_THROW(hmc_sample(f, Vec::Zero(1), o, rng), InputError);
  LogDensityFn bad = [](const Vec&, Vec* g) {
    if (g) *g = Vec::Zero(1);
    return -std::numeric_limits<double>::infinity();
  };
  EXPECT_THROW(hmc_sample(bad, Vec::Zero(1), HmcOptions{}, rng), InputError);
}

}  // namespace
}  // namespace kbo
