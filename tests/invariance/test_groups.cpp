// Groups: enumeration, |G|, closure, random elements, user groups, Hungarian, and every exact
// nearest-orbit-point fast path against brute-force enumeration.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "kbo/invariance/groups.hpp"

using namespace kbo;

namespace {
Vec random_vec(int d, Rng& rng, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  Vec v(d);
  for (int i = 0; i < d; ++i) v[i] = u(rng);
  return v;
}

struct Case {
  std::string name;
  int dim;
  double order;
};
const std::vector<Case> kFinite = {{"permutation", 4, 24},   {"signflip", 5, 32}, {"hyperoctahedral", 4, 384},
                                   {"blocks:3", 6, 6},       {"blocks:4", 8, 24}, {"cyclic", 5, 5},
                                   {"hyperoctahedral", 2, 8}, {"permutation", 1, 1}};
}  // namespace

TEST(Groups, OrderMatchesEnumerationAndElementsAreDistinct) {
  for (const auto& c : kFinite) {
    auto g = make_group(c.name, c.dim);
    ASSERT_TRUE(g) << c.name;
    EXPECT_TRUE(g->is_finite());
    EXPECT_DOUBLE_EQ(g->order(), c.order) << c.name;
    auto el = g->elements();
    EXPECT_EQ(el.size(), static_cast<std::size_t>(c.order)) << c.name;
    std::set<SignedPerm> s(el.begin(), el.end());
    EXPECT_EQ(s.size(), el.size()) << c.name << ": duplicate elements";
    EXPECT_TRUE(s.count(SignedPerm::identity(c.dim))) << c.name << ": identity missing";
  }
  EXPECT_DOUBLE_EQ(make_group("hyperoctahedral", 10)->order(), 1024.0 * 3628800.0);
  EXPECT_DOUBLE_EQ(make_group("hyperoctahedral", 5)->order(), 3840.0);
  EXPECT_DOUBLE_EQ(make_group("signflip", 6)->order(), 64.0);
  EXPECT_FALSE(make_group("rotation", 2)->is_finite());
}

TEST(Groups, ClosedUnderCompositionAndInverse) {
  Rng rng = make_rng(1);
  for (const auto& c : kFinite) {
    auto g = make_group(c.name, c.dim);
    auto el = g->elements();
    std::set<SignedPerm> s(el.begin(), el.end());
    for (int t = 0; t < 50; ++t) {
      const SignedPerm a = g->random_element(rng), b = g->random_element(rng);
      EXPECT_TRUE(s.count(a)) << c.name << ": random element not in the group";
      EXPECT_TRUE(s.count(a.compose(b))) << c.name;
      EXPECT_TRUE(s.count(a.inverse())) << c.name;
      EXPECT_TRUE(a.compose(a.inverse()) == SignedPerm::identity(c.dim));
      // composition agrees with the matrices
      EXPECT_LT((a.compose(b).matrix() - a.matrix() * b.matrix()).norm(), 1e-15);
    }
  }
}

TEST(Groups, RandomElementsCoverTheGroup) {
  auto g = make_group("hyperoctahedral", 2);
  Rng rng = make_rng(3);
  std::set<SignedPerm> seen;
  for (int t = 0; t < 400; ++t) seen.insert(g->random_element(rng));
  EXPECT_EQ(seen.size(), 8u);
}

TEST(Groups, SignedPermMatrixRoundTrip) {
  Rng rng = make_rng(4);
  auto g = make_group("hyperoctahedral", 5);
  for (int t = 0; t < 20; ++t) {
    const SignedPerm a = g->random_element(rng);
    EXPECT_TRUE(SignedPerm::from_matrix(a.matrix()) == a);
    const Vec z = random_vec(5, rng);
    EXPECT_LT((a.apply(z) - a.matrix() * z).norm(), 1e-15);
  }
  Mat bad = Mat::Identity(3, 3);
  bad(0, 1) = 1;
  EXPECT_THROW(SignedPerm::from_matrix(bad), InputError);
  Mat half = Mat::Identity(2, 2) * 0.5;
  EXPECT_THROW(SignedPerm::from_matrix(half), InputError);
}

