#include "kbo/sets/aligned_set_kernel.hpp"

#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/sets/set_chart.hpp"

namespace kbo {

AlignedSetKernel::AlignedSetKernel(StationaryType type, int set_size, int element_dim, bool ard, double lengthscale,
                                   double variance)
    : m_(set_size), d_(element_dim), base_(type, std::max(set_size * element_dim, 1), ard, lengthscale, variance) {
  if (m_ < 1) throw InputError("aligned set kernel: set size m must be >= 1 (got " + std::to_string(m_) + ")");
  if (d_ < 1) throw InputError("aligned set kernel: element dimension d must be >= 1 (got " + std::to_string(d_) + ")");
}

std::string AlignedSetKernel::describe() const {
  std::ostringstream os;
  os << "aligned(" << base_.describe() << ", m=" << m_ << ", d=" << d_ << ", centre=";
  if (centre_.size() == 0) os << "none";
  for (Eigen::Index i = 0; i < centre_.size(); ++i) os << (i ? "," : "[") << centre_[i];
  os << (centre_.size() ? "])" : ")");
  return os.str();
}

void AlignedSetKernel::recentre(const Vec& x) {
  if (x.size() != static_cast<Eigen::Index>(m_) * d_)
    throw InputError("aligned set kernel: a centre has " + std::to_string(x.size()) + " coordinates, expected m*d = " +
                     std::to_string(m_ * d_));
  centre_ = x;
  conditioned_X_.resize(0, 0);  // the cached pairing was the old centre's
  conditioned_A_.resize(0, 0);
}

Mat AlignedSetKernel::aligned(const Mat& X) const {
  Mat A = X;
  if (centre_.size() > 0 && A.rows() > 0) align_elements(centre_, A, m_, d_);
  return A;
}

Mat AlignedSetKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  if (centre_.size() == 0) return base_.cross_grad_x(x, aligned_known(X));
  const std::vector<int> source = element_assignment(centre_, x, m_, d_);
  Vec a(x.size());
  for (int i = 0; i < m_; ++i) a.segment(i * d_, d_) = x.segment(source[i] * d_, d_);
  const Mat G = base_.cross_grad_x(a, aligned_known(X));
  Mat out(x.size(), X.rows());
  for (int i = 0; i < m_; ++i) out.middleRows(source[i] * d_, d_) = G.middleRows(i * d_, d_);
  return out;
}

KernelPtr AlignedSetKernel::local_chart(const Vec& x, Mat& X) const {
  align_elements(x, X, m_, d_);
  return base_.clone();
}

}  // namespace kbo
