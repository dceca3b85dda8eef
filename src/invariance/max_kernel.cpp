// Max kernel k_max(x, y) = max_g k(x, g y): exact fast paths through Group::align for isotropic
// stationary bases, brute-force enumeration otherwise (and as the reference).
#include <cmath>
#include <limits>
#include <sstream>

#include "base_ops.hpp"
#include "kbo/invariance/kernels.hpp"

namespace kbo {

using inv::as_isotropic;

MaxKernel::MaxKernel(KernelPtr base, GroupPtr group, Vec center, OrbitPath path, bool fit_on_base, bool tied_ard)
    : base_(std::move(base)), group_(std::move(group)), center_(std::move(center)), fit_on_base_(fit_on_base),
      tied_(tied_ard) {
  if (!base_) throw InputError("max kernel: base kernel is null");
  if (!group_) throw InputError("max kernel: group is null (invariance 'none' needs no invariant kernel)");
  if (center_.size() != group_->dim())
    throw InputError("max kernel: centre has " + std::to_string(center_.size()) + " entries, the group acts on " +
                     std::to_string(group_->dim()));
  if (tied_) {
    stat_ = dynamic_cast<const StationaryKernel*>(base_.get());
    if (!stat_ || !stat_->ard() || stat_->dim() != group_->dim())
      throw InputError("max kernel: tied ARD needs an ARD stationary base kernel of the group's dimension " +
                       std::to_string(group_->dim()));
    if (!group_->is_finite() || !group_->is_isometric())
      throw InputError("max kernel: tied ARD needs a finite group of signed permutations ('" + group_->name() +
                       "' is not); use one lengthscale (--ard false)");
    if (fit_on_base_)
      throw InputError("invariant kernel option fit 'base' needs one lengthscale (--ard false): with ARD the "
                       "lengthscales are tied across the coordinates the group mixes and fitted on the max kernel");
    classes_ = group_->lengthscale_classes();
    for (int i = 0; i < static_cast<int>(classes_.size()); ++i)
      if (classes_[i] >= static_cast<int>(class_first_.size())) class_first_.push_back(i);
    set_log_params(log_params());  // tie the base's lengthscales (class value = its first coordinate's)
  }
  iso_ = as_isotropic(*base_);
  if (iso_ && iso_->dim() != group_->dim())
    throw InputError("max kernel: base kernel dimension " + std::to_string(iso_->dim()) + " != group dimension " +
                     std::to_string(group_->dim()));
  const bool exact = iso_ || tied_;
  if (path == OrbitPath::Fast && !exact)
    throw InputError("max kernel: the fast path needs an isotropic stationary base kernel (rbf|matern*, ard=false)");
  if (!group_->is_finite() && !iso_)
    throw InputError("invariance '" + group_->name() +
                     "' (continuous group) needs an isotropic stationary base kernel (rbf|matern*, ard=false)");
  if (path == OrbitPath::Brute && !group_->is_finite())
    throw InputError("max kernel: brute-force enumeration needs a finite group, '" + group_->name() + "' is continuous");
  fast_ = exact && path != OrbitPath::Brute;
  two_sided_ = !exact;  // a tied ARD base is invariant itself: k(gx, hy) = k(x, g⁻¹h y)
  if (!fast_) elements_ = group_->elements();
}

MaxKernel::MaxKernel(const MaxKernel& o)
    : scale_(o.scale_),
      base_(o.base_->clone()),
      group_(o.group_),
      center_(o.center_),
      fast_(o.fast_),
      two_sided_(o.two_sided_),
      fit_on_base_(o.fit_on_base_),
      tied_(o.tied_),
      classes_(o.classes_),
      class_first_(o.class_first_),
      elements_(o.elements_) {
  iso_ = as_isotropic(*base_);
  if (tied_) stat_ = dynamic_cast<const StationaryKernel*>(base_.get());
}

// Tied mode: θ = (log ℓ per class, log v); the base holds them expanded to every coordinate.
Vec MaxKernel::log_params() const {
  const Vec b = base_->log_params();
  if (!tied_) return b;
  const int C = static_cast<int>(class_first_.size());
  Vec p(C + 1);
  for (int c = 0; c < C; ++c) p[c] = b[class_first_[c]];
  p[C] = b[b.size() - 1];
  return p;
}

void MaxKernel::set_log_params(const Vec& p) {
  if (!tied_) {
    base_->set_log_params(p);
    return;
  }
  const int C = static_cast<int>(class_first_.size()), D = static_cast<int>(classes_.size());
  if (p.size() != C + 1)
    throw InputError("max kernel (tied ARD): expected " + std::to_string(C + 1) + " log-parameters, got " +
                     std::to_string(p.size()));
  Vec b(D + 1);
  for (int i = 0; i < D; ++i) b[i] = p[classes_[i]];
  b[D] = p[C];
  base_->set_log_params(b);
  refresh_scale();
}

void MaxKernel::refresh_scale() {
  const Vec& ls = stat_->lengthscales();
  scale_ = ls.cwiseInverse();
}

std::vector<std::string> MaxKernel::param_names() const {
  if (!tied_) return base_->param_names();
  std::vector<std::string> out;
  for (std::size_t c = 0; c < class_first_.size(); ++c) out.push_back("lengthscale[" + std::to_string(c) + "]");
  out.push_back("variance");
  return out;
}

std::vector<ParamSpec> MaxKernel::param_specs() const {
  const std::vector<ParamSpec> b = base_->param_specs();
  if (!tied_) return b;
  std::vector<ParamSpec> out;
  for (int first : class_first_) out.push_back(b[first]);  // the class's lengthscale, named by its first coordinate
  out.push_back(b.back());
  return out;
}

Mat MaxKernel::scaled(const Mat& Z) const {
  if (!tied_) return Z;
  return Z * scale_.asDiagonal();
}

std::string MaxKernel::describe() const {
  std::ostringstream s;
  s << "max_" << group_->name() << "(" << base_->describe() << (tied_ ? ", tied ard" : "") << (fast_ ? ", fast" : ", brute")
    << (two_sided_ ? ", two-sided" : "") << ")";
  return s.str();
}

bool MaxKernel::known_psd() const {
  // Tied mode: an isotropic kernel on the scaled coordinates, where the group acts the same way.
  return (iso_ || tied_) && group_->has_canonical_orbit_map();
}

void MaxKernel::align_pair(const Vec& x, const Vec& y, Vec& xa, Vec& ya, Mat* jx) const {
  const int d = static_cast<int>(x.size());
  if (fast_) {
    Vec za, wa;
    if (tied_) {  // align the scaled points, map the pair back (the scaling commutes with the group)
      const Vec zs = (x - center_).cwiseProduct(scale_);
      group_->align(zs, (y - center_).cwiseProduct(scale_), za, wa);
      xa = center_ + za.cwiseQuotient(scale_);
      ya = center_ + wa.cwiseQuotient(scale_);
      if (jx) *jx = group_->align_jacobian(zs);
      return;
    }
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

KernelPtr MaxKernel::local_chart(const Vec& x, Mat& X) const {
  // A continuous group's orbits are manifolds: the nearest orbit points of all rows would lie on one slice
  // through x (a ray for 2-d rotations), a chart that lost dimensions (Radial-2d: docs/bench/structure.md).
  if (two_sided_ || !group_->is_finite() || !group_->is_isometric()) return nullptr;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Vec xa, ya;
    align_pair(x, X.row(i).transpose(), xa, ya, nullptr);  // one-sided, isometric: xa = x
    X.row(i) = ya.transpose();
  }
  return base_->clone();  // tied mode: the ARD base holds the class lengthscales expanded
}

Mat MaxKernel::cross_fast(const Mat& X, const Mat& Y, bool symmetric) const {
  const int n = static_cast<int>(X.rows()), m = static_cast<int>(Y.rows());
  const StationaryKernel& k = tied_ ? *stat_ : *iso_;
  const double ell = tied_ ? 1.0 : iso_->lengthscales()[0], v = k.variance();
  const Mat Xc = scaled(X.rowwise() - center_.transpose());
  const Mat Yc = scaled(Y.rowwise() - center_.transpose());
  Mat K(n, m);
  Vec z, w, za, wa;
  for (int i = 0; i < n; ++i) {
    z = Xc.row(i).transpose();
    for (int j = symmetric ? i : 0; j < m; ++j) {
      w = Yc.row(j).transpose();
      group_->align(z, w, za, wa);
      K(i, j) = v * k.profile((za - wa).norm() / ell);
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
  if (iso_ || tied_)  // the aligned pair of x with itself is (x', x')
    return Vec::Constant(X.rows(), tied_ ? stat_->variance() : iso_->variance());
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
  Mat g = inv::pair_param_grads(*base_, A, B);
  if (tied_) {  // ∂/∂log ℓ_c = Σ over the class's coordinates (chain rule through the tie)
    const int C = static_cast<int>(class_first_.size()), D = static_cast<int>(classes_.size());
    Mat t = Mat::Zero(g.rows(), C + 1);
    for (int i = 0; i < D; ++i) t.col(classes_[i]) += g.col(i);
    t.col(C) = g.col(D);
    g = std::move(t);
  }
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
  if (iso_ || tied_) return Vec::Zero(d);  // k_max(x, x) = v
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
