// Built-in problems at their published optima (Surjanovic & Bingham's library values).
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/optimize/problems.hpp"
#include "kbo/core/random.hpp"

namespace {

using kbo::Vec;

Vec v2(double a, double b) {
  Vec v(2);
  v << a, b;
  return v;
}

TEST(Problems, BraninAtItsThreeMinimisers) {
  for (const Vec& x : {v2(-M_PI, 12.275), v2(M_PI, 2.275), v2(9.42478, 2.475)})
    EXPECT_NEAR(kbo::branin(x), 0.397887, 1e-6);
  const auto p = kbo::make_problem("branin");
  ASSERT_EQ(p.argmins.size(), 3u);
  for (const Vec& x : p.argmins) {
    EXPECT_NEAR(p.f(x), p.optimum, 1e-12);
    EXPECT_TRUE(p.bounds.contains(x));
  }
  EXPECT_NEAR(kbo::branin(v2(0.0, 0.0)), 55.60211, 1e-4);  // independent value: (−6)² + 10(1−1/8π) + 10
}

TEST(Problems, Hartmann6AtItsMinimiser) {
  Vec x(6);
  x << 0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573;
  EXPECT_NEAR(kbo::hartmann6(x), -3.32237, 1e-5);
  const auto p = kbo::make_problem("hartmann6");
  EXPECT_NEAR(p.f(p.argmins[0]), p.optimum, 1e-8);
  EXPECT_EQ(p.bounds.dim(), 6);
}

TEST(Problems, AckleyGriewankRastriginZeroAtOriginAnyDimension) {
  for (int d : {1, 2, 5, 10}) {
    for (const char* name : {"ackley", "griewank", "rastrigin"}) {
      const auto p = kbo::make_problem(name, d);
      EXPECT_EQ(p.bounds.dim(), d);
      EXPECT_NEAR(p.f(Vec::Zero(d)), 0.0, 1e-12) << name << d;
      EXPECT_EQ(p.optimum, 0.0);
    }
  }
  // Known off-optimum values, computed by hand.
  EXPECT_NEAR(kbo::rastrigin(Vec::Ones(2)), 2.0, 1e-12);
  EXPECT_NEAR(kbo::rastrigin(Vec::Constant(3, 0.5)), 30.0 + 3 * (0.25 + 10.0), 1e-12);  // cos(π) = −1
  EXPECT_NEAR(kbo::griewank(v2(2 * M_PI, 0)), 1.0 + 4 * M_PI * M_PI / 4000.0 - 1.0, 1e-12);
  EXPECT_NEAR(kbo::ackley(Vec::Ones(1)), 20.0 - 20.0 * std::exp(-0.2), 1e-12);
}

TEST(Problems, OptimaAreMinimaAgainstRandomPoints) {
  kbo::Rng rng = kbo::make_rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const auto& name : kbo::problem_names()) {
    const auto p = kbo::make_problem(name);
    for (int i = 0; i < 2000; ++i) {
      Vec t(p.bounds.dim());
      for (int j = 0; j < t.size(); ++j) t[j] = u(rng);
      EXPECT_GE(p.f(p.bounds.from_unit(t)), p.optimum - 1e-9) << name;
    }
  }
}

TEST(Problems, AckleyShiftedOnTheUnitCube) {
  const double shift[10] = {0.137, -0.213, 0.071, -0.319, 0.241, -0.089, 0.183, -0.127, 0.293, -0.057};
  for (int d = 1; d <= 10; ++d) {
    const auto p = kbo::make_problem("ackley-shifted", d);
    EXPECT_EQ(p.bounds.lower, Vec::Zero(d));
    EXPECT_EQ(p.bounds.upper, Vec::Ones(d));
    Vec us(d);
    for (int i = 0; i < d; ++i) us[i] = 0.5 + shift[i];
    EXPECT_LT((p.argmins[0] - us).norm(), 1e-15);
    EXPECT_NEAR(p.f(us), 0.0, 1e-12);
    // Same as plain Ackley at x = 65.536 (u − u*).
    Vec u = Vec::Constant(d, 0.3);
    EXPECT_NEAR(p.f(u), kbo::ackley(65.536 * (u - us)), 1e-12);
  }
}

TEST(Problems, BadNamesAndDimensionsAreInputErrors) {
  EXPECT_THROW(kbo::make_problem("rosenbrok"), kbo::InputError);
  EXPECT_THROW(kbo::make_problem("branin", 3), kbo::InputError);
  EXPECT_THROW(kbo::make_problem("hartmann6", 2), kbo::InputError);
  EXPECT_THROW(kbo::make_problem("ackley-shifted", 11), kbo::InputError);
  EXPECT_THROW(kbo::make_problem("ackley", -1), kbo::InputError);
  try {
    kbo::make_problem("nope");
    FAIL();
  } catch (const kbo::InputError& e) {
    const std::string msg = e.what();
    for (const auto& n : kbo::problem_names()) EXPECT_NE(msg.find(n), std::string::npos) << n;
  }
  EXPECT_THROW(kbo::branin(Vec::Zero(3)), kbo::InputError);
}

TEST(Problems, EveryNameBuildsItsProblemInOrder) {
  const std::vector<std::string> expected = {"branin", "hartmann6", "ackley", "griewank", "rastrigin", "ackley-shifted"};
  EXPECT_EQ(kbo::problem_names(), expected);
  for (const auto& n : kbo::problem_names()) {
    const kbo::Problem p = kbo::make_problem(n);
    EXPECT_EQ(p.name, n);
    ASSERT_FALSE(p.argmins.empty());
    EXPECT_NEAR(p.f(p.argmins[0]), p.optimum, 1e-4) << n;
  }
  EXPECT_EQ(kbo::make_problem("rastrigin", 5).bounds.dim(), 5);
}

}  // namespace
