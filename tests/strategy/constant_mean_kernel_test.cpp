// The GLS constant-mean kernel term (src/strategy/constant_mean_kernel.hpp, internal to the strategy): k + c
// with the wrapped kernel's hyperparameters and parameter specs.
#include <gtest/gtest.h>

#include "../../src/strategy/constant_mean_kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"

using namespace kbo;

TEST(ConstantMeanKernel, ForwardsTheWrappedKernelsSpecs) {
  const KernelPtr inner = make_stationary("matern52", 3, true);
  const KernelPtr k = with_constant_mean(inner->clone(), 0.5);
  ASSERT_NE(dynamic_cast<const ConstantMeanKernel*>(k.get()), nullptr);
  const auto specs = k->param_specs(), expected = inner->param_specs();
  ASSERT_EQ(static_cast<int>(specs.size()), k->num_params());
  ASSERT_EQ(specs.size(), expected.size());
  for (std::size_t p = 0; p < specs.size(); ++p) {
    EXPECT_EQ(specs[p].role, expected[p].role);
    EXPECT_EQ(specs[p].dim, expected[p].dim);
  }
  Mat X(2, 3);
  X << 0.1, 0.2, 0.3, 0.6, 0.5, 0.4;
  EXPECT_NEAR((k->gram(X) - inner->gram(X)).maxCoeff(), 0.5, 1e-15);
}
