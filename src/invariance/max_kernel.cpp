// Max kernel k_max(x, y) = max_g k(x, g y): exact fast paths through Group::align for isotropic
// stationary bases, brute-force enumeration otherwise (and as the reference).
#include <cmath>
#include <limits>
#include <sstream>

#include "base_ops.hpp"
#include "kbo/invariance/kernels.hpp"

namespace kbo {

using inv::as_isotropic;

MaxKernel::MaxKernel(KernelPtr base, GroupPtr group, Vec center, OrbitPath path, bool fit_on_base)
    : base_(std::move(base)), group_(std::move(group)), center_(std::move(center)), fit_on_base_(fit_on_base) {
  if (!base_) throw InputError("max kernel: base kernel is null");
  if (!group_) throw InputError("max kernel: group is null (invariance 'none' needs no invariant kernel)");
  if (center_.size() != group_->dim())
    throw InputError("max kernel: centre has " + std::to_string(center_.size()) + " entries, the group acts on " +
                     std::to_string(group_->dim()));
  iso_ = as_isotropic(*base_);
  if (iso_ && iso_->dim() != group_->dim())
    throw InputError("max kernel: base kernel dimension " + std::to_string(iso_->dim()) + " != group dimension " +
                     std::to_string(group_->dim()));
  if (path == OrbitPath::Fast && !iso_)
    throw InputError("max kernel: the fast path needs an isotropic stationary base kernel (rbf|matern*, ard=false)");
  if (!group_->is_finite() && !iso_)
    throw InputError("invariance '" + group_->name() +
                     "' (continuous group) needs an isotropic stationary base kernel (rbf|matern*, ard=false)");
  if (path == OrbitPath::Brute && !group_->is_finite())
    throw InputError("max kernel: brute-force enumeration needs a finite group, '" + group_->name() + "' is continuous");
  fast_ = iso_ && path != OrbitPath::Brute;
  two_sided_ = !iso_;
  if (!fast_) elements_ = group_->elements();
}

MaxKernel::MaxKernel(const MaxKernel& o)
    : base_(o.base_->clone()),
      group_(o.group_),
      center_(o.center_),
      fast_(o.fast_),
      two_sided_(o.two_sided_),
      fit_on_base_(o.fit_on_base_),
      elements_(o.elements_) {
  iso_ = as_isotropic(*base_);
}

std::string MaxKernel::describe() const {
  std::ostringstream s;
  s << "max_" << group_->name() << "(" << base_->describe() << (fast_ ? ", fast" : ", brute")
    << (two_sided_ ? ", two-sided" : "") << ")";
  return s.str();
}

bool MaxKernel::known_psd() const {
  return iso_ && group_->has_canonical_orbit_map();
}

void MaxKernel::align_pair(const Vec& x, const Vec& y, Vec& xa, Vec& ya, Mat* jx) const {
  const int d = static_cast<int>(x.size());
  if (fast_) {
    Vec za, wa;
    group_->align(x - center_, y - center_, za, wa);
    xa = center_ + za;
    ya = center_ + wa;
    if (jx) *jx = group_->align_jacobian(x - center_);
    return;
  }
  // Brute force: evaluate the kernel on the orbit(s) and keep the maximiser.
  const int G = static_cast<int>(elements_.size());
  const Mat yc = (y - center_).transpose();
  Mat Yo(G, d);
  for (int g = 0; g < G; ++g) Yo.row(g) = center_.transpose() + elements_[g].apply_rows(yc);
  if (!two_sided_) {
    const Mat k = base_->cross(x.transpose(), Yo);
    Eigen::Index j;
    k.row(0).maxCoeff(&j);
    xa = x;
    ya = Yo.row(j).transpose();
    if (jx) *jx = Mat::Identity(d, d);
    return;
  }
  const Mat xc = (x - center_).transpose();
  Mat Xo(G, d);
  for (int g = 0; g < G; ++g) Xo.row(g) = center_.transpose() + elements_[g].apply_rows(xc);
  const Mat k = base_->cross(Xo, Yo);
  Eigen::Index i, j;
  k.maxCoeff(&i, &j);
  xa = Xo.row(i).transpose();
  ya = Yo.row(j).transpose();
  if (jx) *jx = elements_[i].matrix();
}

Mat MaxKernel::cross_fast(const Mat& X, const Mat& Y, bool symmetric) const {
  const int n = static_cast<int>(X.rows()), m = static_cast<int>(Y.rows());
  const double ell = iso_->lengthscales()[0], v = iso_->variance();
  const Mat Xc = X.rowwise() - center_.transpose();
  const Mat Yc = Y.rowwise() - center_.transpose();
  Mat K(n, m);
  Vec z, w, za, wa;
  for (int i = 0; i < n; ++i) {
    z = Xc.row(i).transpose();
    for (int j = symmetric ? i : 0; j < m; ++j) {
      w = Yc.row(j).transpose();
      group_->align(z, w, za, wa);
      K(i, j) = v * iso_->profile((za - wa).norm() / ell);
      if (symmetric) K(j, i) = K(i, j);
    }
  }
  return K;
}

Mat MaxKernel::cross_brute(const Mat& X, const Mat& Y) const {
  const int n = static_cast<int>(X.rows()), m = static_cast<int>(Y.rows());
  const Mat Xc = X.rowwise() - center_.transpose();
  const Mat Yc = Y.rowwise() - center_.transpose();
  Mat K = Mat::Constant(n, m, -std::numeric_limits<double>::infinity());
  auto shift = [&](const Mat& Z) -> Mat { return Z.rowwise() + center_.transpose(); };
  if (!two_sided_) {
    for (const auto& g : elements_) K = K.cwiseMax(base_->cross(X, shift(g.apply_rows(Yc))));
    return K;
  }
  for (const auto& g : elements_) {
    const Mat Xg = shift(g.apply_rows(Xc));
    for (const auto& h : elements_) K = K.cwiseMax(base_->cross(Xg, shift(h.apply_rows(Yc))));
  }
  return K;
}

Mat MaxKernel::cross(const Mat& X, const Mat& Y) const {
  return fast_ ? cross_fast(X, Y, false) : cross_brute(X, Y);
}

Mat MaxKernel::gram(const Mat& X) const {
  if (fast_) return cross_fast(X, X, true);
  Mat K = cross_brute(X, X);
  // Mathematically symmetric; mirror the upper triangle so it is bitwise symmetric too.
  K.triangularView<Eigen::StrictlyLower>() = K.transpose().triangularView<Eigen::StrictlyLower>();
  return K;
}

Vec MaxKernel::diag(const Mat& X) const {
  if (iso_) return Vec::Constant(X.rows(), iso_->variance());  // the aligned pair of x with itself is (x', x')
  Vec out(X.rows());
  Vec xa, ya;
  for (int i = 0; i < X.rows(); ++i) {
    align_pair(X.row(i).transpose(), X.row(i).transpose(), xa, ya, nullptr);
    out[i] = base_->cross(xa.transpose(), ya.transpose())(0, 0);
  }
  return out;
}

std::vector<Mat> MaxKernel::cross_param_gradients(const Mat& X, const Mat& Y) const {
  const int n = static_cast<int>(X.rows()), m = static_cast<int>(Y.rows()), d = static_cast<int>(X.cols());
  Mat A(n * m, d), B(n * m, d);
  Vec xa, ya;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      align_pair(X.row(i).transpose(), Y.row(j).transpose(), xa, ya, nullptr);
      A.row(i * m + j) = xa.transpose();
      B.row(i * m + j) = ya.transpose();
    }
  const Mat g = inv::pair_param_grads(*base_, A, B);
  std::vector<Mat> out(g.cols(), Mat(n, m));
  for (int p = 0; p < g.cols(); ++p)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) out[p](i, j) = g(i * m + j, p);
  return out;
}

