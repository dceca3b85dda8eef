#include "kbo/sets/set_chart.hpp"

#include "kbo/core/error.hpp"
#include "kbo/invariance/groups.hpp"

namespace kbo {

namespace {

void check_set_size(const char* what, Eigen::Index size, int m, int d) {
  const Eigen::Index D = static_cast<Eigen::Index>(m) * d;
  if (size != D)
    throw InputError(std::string(what) + ": sets of " + std::to_string(m) + " elements of dimension " +
                     std::to_string(d) + " need " + std::to_string(D) + " coordinates");
}

}  // namespace

std::vector<int> element_assignment(const Vec& x, const Vec& row, int m, int d) {
  check_set_size("element_assignment", x.size(), m, d);
  check_set_size("element_assignment", row.size(), m, d);
  Mat cost(m, m);  // the blocks:m group's assignment cost (BlockPermutationGroup::align)
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) cost(a, b) = (x.segment(a * d, d) - row.segment(b * d, d)).squaredNorm();
  std::vector<int> assign;
  hungarian(cost, assign);
  return assign;
}

void align_elements(const Vec& x, Mat& X, int m, int d) {
  check_set_size("align_elements", x.size(), m, d);
  check_set_size("align_elements", X.cols(), m, d);
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    const Vec row = X.row(r).transpose();
    const std::vector<int> assign = element_assignment(x, row, m, d);
    for (int a = 0; a < m; ++a) X.row(r).segment(a * d, d) = row.segment(assign[a] * d, d).transpose();
  }
}

std::unique_ptr<StationaryKernel> tiled_element_kernel(const StationaryKernel& base, int m) {
  auto k = std::make_unique<StationaryKernel>(base.type(), base.dim() * m, base.ard(), 1.0, base.variance());
  k->set_lengthscales(base.ard() ? Vec(base.lengthscales().replicate(m, 1)) : base.lengthscales());
  return k;
}

}  // namespace kbo
