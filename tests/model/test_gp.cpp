// GP: closed forms, scikit-learn fixtures, gradients, incremental updates, fitting, bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/core/random.hpp"
#include "support/test_data.hpp"

using namespace kbo;

namespace {
Vec test_function(const Mat& X) { return (3.0 * X).array().sin().rowwise().sum().matrix() + X.col(0); }

struct Fixture {
  std::string name, kernel;
  Vec lengthscales;
  double variance = 0, noise = 0, lml = 0;
  Mat X, Xs;
  Vec y, mean, std;
};

std::vector<Fixture> load_fixtures() {
  std::ifstream in(std::string(KBO_SOURCE_DIR) + "/tests/fixtures/gp_sklearn.txt");
  std::vector<Fixture> out;
  std::string line, key;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    s >> key;
    if (key == "case") {
      out.emplace_back();
      s >> out.back().name;
      continue;
    }
    Fixture& f = out.back();
    auto read_vec = [&](Vec& v) {
      std::vector<double> vals;
      double x;
      while (s >> x) vals.push_back(x);
      v = Eigen::Map<Vec>(vals.data(), static_cast<Eigen::Index>(vals.size()));
    };
    if (key == "kernel") s >> f.kernel;
    else if (key == "lengthscales") read_vec(f.lengthscales);
    else if (key == "variance") s >> f.variance;
    else if (key == "noise") s >> f.noise;
    else if (key == "lml") s >> f.lml;
    else if (key == "mean") read_vec(f.mean);
    else if (key == "std") read_vec(f.std);
    else if (key == "train") {
      int n, d;
      s >> n >> d;
      f.X.resize(n, d);
      f.y.resize(n);
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) in >> f.X(i, j);
        in >> f.y[i];
      }
      std::getline(in, line);
    } else if (key == "test") {
      int m;
      s >> m;
      f.Xs.resize(m, f.X.cols());
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < f.X.cols(); ++j) in >> f.Xs(i, j);
      std::getline(in, line);
    }
  }
  return out;
}
}  // namespace

TEST(GP, OnePointClosedForm) {
  auto k = make_stationary("rbf", 1, false, 0.5, 2.0);
  GP gp(k->clone(), 0.1, /*normalize=*/false);
  Mat X(1, 1);
  X << 0.3;
  Vec y(1);
  y << 1.7;
  gp.set_data(X, y);
  Mat xs(1, 1);
  xs << 0.8;
  const double kx = (*k)(xs.row(0).transpose(), X.row(0).transpose());
  auto p = gp.predict(xs);
  EXPECT_NEAR(p.mean[0], kx / (2.0 + 0.1) * 1.7, 1e-12);
  EXPECT_NEAR(p.variance[0], 2.0 - kx * kx / 2.1, 1e-12);
  const double lml = -0.5 * 1.7 * 1.7 / 2.1 - 0.5 * std::log(2.1) - 0.5 * std::log(2 * M_PI);
  EXPECT_NEAR(gp.log_marginal_likelihood(), lml, 1e-12);
  EXPECT_NEAR(gp.information_gain(), 0.5 * std::log(1 + 2.0 / 0.1), 1e-12);
}

TEST(GP, MatchesScikitLearnFixtures) {
  auto fixtures = load_fixtures();
  ASSERT_EQ(fixtures.size(), 4u);
  for (const auto& f : fixtures) {
    bool ard = f.lengthscales.size() > 1;
    auto k = std::make_unique<StationaryKernel>(parse_stationary_type(f.kernel), static_cast<int>(f.X.cols()), ard,
                                                1.0, f.variance);
    k->set_lengthscales(f.lengthscales);
    GP gp(std::move(k), f.noise, /*normalize=*/false);
    gp.set_data(f.X, f.y);
    EXPECT_NEAR(gp.log_marginal_likelihood(), f.lml, 1e-8 * (1 + std::abs(f.lml))) << f.name;
    auto p = gp.predict(f.Xs);
    for (int i = 0; i < f.Xs.rows(); ++i) {
      EXPECT_NEAR(p.mean[i], f.mean[i], 1e-8) << f.name;
      EXPECT_NEAR(std::sqrt(p.variance[i]), f.std[i], 1e-7) << f.name;
    }
  }
}

