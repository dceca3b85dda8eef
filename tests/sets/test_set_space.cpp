// SetSpace: flat layout, canonical region and its projection (sorting), sampling.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/sets/set_space.hpp"

namespace kbo {
namespace {

Box element_box(int d, double lo, double hi) { return Box(Vec::Constant(d, lo), Vec::Constant(d, hi)); }

// Multiset of element rows, sorted lexicographically: equal iff same set.
std::vector<std::vector<double>> as_multiset(const Vec& x, int m, int d) {
  std::vector<std::vector<double>> v;
  const Mat E = SetSpace::to_elements(x, m, d);
  for (int i = 0; i < m; ++i) {
    std::vector<double> r(d);
    for (int k = 0; k < d; ++k) r[k] = E(i, k);
    v.push_back(r);
  }
  std::sort(v.begin(), v.end());
  return v;
}

TEST(SetSpace, FlatLayoutIsRowMajorElements) {
  Vec x(6);
  x << 1, 2, 3, 4, 5, 6;  // m = 3 elements of d = 2
  const Mat E = SetSpace::to_elements(x, 3, 2);
  EXPECT_EQ(E(0, 0), 1);
  EXPECT_EQ(E(0, 1), 2);
  EXPECT_EQ(E(2, 0), 5);
  EXPECT_EQ(E(2, 1), 6);
  EXPECT_EQ(SetSpace::from_elements(E), x);
  EXPECT_THROW(SetSpace::to_elements(x, 4, 2), InputError);
}

TEST(SetSpace, BoundsTileTheElementBox) {
  Box eb(Vec::LinSpaced(2, -1, 0), Vec::LinSpaced(2, 1, 3));  // [-1,1] x [0,3]
  SetSpace s(4, eb);
  EXPECT_EQ(s.dim(), 8);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(s.bounds().lower(2 * i), -1);
    EXPECT_EQ(s.bounds().lower(2 * i + 1), 0);
    EXPECT_EQ(s.bounds().upper(2 * i + 1), 3);
  }
  EXPECT_NE(s.describe().find("m=4"), std::string::npos);
}

TEST(SetSpace, CanonicalizeIsIdempotentLandsInRegionAndKeepsTheSet) {
  for (SetOrder order : {SetOrder::FirstCoordinate, SetOrder::Norm}) {
    SetSpace s(7, element_box(3, -2, 2), order);
    Rng rng = make_rng(3);
    std::uniform_real_distribution<double> u(-2, 2);
    for (int rep = 0; rep < 50; ++rep) {
      Vec x(s.dim());
      for (int i = 0; i < x.size(); ++i) x(i) = u(rng);
      if (rep % 5 == 0) x.segment(0, 3) = x.segment(3, 3);  // a duplicated element
      if (rep % 7 == 0) x(0) = x(3);                       // a tie in the first coordinate only
      Vec c = x;
      s.canonicalize(c);
      EXPECT_TRUE(s.in_canonical_region(c));
      EXPECT_EQ(as_multiset(c, 7, 3), as_multiset(x, 7, 3));
      Vec cc = c;
      s.canonicalize(cc);
      EXPECT_EQ(cc, c);  // idempotent, bit for bit
      // Every ordering of the same set maps to the same canonical point.
      Mat E = SetSpace::to_elements(x, 7, 3);
      std::vector<int> p = {6, 2, 0, 5, 1, 3, 4};
      Mat P(7, 3);
      for (int i = 0; i < 7; ++i) P.row(i) = E.row(p[i]);
      Vec y = SetSpace::from_elements(P);
      s.canonicalize(y);
      EXPECT_EQ(y, c);
    }
  }
}

TEST(SetSpace, RegionKeyIsTheDocumentedOne) {
  SetSpace first(3, element_box(2, -5, 5), SetOrder::FirstCoordinate);
  SetSpace norm(3, element_box(2, -5, 5), SetOrder::Norm);
  Vec x(6);
  x << 3, 0, -4, 0, 1, 0.5;
  Vec a = x, b = x;
  first.canonicalize(a);
  norm.canonicalize(b);
  Vec ea(6), eb(6);
  ea << -4, 0, 1, 0.5, 3, 0;  // by first coordinate
  eb << 1, 0.5, 3, 0, -4, 0;  // by norm: 1.118, 3, 4
  EXPECT_EQ(a, ea);
  EXPECT_EQ(b, eb);
  EXPECT_FALSE(first.in_canonical_region(x));
  // Ties in the first coordinate are broken by the next coordinate.
  Vec t(6);
  t << 1, 2, 1, -1, 0, 0;
  first.canonicalize(t);
  Vec et(6);
  et << 0, 0, 1, -1, 1, 2;
  EXPECT_EQ(t, et);
}

TEST(SetSpace, SamplesAreInTheBoxAndTheRegion) {
  SetSpace s(20, element_box(2, -3, 7));
  for (SamplingMethod method : {SamplingMethod::Sobol, SamplingMethod::Uniform}) {
    Rng rng = make_rng(11);
    const Mat X = s.sample(64, method, rng);
    ASSERT_EQ(X.rows(), 64);
    ASSERT_EQ(X.cols(), 40);
    for (int i = 0; i < X.rows(); ++i) {
      const Vec x = X.row(i).transpose();
      EXPECT_TRUE(s.bounds().contains(x));
      EXPECT_TRUE(s.in_canonical_region(x));
    }
  }
}

TEST(SetSpace, UnitCubeImageKeepsTheFirstCoordinateRegion) {
  // The BO step works on the unit-cube image; an increasing affine map per coordinate preserves the
  // lexicographic order, so canonical unit points are images of canonical points.
  auto s = std::make_shared<SetSpace>(6, Box(Vec::Constant(2, -10.0), Vec::Constant(2, 30.0)));
  UnitCubeSpace unit(s);
  Rng rng = make_rng(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int rep = 0; rep < 20; ++rep) {
    Vec v(12);
    for (int i = 0; i < 12; ++i) v(i) = u(rng);
    unit.canonicalize(v);
    EXPECT_TRUE(s->in_canonical_region(unit.from_unit(v)));
    Vec w = s->bounds().to_unit(s->bounds().from_unit(v));
    s->canonicalize(w);  // sorting in unit coordinates gives the same order
    EXPECT_TRUE(w.isApprox(v, 1e-12));
  }
}

// Two elements coincide when they are within 1e-3 of the element box's width in every coordinate (the
// tolerance of the degeneracy test), whatever the box's scale; a plain box has no elements.
TEST(SetSpace, CoincidentElementsAreWithinAThousandthOfTheBoxInEveryCoordinate) {
  const SetSpace s(3, Box(Vec::Constant(2, 0.0), Vec::Constant(2, 10.0)));  // tolerance 0.01
  Vec x(6);
  x << 1.0, 2.0, 5.0, 5.0, 1.009, 2.009;  // elements 0 and 2 within 0.01 in both coordinates
  EXPECT_TRUE(s.has_coincident_elements(x));
  x << 1.0, 2.0, 5.0, 5.0, 1.009, 2.02;  // 0.02 apart in the second coordinate
  EXPECT_FALSE(s.has_coincident_elements(x));
  x << 1.0, 2.0, 5.0, 5.0, 5.0, 5.0;
  EXPECT_TRUE(s.has_coincident_elements(x));
  EXPECT_FALSE(BoxSpace(Box::unit(6)).has_coincident_elements(Vec::Zero(6)));
}

TEST(SetSpace, BadInputIsAnInputError) {
  EXPECT_THROW(SetSpace(0, element_box(2, 0, 1)), InputError);
  EXPECT_THROW(parse_set_order("random"), InputError);
  EXPECT_EQ(parse_set_order("norm"), SetOrder::Norm);
  EXPECT_EQ(parse_set_order("lex"), SetOrder::FirstCoordinate);
  EXPECT_EQ(to_string(SetOrder::FirstCoordinate), "first");
  try {
    parse_set_order("random");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("set order: unknown value 'random' (allowed: first, norm)"), std::string::npos)
        << e.what();
  }
  SetSpace s(3, element_box(2, 0, 1));
  Vec wrong(5);
  EXPECT_THROW(s.canonicalize(wrong), InputError);
}

}  // namespace
}  // namespace kbo
