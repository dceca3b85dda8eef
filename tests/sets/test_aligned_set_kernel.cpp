// The aligned set kernel (kbo/sets/aligned_set_kernel.hpp) against its definition (brute force over the
// orderings), its invariants and finite differences, and the strategy's recentring at the incumbent.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "kbo/sets/aligned_set_kernel.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/registry.hpp"
#include "shuffled_set.hpp"

namespace kbo {
namespace {

// The ordering of x's elements nearest the centre, by enumerating all m! of them.
Vec nearest_ordering(const Vec& x, const Vec& centre, int m, int d) {
  std::vector<int> order(m);
  std::iota(order.begin(), order.end(), 0);
  Vec best;
  double nearest = 1e300;
  do {
    Vec y(x.size());
    for (int i = 0; i < m; ++i) y.segment(i * d, d) = x.segment(order[i] * d, d);
    if ((y - centre).squaredNorm() < nearest) nearest = (y - centre).squaredNorm(), best = y;
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

TEST(AlignedSetKernel, IsTheBaseKernelOnEachSetsOrderingNearestTheCentre) {
  Rng rng = make_rng(4);
  for (const auto& [m, d] : {std::pair{3, 2}, std::pair{4, 1}, std::pair{2, 3}}) {
    AlignedSetKernel k(StationaryType::Matern52, m, d, /*ard=*/true, 0.3, 1.4);
    Vec log_p = k.log_params();
    for (Eigen::Index i = 0; i + 1 < log_p.size(); ++i) log_p[i] = std::log(0.2 + 0.05 * static_cast<double>(i));
    k.set_log_params(log_p);  // distinct lengthscales per element and coordinate
    const Vec centre = random_sets(1, m, d, rng).row(0).transpose();
    k.recentre(centre);
    const Mat X = random_sets(6, m, d, rng), Y = random_sets(5, m, d, rng);
    const Mat K = k.cross(X, Y);
    for (Eigen::Index i = 0; i < X.rows(); ++i)
      for (Eigen::Index j = 0; j < Y.rows(); ++j) {
        const Vec a = nearest_ordering(X.row(i).transpose(), centre, m, d);
        const Vec b = nearest_ordering(Y.row(j).transpose(), centre, m, d);
        EXPECT_NEAR(K(i, j), k.base()(a, b), 1e-12) << "m " << m << " d " << d;
      }
    // Invariant: any ordering of a set's elements gives the same values.
    Mat Xs = X;
    for (Eigen::Index i = 0; i < X.rows(); ++i) Xs.row(i) = shuffled(X.row(i).transpose(), m, d, rng).transpose();
    EXPECT_LT((k.cross(Xs, Y) - K).cwiseAbs().maxCoeff(), 1e-14);
    // PSD with the base kernel's constant prior variance.
    const Mat Z = random_sets(30, m, d, rng);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Mat>(k.gram(Z)).eigenvalues().minCoeff(), -1e-10);
    EXPECT_LT((k.diag(Z).array() - 1.4).abs().maxCoeff(), 1e-15);
  }
}

TEST(AlignedSetKernel, RecentringMovesThePairingAndForgetsTheCachedOne) {
  Rng rng = make_rng(5);
  const int m = 3, d = 2;
  AlignedSetKernel k(StationaryType::RBF, m, d, true, 0.25, 1.0);
  Vec log_p = k.log_params();
  for (Eigen::Index i = 0; i + 1 < log_p.size(); ++i) log_p[i] = std::log(0.15 + 0.1 * static_cast<double>(i));
  k.set_log_params(log_p);
  const Mat X = random_sets(8, m, d, rng);
  // No centre yet: the sets as given.
  EXPECT_LT((k.gram(X) - k.base().gram(X)).cwiseAbs().maxCoeff(), 1e-14);
  k.recentre(X.row(0).transpose());
  k.condition_on(X);
  const Mat before = k.gram(X);
  const Vec other = random_sets(1, m, d, rng).row(0).transpose();
  k.recentre(other);
  AlignedSetKernel fresh = k;
  fresh.condition_on(Mat(0, m * d));  // nothing cached
  EXPECT_LT((k.gram(X) - fresh.gram(X)).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_GT((k.gram(X) - before).cwiseAbs().maxCoeff(), 1e-6);  // with distinct lengthscales the pairing matters
  EXPECT_THROW(k.recentre(Vec::Zero(5)), InputError);
}

TEST(AlignedSetKernel, InputGradientMatchesFiniteDifferencesInAnyOrdering) {
  Rng rng = make_rng(6);
  const int m = 3, d = 2;
  AlignedSetKernel k(StationaryType::Matern52, m, d, true, 0.3, 1.2);
  k.recentre(random_sets(1, m, d, rng).row(0).transpose());
  const Mat X = random_sets(7, m, d, rng);
  k.condition_on(X);
  for (int trial = 0; trial < 5; ++trial) {
    const Vec x = shuffled(random_sets(1, m, d, rng).row(0).transpose(), m, d, rng);
    const Mat G = k.cross_grad_x(x, X);
    const double h = 1e-6;
    for (Eigen::Index c = 0; c < x.size(); ++c) {
      Vec xp = x, xm = x;
      xp[c] += h, xm[c] -= h;
      const Mat fd = (k.cross(xp.transpose(), X) - k.cross(xm.transpose(), X)) / (2 * h);
      for (Eigen::Index j = 0; j < X.rows(); ++j) EXPECT_NEAR(G(c, j), fd(0, j), 1e-6) << "coordinate " << c;
    }
  }
}

TEST(AlignedSetKernel, ChartIsTheBaseKernelOnTheRowsAlignedToThePoint) {
  Rng rng = make_rng(7);
  const int m = 3, d = 2;
  AlignedSetKernel k(StationaryType::Matern52, m, d, true, 0.3, 1.2);
  const Vec x = random_sets(1, m, d, rng).row(0).transpose();
  const Mat X = random_sets(5, m, d, rng);
  Mat C = X;
  const KernelPtr chart = k.local_chart(x, C);
  ASSERT_TRUE(chart);
  EXPECT_EQ(chart->log_params(), k.log_params());
  for (Eigen::Index r = 0; r < X.rows(); ++r)
    EXPECT_LT((C.row(r).transpose() - nearest_ordering(X.row(r).transpose(), x, m, d)).norm(), 1e-15);
  // The factory builds it by name.
  EXPECT_NE(make_set_kernel("matern52", m, d, true, "aligned", 0, 0)->describe().find("aligned("), std::string::npos);
}

// The strategy recentres the kernel at the incumbent before each refit (Kernel::recentre): the model a trial
// reports is paired with that trial's best set, and the next trial's with the next best.
TEST(AlignedSetKernel, TheStrategyCentresItAtTheIncumbent) {
  const int m = 3, d = 2;
  auto space = std::make_shared<SetSpace>(m, Box::unit(d));
  Rng rng = make_rng(9);
  Mat X = space->sample(12, SamplingMethod::Uniform, rng);
  auto value = [](const Vec& x) {  // higher is better: the elements near (0.2, 0.7), (0.5, 0.5), (0.8, 0.1)
    const Mat E = SetSpace::to_elements(x, 3, 2);
    const Mat T = (Mat(3, 2) << 0.2, 0.7, 0.5, 0.5, 0.8, 0.1).finished();
    double s = 0;
    for (int t = 0; t < 3; ++t) s += (E.rowwise() - T.row(t)).rowwise().squaredNorm().minCoeff();
    return -s;
  };
  Vec y(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) y[i] = value(X.row(i).transpose());
  StrategyConfig c;
  c.set_kernel = SetKernelType::Aligned;
  auto s = make_strategy(c, space);
  auto centre_text = [&](const Vec& best) {
    AlignedSetKernel k(StationaryType::Matern52, m, d, true);
    k.recentre(best);
    const std::string text = k.describe();
    return text.substr(text.find("centre="));
  };
  for (int step = 0; step < 2; ++step) {
    Eigen::Index best;
    y.maxCoeff(&best);
    const Vec next = s->suggest(X, y, Mat(0, m * d), static_cast<int>(X.rows()));
    const std::string kernel = s->last_info()["kernel"].get<std::string>();
    EXPECT_NE(kernel.find(centre_text(X.row(best).transpose())), std::string::npos) << kernel;
    // A better set than any seen: the next step's centre.
    X.conservativeResize(X.rows() + 1, Eigen::NoChange);
    X.bottomRows(1) = (Vec(6) << 0.8, 0.1, 0.2, 0.7, 0.5, step == 0 ? 0.52 : 0.5).finished().transpose();
    y.conservativeResize(y.size() + 1);
    y[y.size() - 1] = value(X.bottomRows(1).transpose());
    ASSERT_GT(y[y.size() - 1], y.head(y.size() - 1).maxCoeff());
    ASSERT_TRUE(next.allFinite());
  }
}

}  // namespace
}  // namespace kbo