TEST(Groups, CustomGroupIsTheClosureOfTheGivenMatrices) {
  // Generators of B_2: the swap and one sign flip generate all 8 signed permutations.
  nlohmann::json m = nlohmann::json::parse("[[[0,1],[1,0]], [[-1,0],[0,1]]]");
  auto g = make_group("custom", 2, {{"matrices", m}});
  EXPECT_DOUBLE_EQ(g->order(), 8.0);
  auto ref = make_group("hyperoctahedral", 2)->elements();
  auto el = g->elements();
  std::set<SignedPerm> a(el.begin(), el.end()), b(ref.begin(), ref.end());
  EXPECT_TRUE(a == b);
  // A single swap generates a group of order 2.
  EXPECT_DOUBLE_EQ(make_group("custom", 2, {{"matrices", nlohmann::json::parse("[[[0,1],[1,0]]]")}})->order(), 2.0);
  EXPECT_THROW(make_group("custom", 2, {{"matrices", nlohmann::json::parse("[[[2,0],[0,1]]]")}}), InputError);
  EXPECT_THROW(make_group("custom", 2, {{"matrices", nlohmann::json::parse("[[[1,0,0],[0,1,0],[0,0,1]]]")}}),
               InputError);
  EXPECT_THROW(make_group("custom", 2), InputError);
}

