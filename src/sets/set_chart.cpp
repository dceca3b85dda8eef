#include "kbo/sets/set_chart.hpp"

#include "kbo/core/error.hpp"
#include "kbo/invariance/groups.hpp"

namespace kbo {

void align_elements(const Vec& x, Mat& X, int m, int d) {
  const Eigen::Index D = static_cast<Eigen::Index>(m) * d;
  if (x.size() != D || X.cols() != D)
    throw InputError("align_elements: sets of " + std::to_string(m) + " elements of dimension " + std::to_string(d) +
                     " need " + std::to_string(D) + " coordinates");
  const BlockPermutationGroup orderings(static_cast<int>(D), m);  // its align: the least-cost assignment
  Vec x_aligned, row_aligned;
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    orderings.align(x, X.row(r).transpose(), x_aligned, row_aligned);
    X.row(r) = row_aligned.transpose();
  }
}

std::unique_ptr<StationaryKernel> tiled_element_kernel(const StationaryKernel& base, int m) {
  auto k = std::make_unique<StationaryKernel>(base.type(), base.dim() * m, base.ard(), 1.0, base.variance());
  k->set_lengthscales(base.ard() ? Vec(base.lengthscales().replicate(m, 1)) : base.lengthscales());
  return k;
}

}  // namespace kbo
