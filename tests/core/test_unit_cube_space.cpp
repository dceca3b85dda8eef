// UnitCubeSpace: the original space's draws mapped to [0,1]^D, its canonicalisation carried through the
// affine map, and the result always inside the unit cube.
#include <gtest/gtest.h>

#include "kbo/core/error.hpp"
#include "kbo/core/space.hpp"

using namespace kbo;

namespace {
// A space whose canonicalisation pushes every coordinate slightly above its upper bound.
class OvershootSpace : public BoxSpace {
 public:
  using BoxSpace::BoxSpace;
  void canonicalize(Vec& x) const override { x = bounds().upper.array() + 1e-3; }
};
}  // namespace

TEST(UnitCubeSpace, SamplesAreTheOriginalDrawsMapped) {
  auto box = std::make_shared<BoxSpace>(Box(Vec::Constant(3, -5.0), Vec::Constant(3, 10.0)));
  UnitCubeSpace unit(box);
  EXPECT_EQ(unit.dim(), 3);
  EXPECT_EQ(unit.bounds().lower, Vec::Zero(3));
  EXPECT_EQ(unit.bounds().upper, Vec::Ones(3));
  for (SamplingMethod m : {SamplingMethod::Sobol, SamplingMethod::Uniform}) {
    Rng a = make_rng(3), b = make_rng(3);
    const Mat U = unit.sample(16, m, a);
    const Mat X = box->sample(16, m, b);
    EXPECT_EQ(U, unit.rows_to_unit(X));
    EXPECT_TRUE(((U.array() >= 0.0) && (U.array() <= 1.0)).all());
    for (int i = 0; i < 16; ++i) EXPECT_LT((unit.from_unit(U.row(i).transpose()) - X.row(i).transpose()).norm(), 1e-12);
  }
}

TEST(UnitCubeSpace, CanonicalizeStaysInTheCube) {
  UnitCubeSpace unit(std::make_shared<OvershootSpace>(Box(Vec::Zero(2), Vec::Constant(2, 4.0))));
  Vec u = Vec::Constant(2, 0.3);
  unit.canonicalize(u);
  EXPECT_EQ(u, Vec::Ones(2));
  EXPECT_NE(unit.describe().find("box("), std::string::npos);
}

TEST(UnitCubeSpace, NeedsAnOriginal) { EXPECT_THROW(UnitCubeSpace(nullptr), InputError); }
