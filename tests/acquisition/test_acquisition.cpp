// UCB / log-EI / log-PI on a hand-solvable GP (two training points, RBF, fixed noise, no
// normalisation): values against closed forms, gradients against finite differences, batch = pointwise,
// log-EI far below the incumbent, β schedules, and maximize_acquisition on a real GP.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/error.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/multistart.hpp"

namespace {

using kbo::Mat;
using kbo::Vec;

constexpr double kEll = 0.4, kVar = 1.3, kNoise = 0.01;

Mat train_X() {
  Mat X(2, 2);
  X << 0.2, 0.3, 0.7, 0.6;
  return X;
}
Vec train_y() {
  Vec y(2);
  y << 1.5, -0.4;
  return y;
}

kbo::GP tiny_gp() {
  kbo::GP gp(kbo::make_stationary("rbf", 2, false, kEll, kVar), kNoise, /*normalize=*/false, /*learn_noise=*/false);
  gp.set_data(train_X(), train_y());
  return gp;
}

// μ and σ of the tiny GP's data under an RBF kernel of lengthscale ell (the same variance and noise), by
// hand: K + σ_n² I is 2x2, inverted explicitly.
void by_hand_ell(const Vec& x, double ell, double& mu, double& sd) {
  auto k = [&](const Vec& a, const Vec& b) { return kVar * std::exp(-0.5 * (a - b).squaredNorm() / (ell * ell)); };
  const Mat X = train_X();
  const Vec y = train_y();
  const double a = kVar + kNoise, b = k(X.row(0), X.row(1));
  const double det = a * a - b * b;
  Mat Kinv(2, 2);
  Kinv << a / det, -b / det, -b / det, a / det;
  Vec kx(2);
  kx << k(x, X.row(0)), k(x, X.row(1));
  mu = kx.dot(Kinv * y);
  sd = std::sqrt(kVar - kx.dot(Kinv * kx));
}

// … the tiny GP's own (lengthscale kEll).
void by_hand(const Vec& x, double& mu, double& sd) { by_hand_ell(x, kEll, mu, sd); }

double Phi(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
double phi(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI); }

std::vector<Vec> probe_points() {
  std::vector<Vec> pts;
  for (auto [a, b] : {std::pair{0.25, 0.35}, std::pair{0.5, 0.5}, std::pair{0.9, 0.1}, std::pair{0.65, 0.62}}) {
    Vec v(2);
    v << a, b;
    pts.push_back(v);
  }
  return pts;
}

TEST(Acquisition, ClosedFormsOnATinyGP) {
  const kbo::GP gp = tiny_gp();
  const double beta = 2.7, inc = 0.9;
  kbo::UpperConfidenceBound ucb(gp, beta);
  kbo::LogExpectedImprovement lei(gp, inc);
  kbo::LogProbabilityOfImprovement lpi(gp, inc);
  for (const Vec& x : probe_points()) {
    double mu, sd;
    by_hand(x, mu, sd);
    const double z = (mu - inc) / sd;
    const double ei = (mu - inc) * Phi(z) + sd * phi(z);
    EXPECT_NEAR(ucb.value(x), mu + std::sqrt(beta) * sd, 1e-10);
    EXPECT_NEAR(std::exp(lei.value(x)), ei, 1e-10 * std::max(1.0, ei));
    EXPECT_NEAR(std::exp(lpi.value(x)), Phi(z), 1e-10);
  }
}

TEST(Acquisition, GradientsMatchFiniteDifferences) {
  const kbo::GP gp = tiny_gp();
  kbo::UpperConfidenceBound ucb(gp, 4.0);
  kbo::LogExpectedImprovement lei(gp, 1.2);
  kbo::LogProbabilityOfImprovement lpi(gp, 1.2);
  kbo::LogExpectedImprovement lei_far(gp, 8.0);  // z ≈ -7: the continued-fraction branch
  for (const kbo::Acquisition* a : std::initializer_list<const kbo::Acquisition*>{&ucb, &lei, &lpi, &lei_far}) {
    for (const Vec& x : probe_points()) {
      Vec g;
      const double v = a->value_and_gradient(x, g);
      EXPECT_NEAR(v, a->value(x), 1e-12 * std::max(1.0, std::abs(v)));
      ASSERT_EQ(g.size(), 2);
      for (int i = 0; i < 2; ++i) {
        const double e = 1e-6;
        Vec xp = x, xm = x;
        xp[i] += e;
        xm[i] -= e;
        const double fd = (a->value(xp) - a->value(xm)) / (2 * e);
        EXPECT_NEAR(g[i], fd, 1e-6 * std::max(1.0, std::abs(fd))) << i;
      }
    }
  }
}

TEST(Acquisition, BatchedValuesEqualPointwise) {
  const kbo::GP gp = tiny_gp();
  kbo::UpperConfidenceBound ucb(gp, 2.0);
  kbo::LogExpectedImprovement lei(gp, 0.5);
  kbo::LogProbabilityOfImprovement lpi(gp, 0.5);
  Mat P(4, 2);
  const auto pts = probe_points();
  for (int i = 0; i < 4; ++i) P.row(i) = pts[i].transpose();
  for (const kbo::Acquisition* a : std::initializer_list<const kbo::Acquisition*>{&ucb, &lei, &lpi}) {
    const Vec v = a->values(P);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(v[i], a->value(pts[i]), 1e-12 * std::max(1.0, std::abs(v[i])));
  }
}

TEST(Acquisition, LogEIFiniteAndMonotoneFarBelowTheIncumbent) {
  // At x = (0.9, 0.1) σ ≈ 1.1; incumbents up to μ + 40σ give z down to −40, where EI = σ h(z) ~ e^{-800}
  // underflows to 0 in plain arithmetic. log-EI stays finite and strictly decreasing in the incumbent,
  // and matches σ-scaled log h from the mpmath-checked helper.
  const kbo::GP gp = tiny_gp();
  Vec x(2);
  x << 0.9, 0.1;
  double mu, sd;
  by_hand(x, mu, sd);
  double prev = std::numeric_limits<double>::infinity();
  for (double z = 0.0; z >= -40.0; z -= 0.5) {
    const double inc = mu - z * sd;
    kbo::LogExpectedImprovement lei(gp, inc);
    const double v = lei.value(x);
    ASSERT_TRUE(std::isfinite(v)) << z;
    EXPECT_LT(v, prev) << z;
    EXPECT_NEAR(v, std::log(sd) + kbo::log_h(z), 1e-8 * std::abs(v)) << z;
    prev = v;
    Vec g;
    lei.value_and_gradient(x, g);
    EXPECT_TRUE(g.allFinite());
  }
  EXPECT_EQ(sd * (phi(-40.0) - 40.0 * Phi(-40.0)) > 0.0, false);  // plain EI is 0 (or worse) there
}

TEST(Acquisition, FiniteAtANoiselessTrainingPoint) {
  kbo::GP gp(kbo::make_stationary("rbf", 2, false, kEll, kVar), 1e-12, false, false);
  gp.set_data(train_X(), train_y());
  const Vec x = train_X().row(0).transpose();
  kbo::UpperConfidenceBound ucb(gp, 2.0);
  kbo::LogExpectedImprovement lei(gp, 3.0);
  kbo::LogProbabilityOfImprovement lpi(gp, 3.0);
  for (const kbo::Acquisition* a : std::initializer_list<const kbo::Acquisition*>{&ucb, &lei, &lpi}) {
    Vec g;
    EXPECT_TRUE(std::isfinite(a->value_and_gradient(x, g)));
    EXPECT_TRUE(g.allFinite());
    EXPECT_TRUE(std::isfinite(a->value(x)));
  }
}

TEST(Acquisition, BetaSchedules) {
  // Srinivas: β_t = 2 log(t^{d/2+2} π² / (3δ)); t = 1, d = 2, δ = 0.1 ⇒ 2 log(π²/0.3).
  EXPECT_NEAR(kbo::beta_srinivas(1, 2, 0.1), 2.0 * std::log(M_PI * M_PI / 0.3), 1e-12);
  EXPECT_NEAR(kbo::beta_srinivas(10, 4, 0.1) - kbo::beta_srinivas(1, 4, 0.1), 2.0 * 4.0 * std::log(10.0), 1e-12);
  // Chowdhury–Gopalan: sqrt β = B + R sqrt(2(γ + 1 + ln 1/δ)).
  const double sb = 2.0 + 0.5 * std::sqrt(2.0 * (3.0 + 1.0 + std::log(10.0)));
  EXPECT_NEAR(kbo::beta_chowdhury(2.0, 0.5, 3.0, 0.1), sb * sb, 1e-12);
  EXPECT_THROW(kbo::beta_srinivas(0, 2), kbo::InputError);
  EXPECT_THROW(kbo::beta_srinivas(1, 2, 1.5), kbo::InputError);
  EXPECT_THROW(kbo::beta_chowdhury(-1.0, 0.1, 1.0), kbo::InputError);
  EXPECT_THROW(kbo::UpperConfidenceBound(tiny_gp(), -1.0), kbo::InputError);
}

// A GP with n = 40 points of a smooth 3-d function, for the optimiser front-end.
kbo::GP medium_gp() {
  kbo::Sobol s(3, 5);
  Mat X = s.next(40);
  Vec y(40);
  for (int i = 0; i < 40; ++i) y[i] = std::sin(6.0 * X(i, 0)) + std::cos(4.0 * X(i, 1)) * X(i, 2);
  kbo::GP gp(kbo::make_stationary("matern52", 3, true, 0.3, 1.0), 1e-4, true, false);
  gp.set_data(X, y);
  return gp;
}

// Multi-start options on one thread: `raw_samples` Sobol candidates, the best `num_starts` polished.
kbo::AcqOptimizerOptions serial_multistart(std::uint64_t seed, int raw_samples, int num_starts) {
  kbo::AcqOptimizerOptions o;
  o.seed = seed;
  o.raw_samples = raw_samples;
  o.num_starts = num_starts;
  o.threads = 1;
  return o;
}

TEST(Acquisition, MaximizeAcquisitionDeterministicAndBeatsItsCandidates) {
  const kbo::GP gp = medium_gp();
  kbo::UpperConfidenceBound ucb(gp, 4.0);
  kbo::BoxSpace space(kbo::Box::unit(3));
  kbo::AcqOptimizerOptions o = serial_multistart(9, 256, 5);
  const auto a = kbo::maximize_acquisition(ucb, space, o);
  o.threads = 2;
  const auto b = kbo::maximize_acquisition(ucb, space, o);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.value, b.value);
  EXPECT_NEAR(a.value, ucb.value(a.x), 1e-12);
  // No point of a dense independent grid beats the optimum by more than a hair.
  double grid_best = -1e300;
  Vec x(3);
  for (int i = 0; i <= 20; ++i)
    for (int j = 0; j <= 20; ++j)
      for (int k = 0; k <= 20; ++k) {
        x << i / 20.0, j / 20.0, k / 20.0;
        grid_best = std::max(grid_best, ucb.value(x));
      }
  EXPECT_GE(a.value, grid_best - 1e-9);
  // CMA-ES and DIRECT reach the same optimum value (the UCB here is smooth, near-unimodal).
  for (auto type : {kbo::AcqOptimizerType::Cmaes, kbo::AcqOptimizerType::Direct}) {
    o.type = type;
    o.max_evaluations = type == kbo::AcqOptimizerType::Direct ? 3000 : 400;
    const auto c = kbo::maximize_acquisition(ucb, space, o);
    EXPECT_NEAR(c.value, a.value, 2e-3 * std::max(1.0, std::abs(a.value)));
  }
}

