// Pairwise base-kernel evaluations (see base_ops.hpp).
#include "base_ops.hpp"

#include <cmath>

#include "kbo/model/kernels/matern.hpp"

namespace kbo::inv {

const StationaryKernel* as_isotropic(const Kernel& base) {
  const auto* s = dynamic_cast<const StationaryKernel*>(&base);
  return (s && !s->ard()) ? s : nullptr;
}

double profile_deriv_over_r(const StationaryKernel& k, double r) {
  if (r > 1e-8) return k.profile_derivative(r) / r;
  switch (k.type()) {  // limits of φ'(r)/r as r → 0 (−1, −3, −5/3)
    case StationaryType::RBF: return matern::rbf_derivative_over_r(0.0);
    case StationaryType::Matern32: return matern::matern32_derivative_over_r(0.0);
    case StationaryType::Matern52: return matern::matern52_derivative_over_r(0.0);
    case StationaryType::Matern12: return 0.0;  // kink at 0: any subgradient; 0 is the symmetric one
  }
  return 0.0;
}

namespace {
// Per-dimension inverse squared lengthscales.
Vec inv_ls2(const StationaryKernel& k, int d) {
  const Vec& l = k.lengthscales();
  Vec out(d);
  for (int i = 0; i < d; ++i) {
    const double li = l.size() == 1 ? l[0] : l[i];
    out[i] = 1.0 / (li * li);
  }
  return out;
}
}  // namespace

Vec pair_values(const Kernel& base, const Mat& A, const Mat& B) {
  const int n = static_cast<int>(A.rows());
  Vec out(n);
  if (const auto* s = dynamic_cast<const StationaryKernel*>(&base)) {
    const Vec il = inv_ls2(*s, static_cast<int>(A.cols()));
    for (int t = 0; t < n; ++t) {
      const double r2 = ((A.row(t) - B.row(t)).array().square() * il.transpose().array()).sum();
      out[t] = s->variance() * s->profile(std::sqrt(r2));
    }
    return out;
  }
  for (int t = 0; t < n; ++t) out[t] = base.cross(A.row(t), B.row(t))(0, 0);
  return out;
}

Mat pair_grad_a(const Kernel& base, const Mat& A, const Mat& B) {
  const int n = static_cast<int>(A.rows()), d = static_cast<int>(A.cols());
  Mat out(n, d);
  if (const auto* s = dynamic_cast<const StationaryKernel*>(&base)) {
    const Vec il = inv_ls2(*s, d);
    for (int t = 0; t < n; ++t) {
      const Eigen::RowVectorXd diff = A.row(t) - B.row(t);
      const double r = std::sqrt((diff.array().square() * il.transpose().array()).sum());
      out.row(t) = s->variance() * profile_deriv_over_r(*s, r) * (diff.array() * il.transpose().array()).matrix();
    }
    return out;
  }
  for (int t = 0; t < n; ++t) out.row(t) = base.cross_grad_x(A.row(t).transpose(), B.row(t)).col(0).transpose();
  return out;
}

Mat pair_param_grads(const Kernel& base, const Mat& A, const Mat& B) {
  const int n = static_cast<int>(A.rows()), d = static_cast<int>(A.cols());
  const int P = base.num_params();
  Mat out(n, P);
  if (const auto* s = dynamic_cast<const StationaryKernel*>(&base)) {
    // Layout: log ℓ (1 or D), then log variance.
    const Vec il = inv_ls2(*s, d);
    const int nl = static_cast<int>(s->lengthscales().size());
    const double v = s->variance();
    for (int t = 0; t < n; ++t) {
      const Eigen::ArrayXd sq = (A.row(t) - B.row(t)).array().square().transpose() * il.array();
      const double r = std::sqrt(sq.sum());
      const double dor = profile_deriv_over_r(*s, r);
      if (nl == 1) {
        out(t, 0) = -v * dor * r * r;  // ∂r/∂log ℓ = −r
      } else {
        for (int i = 0; i < d; ++i) out(t, i) = -v * dor * sq[i];
      }
      out(t, nl) = v * s->profile(r);
    }
    return out;
  }
  // Generic: the off-diagonal entry of the 2-point Gram gradients.
  Mat two(2, d);
  for (int t = 0; t < n; ++t) {
    two.row(0) = A.row(t);
    two.row(1) = B.row(t);
    const auto g = base.gram_gradients(two);
    for (int p = 0; p < P; ++p) out(t, p) = g[p](0, 1);
  }
  return out;
}

}  // namespace kbo::inv