TEST(Groups, FactoryRejectsBadNamesAndDimensions) {
  try {
    make_group("mirror", 3);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("hyperoctahedral"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("blocks:K"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_group("blocks:3", 8), InputError);
  EXPECT_THROW(make_group("blocks:x", 8), InputError);
  EXPECT_THROW(make_group("blocks:0", 8), InputError);
  EXPECT_THROW(make_group("rotation", 3), InputError);
  EXPECT_THROW(make_group("scaling", 2, {{"max_factor", 0.5}}), InputError);
  EXPECT_EQ(make_group("none", 3), nullptr);
  EXPECT_THROW(make_group("hyperoctahedral", 10)->elements(), InputError);  // 3.7e9 elements
}

TEST(Groups, HungarianMatchesBruteForce) {
  Rng rng = make_rng(5);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  for (int K = 1; K <= 7; ++K)
    for (int t = 0; t < 10; ++t) {
      Mat C(K, K);
      for (int i = 0; i < K; ++i)
        for (int j = 0; j < K; ++j) C(i, j) = t % 3 == 0 ? std::floor(u(rng)) : u(rng);  // ties too
      std::vector<int> a;
      const double got = hungarian(C, a);
      std::vector<int> p(K);
      std::iota(p.begin(), p.end(), 0);
      double best = 1e300;
      do {
        double s = 0;
        for (int i = 0; i < K; ++i) s += C(i, p[i]);
        best = std::min(best, s);
      } while (std::next_permutation(p.begin(), p.end()));
      EXPECT_NEAR(got, best, 1e-12);
      double s = 0;
      std::set<int> cols;
      for (int i = 0; i < K; ++i) {
        s += C(i, a[i]);
        cols.insert(a[i]);
      }
      EXPECT_NEAR(s, got, 1e-12);
      EXPECT_EQ(static_cast<int>(cols.size()), K);
    }
}

TEST(Groups, FastAlignmentEqualsBruteForce) {
  // The fast nearest-orbit point must reach the brute-force minimum distance (to 1e-12) and be an
  // orbit point, for every finite group type, on generic points and on points with ties and zeros.
  Rng rng = make_rng(6);
  std::vector<Case> cases = kFinite;
  cases.push_back({"blocks:2", 6, 2});
  cases.push_back({"blocks:5", 10, 120});
  cases.push_back({"hyperoctahedral", 6, 46080});
  for (const auto& c : cases) {
    auto g = make_group(c.name, c.dim);
    auto el = g->elements();
    for (int t = 0; t < 40; ++t) {
      Vec z = random_vec(c.dim, rng), w = random_vec(c.dim, rng);
      if (t % 4 == 1) {  // ties and zeros
        z[0] = 0.0;
        w[c.dim - 1] = w[0];
        if (c.dim > 2) z[2 % c.dim] = -z[1];
      }
      if (t % 4 == 2) w = el[t % el.size()].apply(z) + 1e-3 * random_vec(c.dim, rng);  // near the orbit
      Vec za, wa, zb, wb;
      g->align(z, w, za, wa);
      g->align_brute_force(z, w, zb, wb);
      EXPECT_NEAR((za - wa).norm(), (zb - wb).norm(), 1e-12) << c.name << " t=" << t;
      EXPECT_LT((za - z).norm(), 1e-15);
      // w_out must be in the orbit of w
      double best = 1e300;
      for (const auto& h : el) best = std::min(best, (h.apply(w) - wa).norm());
      EXPECT_LT(best, 1e-15) << c.name;
    }
  }
}

TEST(Groups, RotationAlignmentIsTheRadialClosedForm) {
  auto g = make_group("rotation", 2);
  Rng rng = make_rng(7);
  for (int t = 0; t < 50; ++t) {
    const Vec z = random_vec(2, rng), w = random_vec(2, rng);
    Vec za, wa;
    g->align(z, w, za, wa);
    // numerical minimisation over the angle: grid, then ternary search around the best grid point
    auto dist = [&](double a) {
      const double c = std::cos(a), s = std::sin(a);
      return std::hypot(z[0] - (c * w[0] - s * w[1]), z[1] - (s * w[0] + c * w[1]));
    };
    int kbest = 0;
    for (int k = 1; k < 3600; ++k)
      if (dist(2 * M_PI * k / 3600.0) < dist(2 * M_PI * kbest / 3600.0)) kbest = k;
    double lo = 2 * M_PI * (kbest - 1) / 3600.0, hi = 2 * M_PI * (kbest + 1) / 3600.0;
    for (int it = 0; it < 200; ++it) {
      const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      (dist(m1) < dist(m2) ? hi : lo) = (dist(m1) < dist(m2) ? m2 : m1);
    }
    const double best = dist(0.5 * (lo + hi));
    EXPECT_NEAR((za - wa).norm(), std::abs(z.norm() - w.norm()), 1e-14);
    EXPECT_NEAR((za - wa).norm(), best, 1e-9);
    EXPECT_NEAR(wa.norm(), w.norm(), 1e-14);  // on the orbit (circle) of w
  }
}

TEST(Groups, ScalingAlignmentIsTheSmallestFactorPair) {
  auto g = std::static_pointer_cast<const ScalingGroup>(make_group("scaling", 3, {{"radius", 0.4}, {"max_factor", 3.0}}));
  Rng rng = make_rng(8);
  for (int t = 0; t < 30; ++t) {
    const Vec z = random_vec(3, rng), w = random_vec(3, rng);
    Vec za, wa;
    g->align(z, w, za, wa);
    const Vec u = g->representative(z), v = g->representative(w);
    double best = 1e300;
    const int N = 600;
    for (int i = 0; i <= N; ++i)
      for (int j = 0; j <= N; ++j) {
        const double a = std::exp(std::log(3.0) * (2.0 * i / N - 1.0)), b = std::exp(std::log(3.0) * (2.0 * j / N - 1.0));
        best = std::min(best, (a * u - b * v).norm());
      }
    EXPECT_NEAR((za - wa).norm(), best, 1e-12);
    // invariant: depends on the directions only
    Vec za2, wa2;
    g->align(2.7 * z, 0.1 * w, za2, wa2);
    EXPECT_LT((za2 - za).norm() + (wa2 - wa).norm(), 1e-14);
  }
}