// `acq` equals UCB with β on `gp` at the probe points: values (against the GP by hand), gradients and batches.
void expect_equals_ucb(const kbo::Acquisition& acq, const kbo::GP& gp, double beta) {
  const kbo::UpperConfidenceBound ucb(gp, beta);
  Mat P(4, 2);
  int i = 0;
  for (const Vec& x : probe_points()) {
    P.row(i++) = x.transpose();
    double mu, sd;
    by_hand(x, mu, sd);
    EXPECT_NEAR(acq.value(x), mu + std::sqrt(beta) * sd, 1e-10);
    Vec g, gu;
    EXPECT_NEAR(acq.value_and_gradient(x, g), ucb.value_and_gradient(x, gu), 1e-12);
    EXPECT_LT((g - gu).norm(), 1e-10);
  }
  EXPECT_LT((acq.values(P) - ucb.values(P)).norm(), 1e-10);
}

}  // namespace

TEST(Acquisition, AveragedAcquisitionIsTheMeanOfItsParts) {
  // Two UCBs on the same tiny GP with β = 1 and β = 9: their mean is μ + ((1 + 3)/2) σ = μ + 2σ,
  // i.e. exactly UCB with β = 4 — values and gradients (the mean of the parts' gradients).
  const kbo::GP gp = tiny_gp();
  std::vector<std::unique_ptr<kbo::Acquisition>> parts;
  parts.push_back(std::make_unique<kbo::UpperConfidenceBound>(gp, 1.0));
  parts.push_back(std::make_unique<kbo::UpperConfidenceBound>(gp, 9.0));
  const kbo::AveragedAcquisition avg(std::move(parts));
  EXPECT_EQ(avg.size(), 2u);
  expect_equals_ucb(avg, gp, 4.0);
  EXPECT_THROW(kbo::AveragedAcquisition({}), kbo::InputError);
}

