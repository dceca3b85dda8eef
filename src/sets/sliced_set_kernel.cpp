#include "kbo/sets/sliced_set_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "kbo/sets/set_chart.hpp"

namespace kbo {

namespace {

/// The d axes and the diagonals (e_i ± e_j)/√2, i < j, scaled by 1/√d (a tight frame with Σ θθᵀ = I).
Mat slice_directions(int d) {
  const int L = d * d;
  Mat dirs = Mat::Zero(d, L);
  int l = 0;
  for (int i = 0; i < d; ++i) dirs(i, l++) = 1.0;
  const double h = 1.0 / std::sqrt(2.0);
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j) {
      dirs(i, l) = h, dirs(j, l++) = h;
      dirs(i, l) = h, dirs(j, l++) = -h;
    }
  return dirs / std::sqrt(static_cast<double>(d));
}

}  // namespace

SlicedSetKernel::SlicedSetKernel(StationaryType type, int set_size, int element_dim, double lengthscale,
                                 double variance)
    : m_(set_size),
      d_(element_dim),
      dirs_(slice_directions(std::max(element_dim, 1))),
      base_(type, std::max(set_size, 1) * std::max(element_dim, 1) * std::max(element_dim, 1), false, lengthscale,
            variance) {
  if (m_ < 1) throw InputError("sliced set kernel: set size m must be >= 1 (got " + std::to_string(m_) + ")");
  if (d_ < 1) throw InputError("sliced set kernel: element dimension d must be >= 1 (got " + std::to_string(d_) + ")");
}

KernelPtr SlicedSetKernel::local_chart(const Vec& x, Mat& X) const {
  align_elements(x, X, m_, d_);
  return std::make_unique<StationaryKernel>(base_.type(), m_ * d_, false, base_.lengthscales()[0], base_.variance());
}

std::string SlicedSetKernel::describe() const {
  std::ostringstream os;
  os << "sliced(" << base_.describe() << ", m=" << m_ << ", d=" << d_ << ", " << dirs_.cols() << " directions)";
  return os.str();
}

Vec SlicedSetKernel::embed_one(const Vec& x, std::vector<int>* source) const {
  if (x.size() != static_cast<Eigen::Index>(m_) * d_)
    throw InputError("sliced set kernel: a point has " + std::to_string(x.size()) + " coordinates, expected m*d = " +
                     std::to_string(m_ * d_));
  const int L = static_cast<int>(dirs_.cols());
  // Row-major m x d elements ⇒ the d x m column-major map; projections P = Eᵀ-map' θ: m x L.
  const Eigen::Map<const Mat> Et(x.data(), d_, m_);
  const Mat P = Et.transpose() * dirs_;
  Vec s(L * m_);
  if (source) source->assign(static_cast<std::size_t>(L) * m_, 0);
  std::vector<int> idx(m_);
  for (int l = 0; l < L; ++l) {
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return P(a, l) < P(b, l); });
    for (int r = 0; r < m_; ++r) {
      s[l * m_ + r] = P(idx[r], l);
      if (source) (*source)[static_cast<std::size_t>(l) * m_ + r] = idx[r];
    }
  }
  return s;
}

Mat SlicedSetKernel::embed(const Mat& X) const {
  Mat S(X.rows(), dirs_.cols() * m_);
  for (Eigen::Index i = 0; i < X.rows(); ++i) S.row(i) = embed_one(X.row(i).transpose(), nullptr).transpose();
  return S;
}

Mat SlicedSetKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  std::vector<int> source;
  const Vec s = embed_one(x, &source);
  const Mat G = base_.cross_grad_x(s, embed_known(X));  // (L·m) x n
  // ∂S_(l,r)/∂x_(e,k) = θ_l[k] when feature (l, r) comes from element e.
  Mat out = Mat::Zero(x.size(), X.rows());
  const int L = static_cast<int>(dirs_.cols());
  for (int l = 0; l < L; ++l)
    for (int r = 0; r < m_; ++r) {
      const int e = source[static_cast<std::size_t>(l) * m_ + r];
      for (int k = 0; k < d_; ++k)
        if (dirs_(k, l) != 0.0) out.row(e * d_ + k) += dirs_(k, l) * G.row(l * m_ + r);
    }
  return out;
}

}  // namespace kbo
