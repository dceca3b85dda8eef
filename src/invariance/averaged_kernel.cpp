// Orbit-averaged kernel (docs/papers.md#invariance-averaged-kernel):
// k_avg(x, y) = Σ_a Σ_b w_a w_b k(L_a x, R_b y), where
//   orbit   L = {id}, R = G, w = 1/|G|            (isotropic base: k(gx, g'y) = k(x, g⁻¹g'y))
//   orbit2  L = R = G, w = 1/|G|                  (any base: the |G|² form)
//   angles  L = {id}, R = m rotations 2πk/m        (rotation, non-RBF isotropic base)
//   factors L = R = {x ↦ c + a_i ρ x̂}, Gauss–Legendre in log a (scaling, see groups.hpp)
//   bessel  closed form for rotation + RBF: v exp(−(r−s)²/2ℓ²) e^{−rs/ℓ²} I0(rs/ℓ²)
//           = v exp(−(r²+s²)/2ℓ²) I0(rs/ℓ²) with r = ||x − c||, s = ||y − c|| (no overflow).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "base_ops.hpp"
#include "kbo/invariance/kernels.hpp"

namespace kbo {

using inv::as_isotropic;

// ---------------------------------------------------------------- Bessel functions
namespace {
// Below this argument std::cyl_bessel_i times e^{−x} is used; above it the asymptotic series, which at
// x ≥ 50 converges to double precision before it starts to diverge (terms shrink until k ≈ 2x).
constexpr double kBesselSwitch = 50.0;

// Σ_k (−1)^k Π_{j≤k} (4ν² − (2j−1)²) / (k! (8x)^k), ν = 0 or 1; e^{−x} I_ν(x) = sum / sqrt(2πx).
double bessel_asymptotic_sum(double nu, double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 60; ++k) {
    term *= -(4.0 * nu * nu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (k * 8.0 * x);
    sum += term;
    if (std::abs(term) < 1e-18 * std::abs(sum)) break;
  }
  return sum;
}
}  // namespace

double bessel_i0e(double x) {
  x = std::abs(x);
  if (x < kBesselSwitch) return std::cyl_bessel_i(0.0, x) * std::exp(-x);
  return bessel_asymptotic_sum(0.0, x) / std::sqrt(2.0 * M_PI * x);
}

double bessel_i1e(double x) {
  const double sgn = x < 0 ? -1.0 : 1.0;
  x = std::abs(x);
  if (x < kBesselSwitch) return sgn * std::cyl_bessel_i(1.0, x) * std::exp(-x);
  return sgn * bessel_asymptotic_sum(1.0, x) / std::sqrt(2.0 * M_PI * x);
}

// ---------------------------------------------------------------- sides
Mat AveragedKernel::Side::apply_rows(int k, const Mat& Zc) const {
  if (!perms.empty()) return perms[k].apply_rows(Zc);
  return Zc * maps[k].transpose();
}

Vec AveragedKernel::Side::apply_transpose(int k, const Vec& v) const {
  if (!perms.empty()) {
    const auto& g = perms[k];
    Vec out(v.size());
    for (int i = 0; i < g.dim(); ++i) out[g.perm[i]] = g.sign[i] * v[i];
    return out;
  }
  return maps[k].transpose() * v;
}

Mat AveragedKernel::orbit_rows(const Side& s, int k, const Mat& X) const {
  const Mat Xc = X.rowwise() - center_.transpose();
  return s.apply_rows(k, Xc).rowwise() + center_.transpose();
}

Mat AveragedKernel::representatives(const Mat& X, double factor) const {
  const auto& sg = static_cast<const ScalingGroup&>(*group_);
  Mat out(X.rows(), X.cols());
  for (int i = 0; i < X.rows(); ++i)
    out.row(i) = center_.transpose() + factor * sg.representative((X.row(i) - center_.transpose()).transpose()).transpose();
  return out;
}

// ---------------------------------------------------------------- construction
AveragedKernel::AveragedKernel(KernelPtr base, GroupPtr group, Vec center, int quadrature, bool fit_on_base)
    : base_(std::move(base)), group_(std::move(group)), center_(std::move(center)), fit_on_base_(fit_on_base) {
  if (!base_) throw InputError("averaged kernel: base kernel is null");
  if (!group_) throw InputError("averaged kernel: group is null (invariance 'none' needs no invariant kernel)");
  if (center_.size() != group_->dim())
    throw InputError("averaged kernel: centre has " + std::to_string(center_.size()) + " entries, the group acts on " +
                     std::to_string(group_->dim()));
  if (quadrature < 1) throw InputError("averaged kernel: quadrature must be >= 1, got " + std::to_string(quadrature));
  iso_ = as_isotropic(*base_);
  if (iso_ && iso_->dim() != group_->dim())
    throw InputError("averaged kernel: base kernel dimension " + std::to_string(iso_->dim()) +
                     " != group dimension " + std::to_string(group_->dim()));
  const int d = group_->dim();
  if (group_->is_finite()) {
    auto el = group_->elements();
    const Vec w = Vec::Constant(static_cast<int>(el.size()), 1.0 / static_cast<double>(el.size()));
    if (iso_) {
      method_ = AveragingMethod::Orbit;
      left_.perms = {SignedPerm::identity(d)};
      left_.weights = Vec::Ones(1);
    } else {
      method_ = AveragingMethod::Orbit2;
      left_.perms = el;
      left_.weights = w;
    }
    right_.perms = std::move(el);
    right_.weights = w;
    return;
  }
  if (!iso_)
    throw InputError("invariance '" + group_->name() +
                     "' (continuous group) needs an isotropic stationary base kernel (rbf|matern*, ard=false)");
  if (group_->action() == GroupAction::PlanarRotations) {
    if (iso_->type() == StationaryType::RBF) {
      method_ = AveragingMethod::Bessel;
      return;
    }
    method_ = AveragingMethod::Angles;
    left_.maps = {Mat::Identity(2, 2)};
    left_.weights = Vec::Ones(1);
    for (int k = 0; k < quadrature; ++k) right_.maps.push_back(RotationGroup::rotation(2.0 * M_PI * k / quadrature));
    right_.weights = Vec::Constant(quadrature, 1.0 / quadrature);
    return;
  }
  if (group_->action() == GroupAction::Scalings) {
    method_ = AveragingMethod::Factors;
    static_cast<const ScalingGroup&>(*group_).factor_quadrature(quadrature, factors_, factor_weights_);
    return;
  }
  throw InputError("averaged kernel: no averaging rule for continuous group '" + group_->name() + "'");
}

AveragedKernel::AveragedKernel(const AveragedKernel& o)
    : base_(o.base_->clone()),
      group_(o.group_),
      center_(o.center_),
      method_(o.method_),
      fit_on_base_(o.fit_on_base_),
      left_(o.left_),
      right_(o.right_),
      factors_(o.factors_),
      factor_weights_(o.factor_weights_) {
  iso_ = as_isotropic(*base_);
}

KernelPtr AveragedKernel::local_chart(const Vec& x, Mat& X) const {
  if (!iso_ || !group_->is_finite() || !group_->is_isometric()) return nullptr;  // as MaxKernel::local_chart
  const Vec z = x - center_;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Vec za, wa;
    group_->align(z, X.row(i).transpose() - center_, za, wa);  // isometric: za = z
    X.row(i) = (center_ + wa).transpose();
  }
  return base_->clone();
}

