#include "kbo/kernel.hpp"

namespace kbo {

Vec Kernel::diag(const Mat& X) const {
  Vec d(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) d[i] = cross(X.row(i), X.row(i))(0, 0);
  return d;
}

double Kernel::operator()(const Vec& x, const Vec& y) const {
  return cross(x.transpose(), y.transpose())(0, 0);
}

Vec Kernel::gram_gradient_contract(const Mat& X, const Mat& W) const {
  std::vector<Mat> grads = gram_gradients(X);
  Vec g(grads.size());
  for (size_t p = 0; p < grads.size(); ++p) g[static_cast<Eigen::Index>(p)] = (W.array() * grads[p].array()).sum();
  return g;
}

}  // namespace kbo