TEST(Acquisition, WeightedAveragedAcquisitionIsTheWeightedMeanOfItsParts) {
  // UCB with β = 1 (weight 3) and β = 9 (weight 1, normalised to 1/4): μ + (3/4 + 3/4) σ = UCB with β = 2.25.
  const kbo::GP gp = tiny_gp();
  std::vector<std::unique_ptr<kbo::Acquisition>> parts;
  parts.push_back(std::make_unique<kbo::UpperConfidenceBound>(gp, 1.0));
  parts.push_back(std::make_unique<kbo::UpperConfidenceBound>(gp, 9.0));
  const kbo::AveragedAcquisition avg(std::move(parts), {3.0, 1.0});
  EXPECT_NEAR(avg.weights()[0], 0.75, 1e-15);
  expect_equals_ucb(avg, gp, 2.25);
  auto two = [&] {
    std::vector<std::unique_ptr<kbo::Acquisition>> p;
    p.push_back(std::make_unique<kbo::UpperConfidenceBound>(gp, 1.0));
    p.push_back(std::make_unique<kbo::UpperConfidenceBound>(gp, 9.0));
    return p;
  };
  EXPECT_THROW(kbo::AveragedAcquisition(two(), {1.0}), kbo::InputError);
  EXPECT_THROW(kbo::AveragedAcquisition(two(), {1.0, -1.0}), kbo::InputError);
  EXPECT_THROW(kbo::AveragedAcquisition(two(), {0.0, 0.0}), kbo::InputError);
  EXPECT_THROW(kbo::AveragedAcquisition(two(), {1.0, std::nan("")}), kbo::InputError);
}