std::string AveragedKernel::describe() const {
  std::ostringstream s;
  s << "avg_" << group_->name() << "(" << base_->describe() << ", " << enum_name(method_) << ")";
  return s.str();
}

// ---------------------------------------------------------------- values
namespace {
constexpr Eigen::Index kChunkEntries = 1 << 20;  // bound on the size of one stacked kernel block
}

Mat AveragedKernel::cross_orbit(const Mat& X, const Mat& Y) const {
  const Eigen::Index n = X.rows(), m = Y.rows();
  Mat K = Mat::Zero(n, m);
  const bool one_sided = left_.size() == 1;
  if (one_sided && n < m) {
    // Σ_b w_b k(x, b y) = Σ_b w_b k(b⁻¹ x, y) for an isotropic base, and {b⁻¹} = {b} (a group, or a
    // rotation rule closed under inverses) with equal weights: expand the short side, stacked.
    const int B = right_.size();
    const Eigen::Index per = std::max<Eigen::Index>(1, kChunkEntries / std::max<Eigen::Index>(1, n * m));
    for (int b0 = 0; b0 < B; b0 += static_cast<int>(per)) {
      const int b1 = static_cast<int>(std::min<Eigen::Index>(B, b0 + per));
      Mat S((b1 - b0) * n, X.cols());
      for (int b = b0; b < b1; ++b) S.middleRows((b - b0) * n, n) = orbit_rows(right_, b, X);
      const Mat Kb = base_->cross(S, Y);
      for (int b = b0; b < b1; ++b) K += right_.weights[b] * Kb.middleRows((b - b0) * n, n);
    }
    return K;
  }
  for (int a = 0; a < left_.size(); ++a) {
    const Mat Xa = one_sided ? X : orbit_rows(left_, a, X);
    const int B = right_.size();
    const Eigen::Index per = std::max<Eigen::Index>(1, kChunkEntries / std::max<Eigen::Index>(1, n * m));
    for (int b0 = 0; b0 < B; b0 += static_cast<int>(per)) {
      const int b1 = static_cast<int>(std::min<Eigen::Index>(B, b0 + per));
      Mat S((b1 - b0) * m, Y.cols());
      for (int b = b0; b < b1; ++b) S.middleRows((b - b0) * m, m) = orbit_rows(right_, b, Y);
      const Mat Kb = base_->cross(Xa, S);
      for (int b = b0; b < b1; ++b) K += left_.weights[a] * right_.weights[b] * Kb.middleCols((b - b0) * m, m);
    }
  }
  return K;
}

