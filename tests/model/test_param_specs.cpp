// Parameter roles (ParamSpec): every kernel declares one per log-parameter, composites concatenate them,
// and the GP's default bounds and priors follow the roles (and a spec's own bounds/prior).
#include <gtest/gtest.h>

#include <cmath>

#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/combine.hpp"
#include "kbo/model/kernels/stationary.hpp"

using namespace kbo;

namespace {
std::vector<ParamRole> roles(const Kernel& k) {
  std::vector<ParamRole> r;
  for (const ParamSpec& s : k.param_specs()) r.push_back(s.role);
  return r;
}
std::vector<int> dims(const Kernel& k) {
  std::vector<int> d;
  for (const ParamSpec& s : k.param_specs()) d.push_back(s.dim);
  return d;
}
constexpr ParamRole L = ParamRole::Lengthscale, V = ParamRole::Variance;

// A kernel whose only hyperparameter is declared with the given spec (values: a constant v).
class OneParam : public Kernel {
 public:
  explicit OneParam(ParamSpec spec) : spec_(std::move(spec)) {}
  KernelPtr clone() const override { return std::make_unique<OneParam>(*this); }
  std::string describe() const override { return "one"; }
  Vec log_params() const override { return Vec::Constant(1, std::log(v_)); }
  void set_log_params(const Vec& p) override { v_ = std::exp(p[0]); }
  std::vector<std::string> param_names() const override { return {"whatever"}; }
  std::vector<ParamSpec> param_specs() const override { return {spec_}; }
  Mat cross(const Mat& X, const Mat& Y) const override {
    Mat K(X.rows(), Y.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i)
      for (Eigen::Index j = 0; j < Y.rows(); ++j) K(i, j) = v_ * std::exp(-(X.row(i) - Y.row(j)).squaredNorm());
    return K;
  }
  std::vector<Mat> gram_gradients(const Mat& X) const override { return {gram(X)}; }
  Mat cross_grad_x(const Vec& x, const Mat& X) const override {
    Mat G(x.size(), X.rows());
    for (Eigen::Index j = 0; j < X.rows(); ++j) {
      const Vec diff = x - X.row(j).transpose();
      G.col(j) = -2.0 * v_ * std::exp(-diff.squaredNorm()) * diff;
    }
    return G;
  }

 private:
  ParamSpec spec_;
  double v_ = 1.0;
};
}  // namespace

TEST(ParamSpecs, StationaryKernels) {
  for (const std::string type : {"rbf", "matern12", "matern32", "matern52"}) {
    auto ard = make_stationary(type, 3, true);
    EXPECT_EQ(static_cast<int>(ard->param_specs().size()), ard->num_params()) << type;
    EXPECT_EQ(roles(*ard), (std::vector<ParamRole>{L, L, L, V})) << type;
    EXPECT_EQ(dims(*ard), (std::vector<int>{0, 1, 2, -1})) << type;
    auto iso = make_stationary(type, 3, false);
    EXPECT_EQ(static_cast<int>(iso->param_specs().size()), iso->num_params()) << type;
    EXPECT_EQ(roles(*iso), (std::vector<ParamRole>{L, V})) << type;
    EXPECT_EQ(dims(*iso), (std::vector<int>{-1, -1})) << type;
  }
}

TEST(ParamSpecs, CompositesConcatenateTheirParts) {
  ScaleKernel scaled(make_stationary("matern52", 2, true), 2.0);
  EXPECT_EQ(static_cast<int>(scaled.param_specs().size()), scaled.num_params());
  EXPECT_EQ(roles(scaled), (std::vector<ParamRole>{V, L, L, V}));  // the scale s² is a variance
  EXPECT_EQ(dims(scaled), (std::vector<int>{-1, 0, 1, -1}));

  auto sum = make_stationary("rbf", 2, true) + make_stationary("matern32", 2, false);
  EXPECT_EQ(static_cast<int>(sum->param_specs().size()), sum->num_params());
  EXPECT_EQ(roles(*sum), (std::vector<ParamRole>{L, L, V, L, V}));
  EXPECT_EQ(dims(*sum), (std::vector<int>{0, 1, -1, -1, -1}));

  auto product = make_stationary("rbf", 1, false) * std::make_unique<ScaleKernel>(make_stationary("rbf", 1, false));
  EXPECT_EQ(static_cast<int>(product->param_specs().size()), product->num_params());
  EXPECT_EQ(roles(*product), (std::vector<ParamRole>{L, V, V, L, V}));
}

