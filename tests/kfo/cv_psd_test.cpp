// C by cross-validation with the spectrum fix inside each fold: without a fix it is plain select_c, and the
// kernel values among a fold's held-out points cannot change that fold's score (they enter neither its
// training block nor its mapped rows), which clipping the whole matrix first does not guarantee.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/kfo/cv_psd.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {

struct Problem {
  Mat K;
  Labels y;
};

// Overlapping classes and an indefinite kernel: an RBF Gram minus a smaller, wider one (a difference of
// Gaussians has negative eigenvalues).
Problem indefinite_problem() {
  Rng rng = make_rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  const int n = 50;
  Mat X(n, 2);
  Problem p;
  p.y.resize(n);
  for (int i = 0; i < n; ++i) {
    p.y[i] = i % 2;
    X(i, 0) = g(rng) + (p.y[i] ? 0.8 : -0.8);
    X(i, 1) = g(rng);
  }
  p.K.resize(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double r2 = (X.row(i) - X.row(j)).squaredNorm();
      p.K(i, j) = std::exp(-r2 / 0.5) - 0.6 * std::exp(-r2 / 8.0);
    }
  return p;
}

}  // namespace

TEST(KfoCvPsd, WithoutAFixItIsPlainSelectC) {
  const Problem p = indefinite_problem();
  const Folds f = make_folds(p.y, 5, 3);
  const CvChoice a = select_c_fixed_per_fold(p.K, p.y, default_c_grid(), f, SpectrumFix::None);
  const CvChoice b = select_c(p.K, p.y, default_c_grid(), f);
  EXPECT_DOUBLE_EQ(a.accuracy, b.accuracy);
  EXPECT_DOUBLE_EQ(a.C, b.C);
  EXPECT_LT(a.accuracy, 1.0);  // overlapping classes: not a trivial score
  EXPECT_GT(a.accuracy, 0.0);
}

TEST(KfoCvPsd, HeldOutPairsDoNotLeakIntoTheScore) {
  Problem p = indefinite_problem();
  // One held-out fold: its points' kernel values among themselves enter neither the training block nor the
  // mapped held-out rows (with several folds they are training values of the other folds).
  const Folds f = {make_folds(p.y, 5, 3)[0]};
  ASSERT_GT(SpectralTransform(p.K, SpectrumFix::Clip).negative_eigenvalues(), 0);
  const CvChoice before = select_c_fixed_per_fold(p.K, p.y, default_c_grid(), f, SpectrumFix::Clip);
  for (int i : f[0])
    for (int j : f[0])
      if (i != j) p.K(i, j) += 0.7;
  const CvChoice after = select_c_fixed_per_fold(p.K, p.y, default_c_grid(), f, SpectrumFix::Clip);
  EXPECT_DOUBLE_EQ(before.accuracy, after.accuracy);
  EXPECT_DOUBLE_EQ(before.C, after.C);
  EXPECT_THROW(select_c_fixed_per_fold(p.K, Labels(3, 0), default_c_grid(), f, SpectrumFix::Clip), InputError);
}
