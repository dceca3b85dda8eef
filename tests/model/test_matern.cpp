// The scalar profile formulae (kbo/model/kernels/matern.hpp) against their closed forms, their
// derivatives against finite differences, and the kernels that use them.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/model/kernels/matern.hpp"
#include "kbo/model/kernels/stationary.hpp"

using namespace kbo;

namespace {
const double kRs[] = {0.0, 1e-6, 0.1, 0.5, 1.0, 2.0, 3.7, 10.0};
}

TEST(Matern, ConstantsAreTheSquareRoots) {
  EXPECT_EQ(matern::kSqrt3, std::sqrt(3.0));
  EXPECT_EQ(matern::kSqrt5, std::sqrt(5.0));
}

TEST(Matern, ProfilesMatchClosedForms) {
  for (double r : kRs) {
    EXPECT_NEAR(matern::matern12(r), std::exp(-r), 1e-15) << r;
    EXPECT_NEAR(matern::matern32(r), (1.0 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r), 1e-15) << r;
    EXPECT_NEAR(matern::matern52(r),
                (1.0 + std::sqrt(5.0) * r + 5.0 * r * r / 3.0) * std::exp(-std::sqrt(5.0) * r), 1e-15) << r;
    EXPECT_NEAR(matern::rbf(r), std::exp(-r * r / 2.0), 1e-15) << r;
  }
  // Known values: φ(0) = 1 for all; Matérn-3/2 at r = 1/√3 is 2/e; Matérn-5/2 at r = 1/√5 is (2 + 1/3)/e.
  EXPECT_EQ(matern::matern32(0.0), 1.0);
  EXPECT_EQ(matern::matern52(0.0), 1.0);
  EXPECT_NEAR(matern::matern32(1.0 / std::sqrt(3.0)), 2.0 / std::exp(1.0), 1e-15);
  EXPECT_NEAR(matern::matern52(1.0 / std::sqrt(5.0)), (7.0 / 3.0) / std::exp(1.0), 1e-15);
  EXPECT_NEAR(matern::rbf(1.0), std::exp(-0.5), 1e-16);
}

TEST(Matern, DerivativesMatchFiniteDifferences) {
  const double h = 1e-6;
  for (double r : {0.1, 0.5, 1.0, 2.0, 3.7}) {
    auto fd = [&](double (*f)(double)) { return (f(r + h) - f(r - h)) / (2 * h); };
    EXPECT_NEAR(matern::matern12_derivative(r), fd(matern::matern12), 1e-8) << r;
    EXPECT_NEAR(matern::matern32_derivative(r), fd(matern::matern32), 1e-8) << r;
    EXPECT_NEAR(matern::matern52_derivative(r), fd(matern::matern52), 1e-8) << r;
    EXPECT_NEAR(matern::rbf_derivative(r), fd(matern::rbf), 1e-8) << r;
    EXPECT_NEAR(matern::matern32_derivative_over_r(r), matern::matern32_derivative(r) / r, 1e-13) << r;
    EXPECT_NEAR(matern::matern52_derivative_over_r(r), matern::matern52_derivative(r) / r, 1e-13) << r;
    EXPECT_NEAR(matern::rbf_derivative_over_r(r), matern::rbf_derivative(r) / r, 1e-13) << r;
    // In the exponential's argument s = √3 r: dφ/dr = √3 dφ/ds.
    const double s = matern::kSqrt3 * r;
    EXPECT_NEAR(matern::matern32_of_s(s), matern::matern32(r), 1e-15);
    EXPECT_NEAR(matern::matern32_ds(s) * matern::kSqrt3, matern::matern32_derivative(r), 1e-14);
  }
  // Finite limits of φ′(r)/r at 0.
  EXPECT_EQ(matern::matern32_derivative_over_r(0.0), -3.0);
  EXPECT_EQ(matern::matern52_derivative_over_r(0.0), -5.0 / 3.0);
  EXPECT_EQ(matern::rbf_derivative_over_r(0.0), -1.0);
}

TEST(Matern, StationaryKernelUsesThem) {
  const std::pair<const char*, double (*)(double)> cases[] = {
      {"rbf", matern::rbf}, {"matern12", matern::matern12}, {"matern32", matern::matern32}, {"matern52", matern::matern52}};
  for (const auto& [name, phi] : cases) {
    StationaryKernel k(parse_stationary_type(name), 1, false, 0.7, 1.0);
    for (double r : kRs) EXPECT_EQ(k.profile(r), phi(r)) << name << " r=" << r;
    // The vectorised form (Eigen arrays of r²) agrees to rounding.
    Mat r2(1, 3);
    r2 << 0.01, 1.0, 4.0;
    const Mat v = k.profile_from_sq(r2);
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(v(0, j), phi(std::sqrt(r2(0, j))), 1e-14) << name;
  }
}