TEST(GP, LogMarginalLikelihoodGradientMatchesFiniteDifferences) {
  Mat X = test_support::uniform_points(20, 3, 1);
  Vec y = test_function(X);
  for (auto name : {"rbf", "matern32", "matern52"}) {
    GP gp(make_stationary(name, 3, true, 0.4), 0.05);
    gp.set_data(X, y);
    Vec theta = gp.hyperparameters();
    Vec g = gp.log_marginal_likelihood_gradient();
    for (int i = 0; i < theta.size(); ++i) {
      Vec tp = theta, tm = theta;
      tp[i] += 1e-6;
      tm[i] -= 1e-6;
      double fd = (gp.log_marginal_likelihood_at(tp, nullptr) - gp.log_marginal_likelihood_at(tm, nullptr)) / 2e-6;
      EXPECT_NEAR(g[i], fd, 1e-4 * (1 + std::abs(fd))) << name << " θ" << i;
    }
  }
}

TEST(GP, PredictionGradientsMatchFiniteDifferences) {
  Mat X = test_support::uniform_points(15, 2, 2);
  GP gp(make_stationary("matern52", 2, true, 0.3), 0.01);
  gp.set_data(X, test_function(X));
  Vec x(2);
  x << 0.37, 0.61;
  double m, v;
  Vec dm, dv;
  gp.predict_with_gradient(x, m, v, dm, dv);
  auto p = gp.predict(x.transpose());
  EXPECT_NEAR(m, p.mean[0], 1e-10);
  EXPECT_NEAR(v, p.variance[0], 1e-10);
  for (int d = 0; d < 2; ++d) {
    Vec xp = x, xm = x;
    xp[d] += 1e-6;
    xm[d] -= 1e-6;
    auto pp = gp.predict(xp.transpose()), pm = gp.predict(xm.transpose());
    EXPECT_NEAR(dm[d], (pp.mean[0] - pm.mean[0]) / 2e-6, 1e-5);
    EXPECT_NEAR(dv[d], (pp.variance[0] - pm.variance[0]) / 2e-6, 1e-5);
  }
}

TEST(GP, PosteriorCovarianceDiagonalIsVariance) {
  Mat X = test_support::uniform_points(10, 2, 3);
  GP gp(make_stationary("rbf", 2, false, 0.3), 0.01);
  gp.set_data(X, test_function(X));
  Mat Xs = test_support::uniform_points(6, 2, 4);
  Mat C = gp.posterior_covariance(Xs);
  EXPECT_LT((C.diagonal() - gp.predict(Xs).variance).norm(), 1e-10);
  EXPECT_GT(symmetric_eigen(C).values.minCoeff(), -1e-9);
}

TEST(GP, AddObservationEqualsRefit) {
  Mat X = test_support::uniform_points(12, 2, 5);
  Vec y = test_function(X);
  GP inc(make_stationary("matern52", 2, true, 0.3), 0.01);
  inc.set_data(X.topRows(8), y.head(8));
  for (int i = 8; i < 12; ++i) inc.add_observation(X.row(i).transpose(), y[i]);
  // Reference: same standardisation constants, full factorisation.
  GP ref(make_stationary("matern52", 2, true, 0.3), 0.01, /*normalize=*/false);
  ref.set_data(X, (y.array() - inc.y_mean()) / inc.y_scale());
  EXPECT_LT((inc.cholesky().L() - ref.cholesky().L()).norm(), 1e-10);
  EXPECT_NEAR(inc.log_marginal_likelihood(), ref.log_marginal_likelihood(), 1e-9);
  Mat Xs = test_support::uniform_points(4, 2, 6);
  EXPECT_LT((inc.predict(Xs).mean - (ref.predict(Xs).mean * inc.y_scale()).array().matrix() -
             Vec::Constant(4, inc.y_mean())).norm(), 1e-9);
}

TEST(GP, AppendedBlockAndNewTargetsEqualSetData) {
  // The study path's incremental model: old points kept, a block of new ones appended (one O(n²m)
  // extension), then every target replaced (re-standardised) must equal set_data on all points.
  Mat X = test_support::uniform_points(40, 3, 8);
  Vec y = test_function(X);
  for (bool normalize : {true, false}) {
    GP inc(make_stationary("matern52", 3, true, 0.4), 0.01, normalize);
    inc.set_data(X.topRows(30), y.head(30));
    inc.append_observations(X.bottomRows(10), y.tail(10));
    EXPECT_EQ(inc.size(), 40);
    Vec y2 = 2.0 * y.array() + 1.0;  // targets re-standardised as a strategy does when the worst value moves
    inc.set_targets(y2);
    GP ref(make_stationary("matern52", 3, true, 0.4), 0.01, normalize);
    ref.set_data(X, y2);
    EXPECT_LT((inc.cholesky().L() - ref.cholesky().L()).norm(), 1e-10);
    EXPECT_NEAR(inc.log_marginal_likelihood(), ref.log_marginal_likelihood(), 1e-9);
    EXPECT_LT((inc.alpha() - ref.alpha()).norm(), 1e-8);
    Mat Xs = test_support::uniform_points(5, 3, 9);
    EXPECT_LT((inc.predict(Xs).mean - ref.predict(Xs).mean).norm(), 1e-9);
    EXPECT_LT((inc.predict(Xs).variance - ref.predict(Xs).variance).norm(), 1e-9);
  }
}