TEST(ParamSpecs, GpAppendsTheNoise) {
  GP gp(make_stationary("matern52", 2, true));
  const auto specs = gp.hyperparameter_specs();
  ASSERT_EQ(specs.size(), gp.hyperparameters().size());
  EXPECT_EQ(specs.back().role, ParamRole::Noise);
  EXPECT_EQ(specs.size(), gp.hyperparameter_names().size());
}

TEST(ParamSpecs, DefaultBoundsAndPriorsFollowRoles) {
  // Column ranges 2 and 0.5, raw targets (no normalisation) with second moment 4.
  Mat X(3, 2);
  X << 0.0, 0.0, 1.0, 0.5, 2.0, 0.25;
  Vec y(3);
  y << 2.0, -2.0, 2.0;
  GP gp(std::make_unique<ScaleKernel>(make_stationary("rbf", 2, true) + make_stationary("rbf", 2, false)), 1e-3, false);
  gp.set_data(X, y);
  Vec lo, hi;
  gp.default_bounds(lo, hi);
  // θ = [scale, a.ℓ0, a.ℓ1, a.σ², b.ℓ, b.σ², noise]
  ASSERT_EQ(lo.size(), 7);
  EXPECT_DOUBLE_EQ(lo[0], std::log(1e-4 * 4.0));
  EXPECT_DOUBLE_EQ(hi[0], std::log(1e4 * 4.0));
  EXPECT_DOUBLE_EQ(lo[1], std::log(1e-3 * 2.0));
  EXPECT_DOUBLE_EQ(hi[2], std::log(1e3 * 0.5));
  EXPECT_DOUBLE_EQ(lo[3], std::log(1e-4 * 4.0));
  EXPECT_DOUBLE_EQ(lo[4], std::log(1e-3 * 1.25));  // isotropic: the mean range
  EXPECT_DOUBLE_EQ(lo[6], std::log(1e-8 * 4.0));
  EXPECT_DOUBLE_EQ(hi[6], std::log(4.0));
  const auto priors = gp.default_priors();
  ASSERT_EQ(priors.size(), 7u);
  EXPECT_EQ(priors[0].type, Prior::Type::Gamma);
  EXPECT_DOUBLE_EQ(priors[0].a, 2.0);
  EXPECT_DOUBLE_EQ(priors[1].b, 6.0 / 2.0);
  EXPECT_DOUBLE_EQ(priors[2].b, 6.0 / 0.5);
  EXPECT_DOUBLE_EQ(priors[4].b, 6.0 / 1.25);
  EXPECT_DOUBLE_EQ(priors[6].a, 1.1);
}

TEST(ParamSpecs, NamesDoNotDecide) {
  // The old name rules read "scale" in any name as a variance; a role now decides.
  GP other(std::make_unique<OneParam>(ParamSpec::of(ParamRole::Other)));
  Mat X(2, 1);
  X << 0.0, 4.0;
  other.set_data(X, Vec::Ones(2));
  Vec lo, hi;
  other.default_bounds(lo, hi);
  EXPECT_DOUBLE_EQ(lo[0], std::log(1e-4));
  EXPECT_DOUBLE_EQ(hi[0], std::log(1e4));
  EXPECT_EQ(other.default_priors()[0].type, Prior::Type::None);

  GP period(std::make_unique<OneParam>(ParamSpec::of(ParamRole::Period, 0)));
  period.set_data(X, Vec::Ones(2));
  period.default_bounds(lo, hi);
  EXPECT_DOUBLE_EQ(lo[0], std::log(1e-3 * 4.0));
  EXPECT_DOUBLE_EQ(hi[0], std::log(1e3 * 4.0));
  EXPECT_EQ(period.default_priors()[0].type, Prior::Type::None);
}

TEST(ParamSpecs, ASpecsOwnBoundsAndPriorWin) {
  ParamSpec spec = ParamSpec::variance();
  spec.log_lower = -30.0;
  spec.log_upper = 30.0;
  spec.prior = Prior::log_normal(0.0, 2.0);
  GP gp(std::make_unique<OneParam>(spec));
  Mat X(2, 1);
  X << 0.0, 1.0;
  gp.set_data(X, Vec::Ones(2));
  Vec lo, hi;
  gp.default_bounds(lo, hi);
  EXPECT_EQ(lo[0], -30.0);
  EXPECT_EQ(hi[0], 30.0);
  const auto priors = gp.default_priors();
  EXPECT_EQ(priors[0].type, Prior::Type::LogNormal);
  EXPECT_EQ(priors[0].b, 2.0);
  EXPECT_EQ(priors[1].type, Prior::Type::Gamma);  // the noise keeps its default
}
