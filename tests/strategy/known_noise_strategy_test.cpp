// Known noise in BOStrategy: standard errors mapped to target units (affine maps exactly), the incremental
// model with replicates (equal rows with different values and standard errors) against a model built from
// scratch at the same θ, and the posterior at the observations in the user's units.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/core/random.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/target_units.hpp"
#include "support/test_data.hpp"

using namespace kbo;

TEST(TargetUnits, AnAffineTransformMapsStandardErrorsAndPosteriorsExactly) {
  const Vec y{{3.0, -1.0, 2.5, 7.0, 0.0}};
  const Vec z = (y.array() * 0.25 - 4.0).matrix();  // z = y/4 − 4
  const Vec sem{{0.4, 0.0, 2.0, 8.0, 1.0}};  // intervals inside the data and past both ends
  const Vec mapped = sem_in_target_units(y, z, sem);
  for (Eigen::Index i = 0; i < y.size(); ++i) EXPECT_NEAR(mapped[i], 0.25 * sem[i], 1e-12) << i;
  const Vec mean_z{{-4.0, -2.0, -6.0}};
  const Vec sd_z{{0.1, 1.0, 0.5}};
  Vec mean_y, sd_y;
  targets_to_values(y, z, mean_z, sd_z, mean_y, sd_y);
  for (Eigen::Index i = 0; i < mean_z.size(); ++i) {
    EXPECT_NEAR(mean_y[i], 4.0 * (mean_z[i] + 4.0), 1e-12);
    EXPECT_NEAR(sd_y[i], 4.0 * sd_z[i], 1e-12);
  }
}

TEST(TargetUnits, ANonAffineWarpUsesItsAverageSlopeOverTheInterval) {
  // z = y² on y > 0 (monotone there): the image of [y − s, y + s] has half-width ((y+s)² − (y−s)²)/2 = 2ys at
  // the knots, interpolated linearly between them.
  Vec y(6), z(6);
  for (int i = 0; i < 6; ++i) y[i] = 1.0 + i, z[i] = y[i] * y[i];
  const Vec sem{{0.0, 1.0, 0.0, 1.0, 0.0, 0.0}};
  const Vec mapped = sem_in_target_units(y, z, sem);
  EXPECT_NEAR(mapped[1], 0.5 * (9.0 - 1.0), 1e-12);   // y = 2: T(3) − T(1) = 8
  EXPECT_NEAR(mapped[3], 0.5 * (25.0 - 9.0), 1e-12);  // y = 4: T(5) − T(3) = 16
  EXPECT_EQ(mapped[0], 0.0);
  // One distinct value: no slope, the standard errors are kept.
  EXPECT_EQ(sem_in_target_units(Vec::Constant(3, 2.0), Vec::Zero(3), Vec::Constant(3, 0.5)), Vec::Constant(3, 0.5));
}

namespace {

StrategyConfig known_noise_config() {
  StrategyConfig c;
  c.seed = 7;
  c.n_init = 4;
  c.module_options = {{"bo", {{"full_refit_below", 10}}}};  // θ kept between full refits from 200 rows on
  return c;
}

struct ReplicatedData {
  Mat X;
  Vec y, sem;
};

/// n Branin points (negated), with replicates: rows 10.. repeat earlier rows with other values and standard
/// errors, as replicated evaluations of a noisy objective do.
ReplicatedData replicated_branin_data(int n) {
  const Problem p = make_problem("branin", 0);
  Rng rng = make_rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ReplicatedData d{Mat(n, 2), Vec(n), Vec(n)};
  for (int i = 0; i < n; ++i) {
    if (i >= 10 && i % 2 == 0) {
      d.X.row(i) = d.X.row(i % 7);  // a replicate of an earlier trial
    } else {
      for (int j = 0; j < 2; ++j) d.X(i, j) = p.bounds.lower(j) + u(rng) * (p.bounds.upper(j) - p.bounds.lower(j));
    }
    d.sem(i) = 0.5 + 4.0 * u(rng);
    d.y(i) = -p.f(d.X.row(i).transpose()) + d.sem(i) * (u(rng) - 0.5);
  }
  return d;
}

ReplicatedData replicated_rows(const ReplicatedData& d, const std::vector<int>& keep) {
  ReplicatedData out{Mat(static_cast<Eigen::Index>(keep.size()), 2), Vec(static_cast<Eigen::Index>(keep.size())),
           Vec(static_cast<Eigen::Index>(keep.size()))};
  for (std::size_t i = 0; i < keep.size(); ++i) {
    out.X.row(static_cast<Eigen::Index>(i)) = d.X.row(keep[i]);
    out.y(static_cast<Eigen::Index>(i)) = d.y(keep[i]);
    out.sem(static_cast<Eigen::Index>(i)) = d.sem(keep[i]);
  }
  return out;
}

}  // namespace

