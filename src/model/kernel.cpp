#include "kbo/model/kernel.hpp"

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

Vec Kernel::gradient_contract_fused(const Mat& X, const Mat& S, const Vec& a, const Mat& /*aux*/) const {
  // Reference implementation for kernels that override gram_lower_fused but not this.
  Mat W = a * a.transpose();
  W -= S.selfadjointView<Eigen::Lower>().toDenseMatrix();
  return gram_gradient_contract(X, W);
}

}  // namespace kbo
