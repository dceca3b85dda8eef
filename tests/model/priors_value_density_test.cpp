// Prior conventions: density of log θ (default, Jacobian included) vs density of θ (value_density(),
// GPyTorch/BoTorch's convention), checked against the closed-form log densities.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/priors.hpp"

using kbo::Prior;

namespace {
// Difference of log densities between two points (the normalising constants cancel).
double diff(const Prior& p, double theta1, double theta2) {
  return p.log_density(std::log(theta1), nullptr) - p.log_density(std::log(theta2), nullptr);
}
}  // namespace

TEST(PriorValueDensity, GammaMatchesTheGammaPdfOfTheta) {
  const double k = 1.1, r = 0.05, t1 = 0.3, t2 = 4.0;
  // Gamma(k, r) pdf of θ: (k − 1) log θ − r θ + const.
  const double pdf_theta = (k - 1) * std::log(t1) - r * t1 - ((k - 1) * std::log(t2) - r * t2);
  EXPECT_NEAR(diff(Prior::gamma(k, r).value_density(), t1, t2), pdf_theta, 1e-12);
  // Density of p = log θ: one more power of θ (the Jacobian).
  EXPECT_NEAR(diff(Prior::gamma(k, r), t1, t2), pdf_theta + std::log(t1) - std::log(t2), 1e-12);
}

TEST(PriorValueDensity, LogNormalMatchesTheLogNormalPdfOfTheta) {
  const double mu = -4.0, s = 1.0, t1 = 0.01, t2 = 0.2;
  auto lognormal_pdf = [&](double t) {
    const double z = (std::log(t) - mu) / s;
    return -0.5 * z * z - std::log(t);
  };
  EXPECT_NEAR(diff(Prior::log_normal(mu, s).value_density(), t1, t2), lognormal_pdf(t1) - lognormal_pdf(t2), 1e-12);
}

TEST(PriorValueDensity, GradientMatchesFiniteDifferencesAndTheMode) {
  const Prior g = Prior::gamma(3.0, 6.0).value_density();
  const double p = std::log(0.7), h = 1e-6;
  double d = 0;
  g.log_density(p, &d);
  EXPECT_NEAR(d, (g.log_density(p + h, nullptr) - g.log_density(p - h, nullptr)) / (2 * h), 1e-6);
  // The maximiser over p of the density of θ is θ's mode (k − 1)/r = 1/3 (Gamma(3, 6), BoTorch's
  // lengthscale prior); with the Jacobian it is k/r = 1/2.
  double d_mode = 1;
  g.log_density(std::log(1.0 / 3.0), &d_mode);
  EXPECT_NEAR(d_mode, 0.0, 1e-12);
  Prior::gamma(3.0, 6.0).log_density(std::log(0.5), &d_mode);
  EXPECT_NEAR(d_mode, 0.0, 1e-12);
  EXPECT_EQ(Prior::none().value_density().log_density(0.3, &d), 0.0);
  EXPECT_EQ(d, 0.0);
}