TEST(GP, AppendingARepeatedPointAtTinyNoiseRefactorises) {
  // A block that is singular at the jitter in use falls back to the full factorisation (jitter
  // escalation) instead of failing.
  Mat X = test_support::uniform_points(10, 2, 11);
  Vec y = test_function(X);
  GP gp(make_stationary("rbf", 2, false, 0.5), 1e-12, true, false);
  gp.set_data(X, y);
  Mat dup(2, 2);
  dup << X.row(3), X.row(3);
  gp.append_observations(dup, Vec::Constant(2, y[3]));
  EXPECT_EQ(gp.size(), 12);
  EXPECT_TRUE(std::isfinite(gp.log_marginal_likelihood()));
  EXPECT_NEAR(gp.predict(X.row(3)).mean[0], y[3], 1e-3);
}

TEST(GP, FitIncreasesLikelihoodAndReachesStationaryPoint) {
  Mat X = test_support::uniform_points(40, 2, 7);
  Vec y = test_function(X);
  GP gp(make_stationary("matern52", 2, true, 1.0), 0.1);
  gp.set_data(X, y);
  double before = gp.log_marginal_likelihood();
  FitOptions opt;
  opt.restarts = 3;
  double after = gp.fit(opt);
  EXPECT_GT(after, before + 1.0);
  EXPECT_NEAR(after, gp.log_marginal_likelihood(), 1e-9);
  Vec g = gp.log_marginal_likelihood_gradient();
  Vec lo, hi;
  gp.default_bounds(lo, hi);
  Vec t = gp.hyperparameters();
  for (int i = 0; i < t.size(); ++i) {
    if (t[i] > lo[i] + 1e-3 && t[i] < hi[i] - 1e-3) {
      EXPECT_LT(std::abs(g[i]), 1e-2) << "θ" << i;
    }
  }
}

TEST(GP, MapFitStaysAwayFromAllNoise) {
  // Smooth signal with small noise: the MAP fit must explain it with the kernel, not the noise.
  Mat X = test_support::uniform_points(30, 1, 8);
  Vec y = (6.0 * X.col(0)).array().sin().matrix();
  GP gp(make_stationary("rbf", 1, false, 1.0), 0.5);
  gp.set_data(X, y);
  FitOptions opt;
  opt.map = true;
  gp.fit(opt);
  EXPECT_LT(gp.noise_variance(), 0.05);
}

TEST(GP, FixedNoiseIsNotFitted) {
  Mat X = test_support::uniform_points(15, 1, 9);
  GP gp(make_stationary("rbf", 1, false), 0.2, true, /*learn_noise=*/false);
  gp.set_data(X, test_function(X));
  gp.fit();
  EXPECT_DOUBLE_EQ(gp.noise_variance(), 0.2);
}

TEST(GP, DuplicatePointsAreHandledByJitterOrNoise) {
  Mat X(3, 1);
  X << 0.5, 0.5, 0.5;
  Vec y(3);
  y << 1.0, 1.1, 0.9;
  GP gp(make_stationary("rbf", 1, false), 1e-10, false);
  gp.set_data(X, y);
  EXPECT_NEAR(gp.predict(X.topRows(1)).mean[0], 1.0, 1e-3);
}

TEST(GP, BadInputIsRejected) {
  GP gp(make_stationary("rbf", 2, false), 0.1);
  EXPECT_THROW(gp.set_data(Mat(0, 2), Vec()), InputError);
  EXPECT_THROW(gp.set_data(Mat::Zero(3, 2), Vec::Zero(2)), InputError);
  Mat X = Mat::Zero(2, 2);
  X(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(gp.set_data(X, Vec::Zero(2)), InputError);
  Vec y(2);
  y << 1, std::numeric_limits<double>::infinity();
  EXPECT_THROW(gp.set_data(Mat::Identity(2, 2), y), InputError);
  gp.set_data(Mat::Identity(2, 2), Vec::Ones(2));
  EXPECT_THROW(gp.predict(Mat::Zero(1, 3)), InputError);
  EXPECT_THROW(GP(make_stationary("rbf", 1, false), -1.0), InputError);
}
