// The pure schedule pieces: g/b split, Lemma-1 β, the bound estimate (eq. 15) and the line search.
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"

namespace kbo {
namespace {

TEST(Schedule, SplitSatisfiesDefiningEquations) {
  for (double lambda : {0.0, 1e-6, 0.1, 1.0, 10.0, 1e4})
    for (int d : {1, 2, 4, 7})
      for (double h : {1.0, 1.0 + 1e-12, 1.001, 1.5, 3.0, 17.0, 1e3, 1e8}) {
        const Scaling s = split_scaling(h, lambda, d);
        const double eg = std::pow(s.g, d) - 1.0;  // g^d = 1 + ε_g
        EXPECT_NEAR(eg, s.eps_g, 1e-9 * (1 + s.eps_g));
        EXPECT_NEAR((1 + s.eps_g) * (1 + lambda * s.eps_g), h, 1e-10 * h) << lambda << " " << d << " " << h;
        EXPECT_NEAR(s.b, 1 + lambda * s.eps_g, 1e-12 * s.b);
        EXPECT_GE(s.eps_g, 0.0);
        // Paper: g^d ≤ h and b ≤ h.
        EXPECT_LE(std::pow(s.g, d), h * (1 + 1e-12));
        EXPECT_LE(s.b, h * (1 + 1e-12));
      }
}

TEST(Schedule, SplitLimitsAndMonotonicity) {
  EXPECT_DOUBLE_EQ(split_scaling(1.0, 0.1, 3).g, 1.0);
  EXPECT_DOUBLE_EQ(split_scaling(1.0, 0.1, 3).b, 1.0);
  // λ = 0: everything in g (g^d = h, b = 1).
  EXPECT_NEAR(split_scaling(8.0, 0.0, 3).g, 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(split_scaling(8.0, 0.0, 3).b, 1.0);
  // λ → ∞: almost everything in b.
  const Scaling big = split_scaling(8.0, 1e9, 1);
  EXPECT_NEAR(big.b, 8.0, 1e-3);
  EXPECT_NEAR(big.g, 1.0, 1e-3);
  // λ = 1: g^d = b = sqrt(h).
  EXPECT_NEAR(split_scaling(9.0, 1.0, 2).b, 3.0, 1e-12);
  EXPECT_NEAR(split_scaling(9.0, 1.0, 2).g, std::sqrt(3.0), 1e-12);
  double g_prev = 1.0, b_prev = 1.0;
  for (double h = 1.0; h < 1e6; h *= 1.7) {
    const Scaling s = split_scaling(h, 0.1, 2);
    EXPECT_GE(s.g, g_prev);
    EXPECT_GE(s.b, b_prev);
    g_prev = s.g, b_prev = s.b;
  }
}

TEST(Schedule, SplitRejectsBadInput) {
  EXPECT_THROW(split_scaling(0.5, 0.1, 1), InputError);
  EXPECT_THROW(split_scaling(NAN, 0.1, 1), InputError);
  EXPECT_THROW(split_scaling(2.0, -1.0, 1), InputError);
  EXPECT_THROW(split_scaling(2.0, 0.1, 0), InputError);
}

TEST(Schedule, BetaAndC1ClosedForms) {
  EXPECT_NEAR(agpucb_beta_sqrt(2.0, 0.1, 3.0, 0.1), 2.0 + 0.4 * std::sqrt(4.0 + std::log(10.0)), 1e-14);
  EXPECT_NEAR(regret_constant_c1(1.0), 8.0 / std::log(2.0), 1e-14);
}

TEST(Schedule, BoundEstimateAtH1AndMonotone) {
  BoundEstimateInputs in;
  in.t = 12;
  in.dim = 2;
  in.lambda = 0.1;
  in.B0 = 2.0;
  in.noise_std = 0.05;
  in.delta = 0.1;
  in.g_prev = 1.0;
  in.info_prev = 6.5;
  const double bs = 2.0 + 4 * 0.05 * std::sqrt(6.5 + 1 + std::log(10.0));
  const double c1 = 8.0 / std::log(1 + 1 / 0.0025);
  EXPECT_NEAR(bound_regret_estimate(1.0, in), std::sqrt(c1 * 12 * bs * bs * 6.5), 1e-10);
  // At h with g = 2^{1/2}·g_prev... check one point by hand: λ = 0.1, h = 2.2 ⇒ ε_g = 1, g^d = 2, b = 1.1.
  const double I2 = 2.0 * 6.5;
  const double bs2 = 1.1 * 2.0 * 2.0 + 4 * 0.05 * std::sqrt(I2 + 1 + std::log(10.0));
  EXPECT_NEAR(bound_regret_estimate(2.2, in), std::sqrt(c1 * 12 * bs2 * bs2 * I2), 1e-9);
  double prev = 0.0;
  for (double h = 1.0; h < 1e5; h *= 1.3) {
    const double r = bound_regret_estimate(h, in);
    EXPECT_GT(r, prev);
    prev = r;
  }
}

TEST(Schedule, LineSearchFindsCrossingOfMonotoneFunction) {
  int calls = 0;
  auto R = [&](double h) {
    ++calls;
    return 1.0 + std::log(h);
  };
  // R(h) = 3 at h = e².
  LineSearchResult r = match_reference(R, 3.0, 1.0, 1e9, 1e-6, 200);
  EXPECT_NEAR(r.h, std::exp(2.0), 1e-5 * std::exp(2.0));
  EXPECT_GE(R(r.h), 3.0);
  EXPECT_FALSE(r.capped);
  EXPECT_EQ(r.evaluations + 1, calls);
  // Already above the target at h_prev ⇒ h_prev (h is never decreased).
  r = match_reference(R, 3.0, 20.0, 1e9, 1e-6, 200);
  EXPECT_DOUBLE_EQ(r.h, 20.0);
  EXPECT_EQ(r.evaluations, 1);
  // Target unreachable ⇒ capped at h_max.
  r = match_reference(R, 100.0, 1.0, 1e3, 1e-6, 200);
  EXPECT_DOUBLE_EQ(r.h, 1e3);
  EXPECT_TRUE(r.capped);
  // Evaluation budget respected; the result still satisfies R(h) ≥ target.
  r = match_reference(R, 3.0, 1.0, 1e9, 1e-12, 6);
  EXPECT_LE(r.evaluations, 6);
  EXPECT_GE(R(r.h), 3.0);
  EXPECT_THROW(match_reference(R, 1.0, 0.5, 10.0, 0.1, 10), InputError);
}

TEST(Schedule, ParseNamesAndOptions) {
  EXPECT_EQ(parse_regret_estimator("onestep"), RegretEstimator::OneStep);
  EXPECT_EQ(parse_map_combination("divide"), MapCombination::Divide);
  EXPECT_THROW(parse_regret_estimator("foo"), InputError);
  EXPECT_THROW(parse_map_combination("max"), InputError);
  const AgpucbOptions def = AgpucbOptions::from_json(nlohmann::json::object(), 3);
  // No preset named: the product defaults (standardised targets, one-step estimator, Matérn-5/2).
  EXPECT_EQ(def.preset, AgpucbPreset::Product);
  EXPECT_TRUE(def.normalize);
  EXPECT_EQ(def.estimator, RegretEstimator::OneStep);
  EXPECT_EQ(def.combine, MapCombination::None);
  EXPECT_EQ(def.kernel, "matern52");
  EXPECT_DOUBLE_EQ(def.theta0[0], 0.5);
  EXPECT_DOUBLE_EQ(def.B0, 1.0);
  EXPECT_DOUBLE_EQ(def.p_scale, 12.0);
  EXPECT_DOUBLE_EQ(def.lambda, 0.1);
  EXPECT_DOUBLE_EQ(def.p_exponent, 0.5);
  // The help text states every product constant.
  const std::string help = AgpucbOptions::product_summary();
  for (const char* part : {"matern52", "onestep", "theta0 0.5", "B0 1", "12 t^0.5", "noise_std 0.01", "paper"})
    EXPECT_NE(help.find(part), std::string::npos) << part << " missing in: " << help;
  // The paper preset is the struct's literal constants; keys given beside it override them.
  const AgpucbOptions paper = AgpucbOptions::from_json({{"preset", "paper"}}, 3);
  EXPECT_EQ(paper.to_json(), AgpucbOptions().to_json());
  EXPECT_DOUBLE_EQ(paper.B0, 2.0);
  EXPECT_DOUBLE_EQ(paper.theta0[0], 1.0);
  EXPECT_DOUBLE_EQ(paper.p_scale, 1.0);
  EXPECT_FALSE(paper.normalize);
  EXPECT_EQ(paper.estimator, RegretEstimator::Bound);
  EXPECT_EQ(paper.kernel, "rbf");
  EXPECT_EQ(AgpucbOptions::from_json({{"preset", "paper"}, {"estimator", "onestep"}}, 1).estimator,
            RegretEstimator::OneStep);
  EXPECT_THROW(AgpucbOptions::from_json({{"preset", "fast"}}, 1), InputError);
  const AgpucbOptions o = AgpucbOptions::from_json(
      {{"theta0", {0.5, 0.25}}, {"B0", 0.25}, {"estimator", "onestep"}, {"combine", "min"}, {"normalize", true}}, 2);
  EXPECT_EQ(o.theta0.size(), 2u);
  EXPECT_DOUBLE_EQ(o.B0, 0.25);
  EXPECT_EQ(o.estimator, RegretEstimator::OneStep);
  EXPECT_EQ(o.combine, MapCombination::Min);
  EXPECT_TRUE(o.normalize);
  EXPECT_EQ(AgpucbOptions::from_json(o.to_json(), 2).to_json(), o.to_json());
  EXPECT_THROW(AgpucbOptions::from_json({{"b0", 1.0}}, 1), InputError);
  EXPECT_THROW(AgpucbOptions::from_json({{"theta0", {1.0, 2.0, 3.0}}}, 2), InputError);
  EXPECT_THROW(AgpucbOptions::from_json({{"delta", 1.5}}, 1), InputError);
  EXPECT_THROW(AgpucbOptions::from_json({{"kernel", "cosine"}}, 1), InputError);
  EXPECT_THROW(AgpucbOptions::from_json({{"B0", "two"}}, 1), InputError);
  EXPECT_THROW(BaselineOptions::from_json({{"mode", "nuts"}}, 1), InputError);
}

// Each option parsed from text names its key and the allowed values when the text is unknown.
TEST(Schedule, EnumParseErrorsNameTheKeyAndTheAllowedValues) {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string est = message([] { parse_regret_estimator("foo"); });
  EXPECT_NE(est.find("agpucb estimator"), std::string::npos) << est;
  EXPECT_NE(est.find("'foo'"), std::string::npos) << est;
  EXPECT_NE(est.find("none, bound, onestep, wang, balance"), std::string::npos) << est;
  const std::string comb = message([] { AgpucbOptions::from_json({{"combine", "max"}}, 2); });
  EXPECT_NE(comb.find("agpucb combine"), std::string::npos) << comb;
  EXPECT_NE(comb.find("none, min, divide"), std::string::npos) << comb;
  const std::string mode = message([] { BaselineOptions::from_json({{"mode", "nuts"}}, 2); });
  EXPECT_NE(mode.find("baseline gpucb mode"), std::string::npos) << mode;
  EXPECT_NE(mode.find("fixed, map, hmc"), std::string::npos) << mode;
  EXPECT_EQ(BaselineOptions::from_json({{"mode", "hmc"}}, 2).mode, HyperMode::Hmc);
  EXPECT_EQ(BaselineOptions::from_json(nlohmann::json::object(), 2).mode, HyperMode::Map);
  for (auto e : {RegretEstimator::None, RegretEstimator::Bound, RegretEstimator::OneStep, RegretEstimator::Wang})
    EXPECT_EQ(parse_regret_estimator(to_string(e)), e);
  for (auto c : {MapCombination::None, MapCombination::Min, MapCombination::Divide})
    EXPECT_EQ(parse_map_combination(to_string(c)), c);
}

}  // namespace
}  // namespace kbo