Mat MaxKernel::cross_grad_x(const Vec& x, const Mat& Y) const {
  // Danskin: the gradient of a max is the gradient of the maximising term (a.e.), with the optimal
  // group element held fixed; ∂x'/∂x is g (two-sided) or the representative Jacobian (scaling).
  const int m = static_cast<int>(Y.rows()), d = static_cast<int>(x.size());
  Mat A(m, d), B(m, d);
  std::vector<Mat> J(m);
  Vec xa, ya;
  for (int j = 0; j < m; ++j) {
    align_pair(x, Y.row(j).transpose(), xa, ya, &J[j]);
    A.row(j) = xa.transpose();
    B.row(j) = ya.transpose();
  }
  const Mat g = inv::pair_grad_a(*base_, A, B);
  Mat out(d, m);
  for (int j = 0; j < m; ++j) out.col(j) = J[j].transpose() * g.row(j).transpose();
  return out;
}

Vec MaxKernel::diag_grad_x(const Vec& x) const {
  const int d = static_cast<int>(x.size());
  if (iso_) return Vec::Zero(d);  // k_max(x, x) = v
  // Two-sided brute force: k(c + g(x−c), c + h(x−c)) at the maximising (g, h); the gradient is
  // gᵀ ∂₁k + hᵀ ∂₂k with ∂₂k(a, b) = ∂₁k(b, a) (k symmetric).
  const int G = static_cast<int>(elements_.size());
  const Mat xc = (x - center_).transpose();
  Mat Xo(G, d);
  for (int g = 0; g < G; ++g) Xo.row(g) = center_.transpose() + elements_[g].apply_rows(xc);
  const Mat k = base_->cross(Xo, Xo);
  Eigen::Index i, j;
  k.maxCoeff(&i, &j);
  const Mat a = Xo.row(i), b = Xo.row(j);
  const Vec g1 = inv::pair_grad_a(*base_, a, b).row(0).transpose();
  const Vec g2 = inv::pair_grad_a(*base_, b, a).row(0).transpose();
  return elements_[i].matrix().transpose() * g1 + elements_[j].matrix().transpose() * g2;
}

}  // namespace kbo