TEST(KnownNoiseStrategy, IncrementalModelWithReplicatesEqualsAModelBuiltFromScratch) {
  const ReplicatedData d = replicated_branin_data(210);
  const Mat none(0, 2);
  // 200 trials (replicates among them; trial 12, a replicate, completes late), then 205 with more (the next
  // full refit is due at 200 + ⌈√200⌉ = 215).
  std::vector<int> early;
  for (int i = 0; i < 201; ++i)
    if (i != 12) early.push_back(i);
  std::vector<int> late;
  for (int i = 0; i < 205; ++i) late.push_back(i);
  const ReplicatedData a = replicated_rows(d, early), b = replicated_rows(d, late);

  BOStrategy s(known_noise_config(), test_support::branin_space());
  s.set_observation_sem(a.sem);
  s.suggest(a.X, a.y, none, 201);
  ASSERT_EQ(s.last_info()["refit"], "full");
  const nlohmann::json state = s.model_state();
  s.set_observation_sem(b.sem);
  s.suggest(b.X, b.y, none, 205);
  ASSERT_EQ(s.last_info()["refit"], "none");  // the factor was extended: rows matched by their bytes

  // The same θ, the 205 rows set at once in data order (a restored state conditions on them from scratch).
  BOStrategy fresh(known_noise_config(), test_support::branin_space());
  fresh.restore_model_state(nlohmann::json::parse(state.dump()));
  fresh.set_observation_sem(b.sem);
  fresh.suggest(b.X, b.y, none, 205);
  ASSERT_EQ(fresh.last_info()["refit"], "none");
  const GP& m = *s.model();
  const GP& f = *fresh.model();
  ASSERT_EQ(m.size(), 205);
  ASSERT_EQ(m.known_noise().size(), 205);
  EXPECT_EQ(m.hyperparameters(), f.hyperparameters());
  EXPECT_NEAR(m.log_marginal_likelihood(), f.log_marginal_likelihood(), 1e-7);
  Mat probe = s.unit_space().rows_to_unit(b.X);
  const GP::Prediction pm = m.predict(probe), pf = f.predict(probe);
  EXPECT_LT((pm.mean - pf.mean).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_LT((pm.variance - pf.variance).cwiseAbs().maxCoeff(), 1e-7);
  // The known noise is what the trials reported, mapped to target units: larger standard error, larger noise
  // for the replicates of one point.
  EXPECT_GT(m.known_noise().maxCoeff(), 0.0);
}

TEST(KnownNoiseStrategy, PosteriorAtObservationsNeedsAFitAndIsInTheUsersUnits) {
  const ReplicatedData d = replicated_branin_data(20);
  BOStrategy s(known_noise_config(), test_support::branin_space());
  s.set_observation_sem(d.sem);
  EXPECT_FALSE(s.posterior_at_observations(d.X, d.y).has_value());  // no fit yet
  s.suggest(d.X, d.y, Mat(0, 2), 20);
  const auto post = s.posterior_at_observations(d.X, d.y);
  ASSERT_TRUE(post.has_value());
  ASSERT_EQ(post->mean.size(), 20);
  // In y's units: the posterior means lie within the observed range widened by the standard errors, and every
  // sd is below the prior's scale.
  const double spread = d.y.maxCoeff() - d.y.minCoeff();
  for (Eigen::Index i = 0; i < 20; ++i) {
    EXPECT_TRUE(std::isfinite(post->mean[i]) && std::isfinite(post->sd[i]));
    EXPECT_GE(post->mean[i], d.y.minCoeff() - spread);
    EXPECT_LE(post->mean[i], d.y.maxCoeff() + spread);
    EXPECT_GE(post->sd[i], 0.0);
    EXPECT_LT(post->sd[i], spread);
  }
  // A random search has no model.
  RandomStrategy r(known_noise_config(), test_support::branin_space());
  EXPECT_FALSE(r.posterior_at_observations(d.X, d.y).has_value());
}
