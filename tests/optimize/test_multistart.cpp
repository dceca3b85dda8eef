// Multi-start / CMA-ES / DIRECT front-end on plain objectives: global optima, determinism across
// thread counts, canonical results, extra starts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kbo/optimize/multistart.hpp"
#include "kbo/optimize/problems.hpp"

namespace {

using kbo::Mat;
using kbo::Vec;

// -Branin (maximised), with gradient.
double neg_branin(const Vec& x, Vec* g) {
  const double b = 5.1 / (4.0 * M_PI * M_PI), c = 5.0 / M_PI, t = 1.0 / (8.0 * M_PI);
  const double u = x[1] - b * x[0] * x[0] + c * x[0] - 6.0;
  if (g) {
    g->resize(2);
    (*g)[0] = -(2.0 * u * (-2.0 * b * x[0] + c) - 10.0 * (1.0 - t) * std::sin(x[0]));
    (*g)[1] = -(2.0 * u);
  }
  return -kbo::branin(x);
}

// A box whose canonical region is "sorted coordinates" (as for sets of scalars).
class SortedSpace : public kbo::Space {
 public:
  explicit SortedSpace(int d) : box_(kbo::Box::unit(d)) {}
  int dim() const override { return box_.dim(); }
  const kbo::Box& bounds() const override { return box_; }
  void canonicalize(Vec& x) const override { std::sort(x.data(), x.data() + x.size()); }
  std::string describe() const override { return "sorted"; }
 private:
  kbo::Box box_;
};

kbo::BoxSpace branin_space() { return kbo::BoxSpace(kbo::make_problem("branin").bounds); }

TEST(MultiStart, FindsBraninGlobalMinimumWithEveryOptimizer) {
  const auto space = branin_space();
  for (auto type : {kbo::AcqOptimizerType::MultiStart, kbo::AcqOptimizerType::Cmaes, kbo::AcqOptimizerType::Direct}) {
    kbo::AcqOptimizerOptions o;
    o.type = type;
    o.seed = 1;
    o.threads = 2;
    o.max_evaluations = type == kbo::AcqOptimizerType::Direct ? 2000 : 300;
    auto r = kbo::maximize_objective(neg_branin, space, o);
    EXPECT_NEAR(-r.value, 0.397887, 1e-3) << static_cast<int>(type);
    EXPECT_TRUE(space.bounds().contains(r.x));
    EXPECT_NEAR(neg_branin(r.x, nullptr), r.value, 1e-12);
  }
}

TEST(MultiStart, DeterministicAcrossThreadCounts) {
  const auto space = kbo::BoxSpace(kbo::make_problem("rastrigin", 3).bounds);
  kbo::Objective f = [](const Vec& x, Vec* g) {
    if (g) {
      g->resize(x.size());
      for (int i = 0; i < x.size(); ++i) (*g)[i] = -(2.0 * x[i] + 20.0 * M_PI * std::sin(2.0 * M_PI * x[i]));
    }
    return -kbo::rastrigin(x);
  };
  for (auto type : {kbo::AcqOptimizerType::MultiStart, kbo::AcqOptimizerType::Cmaes}) {
    kbo::AcqOptimizerOptions o;
    o.type = type;
    o.seed = 11;
    o.raw_samples = 300;  // several scoring chunks
    o.num_starts = 6;
    o.max_evaluations = 150;
    o.threads = 1;
    const auto a = kbo::maximize_objective(f, space, o);
    for (int t : {2, 3, 6}) {
      o.threads = t;
      const auto b = kbo::maximize_objective(f, space, o);
      EXPECT_EQ(a.x, b.x) << t;
      EXPECT_EQ(a.value, b.value) << t;
      EXPECT_EQ(a.evaluations, b.evaluations) << t;
    }
    o.seed = 12;  // and the seed matters (different Sobol scrambling / CMA-ES streams)
    o.threads = 1;
    const auto c = kbo::maximize_objective(f, space, o);
    EXPECT_GT(c.evaluations, 0);
    EXPECT_NE(a.x, c.x);
  }
}

TEST(MultiStart, ResultIsCanonicalForASpaceWithSymmetry) {
  SortedSpace space(3);
  Vec c(3);
  c << 0.8, 0.1, 0.45;  // unsorted maximiser; the best canonical point is sort(c)
  kbo::Objective f = [&](const Vec& x, Vec* g) {
    // Permutation-invariant objective: compares sorted x with sorted c.
    Vec xs = x, cs = c;
    std::sort(xs.data(), xs.data() + 3);
    std::sort(cs.data(), cs.data() + 3);
    if (g) *g = -2.0 * (x - cs);  // valid on the sorted region, where the runs start
    return -(xs - cs).squaredNorm();
  };
  for (auto type : {kbo::AcqOptimizerType::MultiStart, kbo::AcqOptimizerType::Cmaes}) {
    kbo::AcqOptimizerOptions o;
    o.type = type;
    o.threads = 2;
    auto r = kbo::maximize_objective(f, space, o);
    EXPECT_TRUE(std::is_sorted(r.x.data(), r.x.data() + 3));
    Vec cs = c;
    std::sort(cs.data(), cs.data() + 3);
    EXPECT_LT((r.x - cs).norm(), 1e-3);
  }
}

TEST(MultiStart, ExtraStartsAreAlwaysUsed) {
  // A needle of width 1e-4 at p that no Sobol candidate hits; a smooth bump elsewhere.
  Vec p(2);
  p << 0.123456, 0.654321;
  kbo::Objective f = [&](const Vec& x, Vec* g) {
    const double d2 = (x - p).squaredNorm();
    const double needle = 10.0 * std::exp(-d2 / 1e-8);
    const double bump = std::exp(-(x - Vec::Constant(2, 0.8)).squaredNorm());
    if (g) *g = needle * (-2.0 * (x - p) / 1e-8) + bump * (-2.0 * (x - Vec::Constant(2, 0.8)));
    return needle + bump;
  };
  kbo::BoxSpace space(kbo::Box::unit(2));
  kbo::AcqOptimizerOptions o;
  o.raw_samples = 64;
  const auto without = kbo::maximize_objective(f, space, o);
  EXPECT_LT(without.value, 2.0);
  Mat extra = p.transpose();
  const auto with = kbo::maximize_objective(f, space, o, extra);
  EXPECT_GT(with.value, 10.0);
  EXPECT_LT((with.x - p).norm(), 1e-5);
}

TEST(MultiStart, BadOptionsAreInputErrors) {
  kbo::BoxSpace space(kbo::Box::unit(2));
  kbo::AcqOptimizerOptions o;
  o.raw_samples = -1;
  EXPECT_THROW(kbo::maximize_objective(neg_branin, space, o), kbo::InputError);
  o = {};
  o.max_evaluations = 0;
  EXPECT_THROW(kbo::maximize_objective(neg_branin, space, o), kbo::InputError);
  o = {};
  EXPECT_THROW(kbo::maximize_objective(neg_branin, space, o, Mat::Zero(1, 3)), kbo::InputError);
  EXPECT_THROW(kbo::parse_acq_optimizer("lbfgs"), kbo::InputError);
  EXPECT_EQ(kbo::parse_acq_optimizer("cmaes"), kbo::AcqOptimizerType::Cmaes);
}

}  // namespace
