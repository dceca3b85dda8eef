// The BBOB functions against what their definitions state: f(xopt) = fopt (exactly where the definition
// puts the optimum on a grid point, to rounding elsewhere), xopt inside [−5, 5]^D, no value below fopt at
// random points, the stated structure (separable functions are sums over coordinates; the sphere's value
// is the squared distance), and instance draws that depend on the instance and are reproducible.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kbo/core/error.hpp"
#include "kbo/optimize/bbob.hpp"

using kbo::make_bbob;
using kbo::Vec;

namespace {

Vec uniform_point(std::mt19937_64& rng, int d, double lo = -5.0, double hi = 5.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  Vec x(d);
  for (auto& v : x) v = u(rng);
  return x;
}

}  // namespace

TEST(Bbob, EveryFunctionTakesItsMinimumFoptAtXopt) {
  std::mt19937_64 rng(7);
  for (int d : {2, 3, 5, 10})
    for (int f = 1; f <= 24; ++f)
      for (int instance : {1, 2, 5}) {
        const kbo::Problem p = make_bbob(f, instance, d);
        const Vec& xopt = p.argmins.at(0);
        ASSERT_EQ(xopt.size(), d);
        EXPECT_LE(xopt.cwiseAbs().maxCoeff(), 5.0) << p.name << " d=" << d;
        // f20 (Schwefel) has its optimum at a constant given to 10 digits: f(xopt) - fopt is ~1e-9 there.
        const double tol = f == 20 ? 1e-6 : 1e-9 * std::max(1.0, std::abs(p.optimum));
        EXPECT_NEAR(p.f(xopt), p.optimum, tol) << p.name << " d=" << d;
        for (int k = 0; k < 200; ++k)
          EXPECT_GE(p.f(uniform_point(rng, d)), p.optimum - tol) << p.name << " d=" << d;
      }
}

TEST(Bbob, FoptIsRoundedToHundredthsWithinPlusMinus1000AndDependsOnTheInstance) {
  for (int f = 1; f <= 24; ++f) {
    const double a = make_bbob(f, 1, 2).optimum, b = make_bbob(f, 2, 2).optimum;
    for (double v : {a, b}) {
      EXPECT_LE(std::abs(v), 1000.0);
      EXPECT_NEAR(v * 100.0, std::round(v * 100.0), 1e-6) << "f" << f;
    }
    EXPECT_NE(a, b) << "f" << f;
  }
  // 4 and 18 share the draws of 3 and 17 (the definitions' seeds).
  EXPECT_EQ(make_bbob(4, 3, 2).optimum, make_bbob(3, 3, 2).optimum);
  EXPECT_EQ(make_bbob(18, 3, 2).optimum, make_bbob(17, 3, 2).optimum);
}

TEST(Bbob, InstancesAreReproducible) {
  for (int f : {1, 7, 15, 21, 24}) {
    const kbo::Problem a = make_bbob(f, 3, 5), b = make_bbob(f, 3, 5);
    EXPECT_EQ(a.argmins[0], b.argmins[0]);
    Vec x = Vec::LinSpaced(5, -4.0, 4.0);
    EXPECT_EQ(a.f(x), b.f(x));
  }
}

TEST(Bbob, SphereIsTheSquaredDistanceToXopt) {
  const kbo::Problem p = make_bbob(1, 4, 6);
  std::mt19937_64 rng(1);
  for (int k = 0; k < 20; ++k) {
    const Vec x = uniform_point(rng, 6);
    EXPECT_NEAR(p.f(x) - p.optimum, (x - p.argmins[0]).squaredNorm(), 1e-9);
  }
}

TEST(Bbob, SeparableFunctionsAreSumsOverCoordinates) {
  // For f(x) = Σ g_i(x_i) + c, moving coordinate 2 from s to t changes f by g_2(t) − g_2(s), whatever the
  // other coordinates are. (Points stay inside [−4, 4]: the linear slope is cut off beyond its optimum.)
  std::mt19937_64 rng(3);
  for (int f : {1, 2, 3, 4, 5}) {
    const kbo::Problem p = make_bbob(f, 1, 4);
    const double s = -2.5, t = 1.234;
    double reference = 0.0;
    for (int k = 0; k < 10; ++k) {
      Vec a = uniform_point(rng, 4, -4.0, 4.0);
      a(2) = s;
      Vec b = a;
      b(2) = t;
      const double change = p.f(b) - p.f(a);
      if (k == 0) reference = change;
      EXPECT_NEAR(change, reference, 1e-8 * std::max(1.0, std::abs(reference))) << "f" << f;
    }
  }
  // A rotated function is not: the same check fails for the rotated ellipsoid.
  const kbo::Problem rotated = make_bbob(10, 1, 4);
  Vec a = Vec::Constant(4, 1.0), c = Vec::Constant(4, -2.0);
  Vec a2 = a, c2 = c;
  a2(2) = c2(2) = 3.0;
  a(2) = c(2) = 0.0;
  EXPECT_GT(std::abs((rotated.f(a2) - rotated.f(a)) - (rotated.f(c2) - rotated.f(c))), 1.0);
}

TEST(Bbob, LinearSlopeIsOptimalAtTheBoxCornerAndFlatBeyondIt) {
  const kbo::Problem p = make_bbob(5, 1, 3);
  const Vec& corner = p.argmins[0];
  for (double v : corner) EXPECT_EQ(std::abs(v), 5.0);
  // Moving further out along the optimum's direction changes nothing (z_i = xopt_i there).
  Vec beyond = 1.5 * corner;
  EXPECT_NEAR(p.f(beyond), p.optimum, 1e-12);
}

TEST(Bbob, BadFunctionInstanceOrDimensionIsAnInputError) {
  EXPECT_THROW(make_bbob(0, 1, 2), kbo::InputError);
  EXPECT_THROW(make_bbob(25, 1, 2), kbo::InputError);
  EXPECT_THROW(make_bbob(1, 0, 2), kbo::InputError);
  EXPECT_THROW(make_bbob(1, 1, 1), kbo::InputError);
  EXPECT_THROW(kbo::make_bbob_from_name("bbob:x:1", 2), kbo::InputError);
  EXPECT_THROW(kbo::make_bbob_from_name("bbob:3", 2), kbo::InputError);
  EXPECT_NO_THROW(kbo::make_bbob_from_name("bbob:3:2", 0));
}