namespace {
// Two Gaussian bumps on the unit square: the higher at (0.2, 0.2), value 1, the lower at (0.75, 0.7), value 0.5.
class TwoBumps : public kbo::Acquisition {
 public:
  double value(const Vec& x) const override {
    Vec g;
    return value_and_gradient(x, g);
  }
  double value_and_gradient(const Vec& x, Vec& grad) const override {
    const Vec a = x - high_, b = x - low_;
    const double ea = std::exp(-a.squaredNorm() / 0.02), eb = 0.5 * std::exp(-b.squaredNorm() / 0.02);
    grad = -(ea * a + eb * b) / 0.01;
    return ea + eb;
  }
  Vec high_ = (Vec(2) << 0.2, 0.2).finished(), low_ = (Vec(2) << 0.75, 0.7).finished();
};
}  // namespace

// maximize_acquisition with an admissible region: starts that climb into the refused region are dropped and the
// best admissible polished start wins (the lower bump's top, to the optimiser's precision), with the refused
// starts counted; when everything it polishes is refused, the best admissible start as drawn; with nothing
// admissible at all, the plain maximum; DIRECT's refused point gives way to an accepted extra start.
TEST(Acquisition, MaximizeAcquisitionKeepsToTheAdmissibleRegion) {
  const TwoBumps acq;
  const kbo::BoxSpace space(kbo::Box::unit(2));
  kbo::AcqOptimizerOptions o = serial_multistart(4, 256, 8);
  const auto plain = kbo::maximize_acquisition(acq, space, o);
  EXPECT_NEAR(plain.x[0], 0.2, 1e-4);
  EXPECT_NEAR(plain.value, 1.0, 1e-6);
  EXPECT_EQ(plain.inadmissible, 0);

  // Starts: the Sobol candidates (all on the higher bump here) and two extra ones, one on each bump.
  Mat starts(2, 2);
  starts << 0.25, 0.25, 0.7, 0.65;
  const auto far_from_high = [&](const Vec& x) { return (x - acq.high_).norm() > 0.1; };
  const auto r = kbo::maximize_acquisition(acq, space, o, starts, far_from_high);
  EXPECT_TRUE(far_from_high(r.x));
  EXPECT_NEAR(r.x[0], 0.75, 1e-3);
  EXPECT_NEAR(r.x[1], 0.7, 1e-3);
  EXPECT_NEAR(r.value, 0.5, 1e-6);
  EXPECT_EQ(r.inadmissible, o.num_starts + 1);  // every start but the one on the lower bump climbed the higher

  // Only a thin band is admissible, where no polished start ends (the extra start in it climbs out towards the
  // lower bump): the band's start as given, unpolished.
  const auto band = [](const Vec& x) { return x[0] > 0.96; };
  const Vec in_band = (Vec(2) << 0.98, 0.5).finished();
  const auto s = kbo::maximize_acquisition(acq, space, o, in_band.transpose(), band);
  EXPECT_EQ(s.inadmissible, o.num_starts + 1);
  EXPECT_EQ(s.x, in_band);
  EXPECT_NEAR(s.value, acq.value(in_band), 1e-12);
  const auto none = kbo::maximize_acquisition(acq, space, o, Mat(), [](const Vec&) { return false; });
  EXPECT_NEAR(none.value, plain.value, 1e-9);

  // DIRECT: its point (the higher top) is refused, so the accepted extra start takes its place, unpolished.
  o.type = kbo::AcqOptimizerType::Direct;
  o.max_evaluations = 2000;
  const auto direct = kbo::maximize_acquisition(acq, space, o, starts, far_from_high);
  EXPECT_EQ(direct.x, starts.row(1).transpose());
  EXPECT_EQ(direct.inadmissible, 1);
}
