// Parameter specs of the KFO kernels: the learned functional and the spectrum flip (a variance, when it is
// learned), the linear kernel (a variance), the input-scaling wrapper (its inner kernel's), and the baselines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/flip_kernel.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/hyperkernel.hpp"
#include "kbo/kfo/kernel_io.hpp"
#include "kbo/kfo/linear_kernel.hpp"
#include "kbo/model/kernels/matern.hpp"
#include "kbo/model/kernels/stationary.hpp"

using namespace kbo;
using namespace kbo::kfo;

namespace {
std::vector<ParamRole> roles(const Kernel& k) {
  std::vector<ParamRole> r;
  for (const ParamSpec& s : k.param_specs()) r.push_back(s.role);
  EXPECT_EQ(static_cast<int>(r.size()), k.num_params()) << k.describe();
  return r;
}
constexpr ParamRole L = ParamRole::Lengthscale, V = ParamRole::Variance;

FunctionalKernel functional(bool learn_variance) {
  BasisOptions o;
  o.hyper = {0.7, 0.6};
  const FunctionalBasis basis(2, o);
  return FunctionalKernel(basis, Vec::Zero(basis.components()), FunctionalPsd::AlphaClip, learn_variance, 1.0,
                          make_stationary("rbf", 2, false));
}
}  // namespace

TEST(KfoParamSpecs, FunctionalFlipLinearAndScaledInput) {
  EXPECT_EQ(roles(functional(true)), (std::vector<ParamRole>{V}));
  EXPECT_EQ(roles(functional(false)), (std::vector<ParamRole>{}));
  Mat X(3, 2);
  X << 0.0, 0.0, 1.0, 0.5, 0.2, 0.9;
  EXPECT_EQ(roles(SpectrumFlipKernel(functional(false).clone(), X, 1.0, true)), (std::vector<ParamRole>{V}));
  EXPECT_EQ(roles(SpectrumFlipKernel(functional(false).clone(), X, 1.0, false)), (std::vector<ParamRole>{}));
  EXPECT_EQ(roles(LinearKernel(0.3)), (std::vector<ParamRole>{V}));
  const ScaledInputKernel scaled(make_stationary("matern32", 2, true), fit_input_scaling(X));
  EXPECT_EQ(roles(scaled), (std::vector<ParamRole>{L, L, V}));
  EXPECT_EQ(scaled.param_specs()[1].dim, 1);
}

TEST(KfoParamSpecs, Baselines) {
  EXPECT_EQ(roles(*make_gp_baseline("rbf", 3)), (std::vector<ParamRole>{L, V}));
  EXPECT_EQ(roles(*make_gp_baseline("matern32_ard", 3)), (std::vector<ParamRole>{L, L, L, V}));
  // MKL: SE + Matérn-3/2 + linear, each with its own variance.
  const auto mkl = roles(*make_gp_baseline("mkl", 2));
  EXPECT_EQ(std::count(mkl.begin(), mkl.end(), V), 3);
}

TEST(KfoHyperkernel, MaternCorrelationIsTheSharedFormula) {
  const double l = 0.6;
  for (double r : {0.0, 0.2, 0.5, 1.3}) {
    EXPECT_NEAR(matern32_corr(r, l), matern::matern32(r / l), 1e-15);
    EXPECT_NEAR(matern32_corr_deriv(r, l), matern::matern32_derivative(r / l) / l, 1e-14);
    if (r > 0) { EXPECT_NEAR(matern32_corr_deriv_over_r(r, l), matern32_corr_deriv(r, l) / r, 1e-13); }
  }
  EXPECT_NEAR(matern32_corr_deriv_over_r(0.0, l), -3.0 / (l * l), 1e-15);
}