Mat AveragedKernel::cross_bessel(const Mat& X, const Mat& Y) const {
  const double ell = iso_->lengthscales()[0], v = iso_->variance(), l2 = ell * ell;
  const Vec r = (X.rowwise() - center_.transpose()).rowwise().norm();
  const Vec s = (Y.rowwise() - center_.transpose()).rowwise().norm();
  Mat K(X.rows(), Y.rows());
  for (int i = 0; i < X.rows(); ++i)
    for (int j = 0; j < Y.rows(); ++j) {
      const double dr = r[i] - s[j];
      K(i, j) = v * std::exp(-dr * dr / (2.0 * l2)) * bessel_i0e(r[i] * s[j] / l2);
    }
  return K;
}

Mat AveragedKernel::cross_factors(const Mat& X, const Mat& Y) const {
  const int q = static_cast<int>(factors_.size());
  const Eigen::Index n = X.rows(), m = Y.rows();
  Mat Xs(q * n, X.cols()), Ys(q * m, Y.cols());
  for (int a = 0; a < q; ++a) {
    Xs.middleRows(a * n, n) = representatives(X, factors_[a]);
    Ys.middleRows(a * m, m) = representatives(Y, factors_[a]);
  }
  const Mat Kb = base_->cross(Xs, Ys);
  Mat K = Mat::Zero(n, m);
  for (int a = 0; a < q; ++a)
    for (int b = 0; b < q; ++b) K += factor_weights_[a] * factor_weights_[b] * Kb.block(a * n, b * m, n, m);
  return K;
}

Mat AveragedKernel::cross(const Mat& X, const Mat& Y) const {
  if (method_ == AveragingMethod::Bessel) return cross_bessel(X, Y);
  if (method_ == AveragingMethod::Factors) return cross_factors(X, Y);
  return cross_orbit(X, Y);
}

Vec AveragedKernel::diag(const Mat& X) const {
  Vec out(X.rows());
  for (int i = 0; i < X.rows(); ++i) out[i] = cross(X.row(i), X.row(i))(0, 0);
  return out;
}

// ---------------------------------------------------------------- gradients
std::vector<Mat> AveragedKernel::cross_param_gradients(const Mat& X, const Mat& Y) const {
  const Eigen::Index n = X.rows(), m = Y.rows(), d = X.cols();
  const int P = base_->num_params();
  std::vector<Mat> out(P, Mat::Zero(n, m));
  if (method_ == AveragingMethod::Bessel) {
    // log k = log v − (r−s)²/2ℓ² + log i0e(q), q = rs/ℓ²: ∂/∂log ℓ = (r−s)²/ℓ² − 2q (i1e/i0e − 1).
    const double ell = iso_->lengthscales()[0], l2 = ell * ell;
    const Mat K = cross_bessel(X, Y);
    const Vec r = (X.rowwise() - center_.transpose()).rowwise().norm();
    const Vec s = (Y.rowwise() - center_.transpose()).rowwise().norm();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        const double q = r[i] * s[j] / l2, dr = r[i] - s[j];
        out[0](i, j) = K(i, j) * (dr * dr / l2 - 2.0 * q * (bessel_i1e(q) / bessel_i0e(q) - 1.0));
      }
    out[1] = K;
    return out;
  }
  // Σ_ab w_a w_b ∂k(L_a x_i, R_b y_j)/∂θ over stacked row pairs.
  auto accumulate = [&](const Mat& Xa, const Mat& Yb, double w) {
    Mat A(n * m, d), B(n * m, d);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        A.row(i * m + j) = Xa.row(i);
        B.row(i * m + j) = Yb.row(j);
      }
    const Mat g = inv::pair_param_grads(*base_, A, B);
    for (int p = 0; p < P; ++p)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) out[p](i, j) += w * g(i * m + j, p);
  };
  if (method_ == AveragingMethod::Factors) {
    const int q = static_cast<int>(factors_.size());
    for (int a = 0; a < q; ++a) {
      const Mat Xa = representatives(X, factors_[a]);
      for (int b = 0; b < q; ++b) accumulate(Xa, representatives(Y, factors_[b]), factor_weights_[a] * factor_weights_[b]);
    }
    return out;
  }
  for (int a = 0; a < left_.size(); ++a) {
    const Mat Xa = orbit_rows(left_, a, X);
    for (int b = 0; b < right_.size(); ++b) accumulate(Xa, orbit_rows(right_, b, Y), left_.weights[a] * right_.weights[b]);
  }
  return out;
}

