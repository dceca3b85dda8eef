// PSD surrogate of the max kernel on the design set (docs/papers.md#invariance-psd-projection, paper eqs. 6–7).
#include <cmath>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "kbo/invariance/kernels.hpp"

namespace kbo {

ProjectedKernel::ProjectedKernel(MaxKernel max_kernel, double eig_threshold, bool project)
    : max_(std::move(max_kernel)), threshold_(eig_threshold), project_(project) {
  if (!(eig_threshold >= 0.0)) throw InputError("max kernel: eig_threshold must be >= 0, got " + std::to_string(eig_threshold));
}

std::string ProjectedKernel::describe() const {
  std::ostringstream s;
  if (!project_) return max_.describe();
  s << "projected(" << max_.describe() << ", threshold=" << threshold_;
  if (conditioned_) s << ", rank " << rank() << "/" << D_.rows();
  s << ")";
  return s.str();
}

void ProjectedKernel::set_log_params(const Vec& p) {
  max_.set_log_params(p);
  if (active()) rebuild();
}

void ProjectedKernel::condition_on(const Mat& X_train) {
  D_ = X_train;
  conditioned_ = true;
  if (project_) rebuild();
}

void ProjectedKernel::rebuild() {
  // K = V Λ Vᵀ; K₊^† = V₊ Λ₊⁻¹ V₊ᵀ over λ ≥ threshold (reference code: 1e-4, "≥" not ">").
  const Mat K = max_.gram(D_);
  Eigen::SelfAdjointEigenSolver<Mat> es(K);
  if (es.info() != Eigen::Success) throw NumericalError("max kernel: eigendecomposition of the Gram matrix failed");
  lambda_ = es.eigenvalues();
  V_ = es.eigenvectors();
  int first = 0;
  while (first < lambda_.size() && !(lambda_[first] >= threshold_ && lambda_[first] > 0.0)) ++first;
  const int r = static_cast<int>(lambda_.size()) - first;
  W_ = V_.rightCols(r) * lambda_.tail(r).cwiseSqrt().cwiseInverse().asDiagonal();
  PhiD_ = K * W_;
}

bool ProjectedKernel::is_design(const Mat& Y) const {
  return Y.rows() == D_.rows() && Y.cols() == D_.cols() && Y == D_;
}

Mat ProjectedKernel::features(const Mat& Y) const {
  // The GP asks for k(·, X_train) at every prediction: reuse the design features (O(n r)) instead of
  // recomputing n² max-kernel entries.
  if (is_design(Y)) return PhiD_;
  return max_.cross(Y, D_) * W_;
}

Mat ProjectedKernel::cross(const Mat& X, const Mat& Y) const {
  if (!active()) return max_.cross(X, Y);
  return features(X) * features(Y).transpose();
}

Mat ProjectedKernel::gram(const Mat& X) const {
  if (!active()) return max_.gram(X);
  const Mat A = features(X);
  return A * A.transpose();
}

Vec ProjectedKernel::diag(const Mat& X) const {
  if (!active()) return max_.diag(X);
  return features(X).rowwise().squaredNorm();
}

Mat ProjectedKernel::cross_grad_x(const Vec& x, const Mat& Y) const {
  if (!active()) return max_.cross_grad_x(x, Y);
  const Mat J = max_.cross_grad_x(x, D_);  // d x n
  const Mat PhiY = features(Y);  // m x r
  return (J * W_) * PhiY.transpose();
}

Vec ProjectedKernel::diag_grad_x(const Vec& x) const {
  if (!active()) return max_.diag_grad_x(x);
  const Mat J = max_.cross_grad_x(x, D_);
  const Vec phi = W_.transpose() * max_.cross(x.transpose(), D_).row(0).transpose();
  return 2.0 * (J * W_) * phi;
}

std::vector<Mat> ProjectedKernel::gram_gradients(const Mat& X) const {
  if (!active()) return max_.gram_gradients(X);
  // K̃(X, X) = A P Aᵀ, A = k_max(X, D), P = K₊^† = V f(Λ) Vᵀ with f(λ) = 1/λ on kept eigenvalues, 0
  // otherwise. dK̃ = dA P Aᵀ + A P dAᵀ + A dP Aᵀ, and by the Daleckii–Krein formula
  // dP = V (Γ ∘ Vᵀ dK V) Vᵀ with Γ_ij = (f(λ_i) − f(λ_j))/(λ_i − λ_j) (f'(λ_i) on ties). Exact a.e.
  const int n = static_cast<int>(D_.rows());
  const Mat A = max_.cross(X, D_);
  const auto dA = max_.cross_param_gradients(X, D_);
  const auto dK = max_.gram_gradients(D_);
  const Mat P = W_ * W_.transpose();
  const int first = n - rank();
  auto f = [&](int i) { return i >= first ? 1.0 / lambda_[i] : 0.0; };
  Mat Gamma(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const bool ki = i >= first, kj = j >= first;
      if (ki && kj) {
        Gamma(i, j) = -1.0 / (lambda_[i] * lambda_[j]);
      } else if (!ki && !kj) {
        Gamma(i, j) = 0.0;
      } else {
        Gamma(i, j) = (f(i) - f(j)) / (lambda_[i] - lambda_[j]);
      }
    }
  std::vector<Mat> out;
  out.reserve(dA.size());
  const Mat PAt = P * A.transpose();
  for (std::size_t p = 0; p < dA.size(); ++p) {
    const Mat dP = V_ * Gamma.cwiseProduct(V_.transpose() * dK[p] * V_) * V_.transpose();
    const Mat T = dA[p] * PAt;
    out.push_back(T + T.transpose() + A * dP * A.transpose());
  }
  return out;
}

// ---------------------------------------------------------------- normalisation
NormalizedKernel::NormalizedKernel(KernelPtr inner, bool keep_variance) : inner_(std::move(inner)) {
  if (!inner_) throw InputError("normalized kernel: inner kernel is null");
  if (keep_variance) {
    const auto specs = inner_->param_specs();
    for (std::size_t p = 0; p < specs.size() && variance_index_ < 0; ++p)
      if (specs[p].role == ParamRole::Variance) variance_index_ = static_cast<int>(p);
    if (variance_index_ < 0) throw InputError("normalized kernel: the inner kernel has no signal variance to keep");
    label_ = "normalized-scaled";
  }
}

double NormalizedKernel::scale() const {
  return variance_index_ < 0 ? 1.0 : std::exp(inner_->log_params()[variance_index_]);
}

Mat NormalizedKernel::cross(const Mat& X, const Mat& Y) const {
  const Mat K = inner_->cross(X, Y);
  const Vec dx = inner_->diag(X).cwiseSqrt().cwiseInverse();
  const Vec dy = inner_->diag(Y).cwiseSqrt().cwiseInverse();
  return scale() * (dx.asDiagonal() * K * dy.asDiagonal());
}

std::vector<Mat> NormalizedKernel::gram_gradients(const Mat& X) const {
  // k̄ = k/√(d_i d_j): ∂k̄ = ∂k/√(d_i d_j) − k̄/2 (∂d_i/d_i + ∂d_j/d_j), ∂d = diag(∂K). With keep_variance the
  // result is v·k̄: k̄ does not depend on the inner variance (it cancels), so ∂(v k̄)/∂log v = v k̄.
  const Mat K = inner_->gram(X);
  const Vec d = K.diagonal();
  const Vec is = d.cwiseSqrt().cwiseInverse();
  const Mat Kn = is.asDiagonal() * K * is.asDiagonal();
  const double v = scale();
  auto g = inner_->gram_gradients(X);
  for (std::size_t p = 0; p < g.size(); ++p) {
    Mat& dK = g[p];
    if (static_cast<int>(p) == variance_index_) {
      dK = v * Kn;
      continue;
    }
    const Vec rel = dK.diagonal().cwiseQuotient(d);
    Mat out = is.asDiagonal() * dK * is.asDiagonal();
    out -= 0.5 * Kn.cwiseProduct(rel.replicate(1, X.rows()) + rel.transpose().replicate(X.rows(), 1));
    dK = v * out;
  }
  return g;
}

Mat NormalizedKernel::cross_grad_x(const Vec& x, const Mat& Y) const {
  const Mat xr = x.transpose();
  const Vec k = inner_->cross(xr, Y).row(0).transpose();
  const double dx = inner_->diag(xr)[0];
  const Vec dy = inner_->diag(Y);
  const Mat G = inner_->cross_grad_x(x, Y);
  const Vec gd = inner_->diag_grad_x(x);
  Mat out(x.size(), Y.rows());
  for (int j = 0; j < Y.rows(); ++j) out.col(j) = (G.col(j) - k[j] * gd / (2.0 * dx)) / std::sqrt(dx * dy[j]);
  return scale() * out;
}

}  // namespace kbo