Mat AveragedKernel::cross_grad_x(const Vec& x, const Mat& Y) const {
  const Eigen::Index m = Y.rows(), d = x.size();
  Mat out = Mat::Zero(d, m);
  if (method_ == AveragingMethod::Bessel) {
    const double ell = iso_->lengthscales()[0], l2 = ell * ell;
    const Vec z = x - center_;
    const double r = z.norm();
    if (r == 0.0) return out;  // k is a smooth function of r² near the centre
    const Mat K = cross_bessel(x.transpose(), Y);
    const Vec s = (Y.rowwise() - center_.transpose()).rowwise().norm();
    for (int j = 0; j < m; ++j) {
      const double q = r * s[j] / l2;
      const double dk_dr = K(0, j) * (-(r - s[j]) / l2 + (bessel_i1e(q) / bessel_i0e(q) - 1.0) * s[j] / l2);
      out.col(j) = dk_dr * z / r;
    }
    return out;
  }
  if (method_ == AveragingMethod::Factors) {
    const auto& sg = static_cast<const ScalingGroup&>(*group_);
    const Mat J = sg.representative_jacobian(x - center_);
    const int q = static_cast<int>(factors_.size());
    Mat Ys(q * m, d);
    for (int b = 0; b < q; ++b) Ys.middleRows(b * m, m) = representatives(Y, factors_[b]);
    Mat acc = Mat::Zero(d, m);
    for (int a = 0; a < q; ++a) {
      const Vec xa = representatives(x.transpose(), factors_[a]).row(0).transpose();
      const Mat G = base_->cross_grad_x(xa, Ys);  // d x (q m)
      for (int b = 0; b < q; ++b) acc += factor_weights_[a] * factor_weights_[b] * factors_[a] * G.middleCols(b * m, m);
    }
    return J.transpose() * acc;
  }
  for (int a = 0; a < left_.size(); ++a) {
    const Vec xa = orbit_rows(left_, a, x.transpose()).row(0).transpose();
    Mat acc = Mat::Zero(d, m);
    const int B = right_.size();
    const Eigen::Index per = std::max<Eigen::Index>(1, kChunkEntries / std::max<Eigen::Index>(1, m * d));
    for (int b0 = 0; b0 < B; b0 += static_cast<int>(per)) {
      const int b1 = static_cast<int>(std::min<Eigen::Index>(B, b0 + per));
      Mat S((b1 - b0) * m, d);
      for (int b = b0; b < b1; ++b) S.middleRows((b - b0) * m, m) = orbit_rows(right_, b, Y);
      const Mat G = base_->cross_grad_x(xa, S);
      for (int b = b0; b < b1; ++b) acc += right_.weights[b] * G.middleCols((b - b0) * m, m);
    }
    // ∂/∂x k(c + g_a(x − c), ·) = g_aᵀ ∂₁k
    for (int j = 0; j < m; ++j) out.col(j) += left_.weights[a] * left_.apply_transpose(a, acc.col(j));
  }
  return out;
}

Vec AveragedKernel::diag_grad_x(const Vec& x) const {
  const Eigen::Index d = x.size();
  Vec out = Vec::Zero(d);
  if (method_ == AveragingMethod::Factors) return out;  // k(x, x) only involves the fixed factor pairs: constant
  if (method_ == AveragingMethod::Bessel) {
    // k(x, x) = v i0e(r²/ℓ²); d i0e(q)/dq = i1e − i0e.
    const double ell = iso_->lengthscales()[0], l2 = ell * ell, v = iso_->variance();
    const Vec z = x - center_;
    const double r = z.norm(), q = r * r / l2;
    return v * (bessel_i1e(q) - bessel_i0e(q)) * (2.0 / l2) * z;
  }
  // d/dx k(L_a x, R_b x) = L_aᵀ ∂₁k(L_a x, R_b x) + R_bᵀ ∂₁k(R_b x, L_a x)  (k symmetric).
  const Mat xr = x.transpose();
  for (int a = 0; a < left_.size(); ++a) {
    const Mat xa = orbit_rows(left_, a, xr);
    for (int b = 0; b < right_.size(); ++b) {
      const Mat xb = orbit_rows(right_, b, xr);
      const Vec g1 = inv::pair_grad_a(*base_, xa, xb).row(0).transpose();
      const Vec g2 = inv::pair_grad_a(*base_, xb, xa).row(0).transpose();
      out += left_.weights[a] * right_.weights[b] * (left_.apply_transpose(a, g1) + right_.apply_transpose(b, g2));
    }
  }
  return out;
}

}  // namespace kbo
