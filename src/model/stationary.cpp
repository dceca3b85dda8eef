#include "kbo/model/kernels/stationary.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <sstream>
#include <vector>

#include "kbo/model/kernels/matern.hpp"
#include "stationary_pass.hpp"

namespace kbo {

namespace {
namespace sd = stationary_detail;
static_assert(static_cast<int>(StationaryType::RBF) == static_cast<int>(sd::Profile::RBF) &&
              static_cast<int>(StationaryType::Matern12) == static_cast<int>(sd::Profile::Matern12) &&
              static_cast<int>(StationaryType::Matern32) == static_cast<int>(sd::Profile::Matern32) &&
              static_cast<int>(StationaryType::Matern52) == static_cast<int>(sd::Profile::Matern52));

// Up to this many dimensions, cross() computes distances from exact differences instead of a GEMM.
constexpr int kDirectMaxDim = 16;

// The best build of the per-pair loops that the CPU runs and tests allow (set_stationary_simd_max).
std::atomic<int> g_simd_max{static_cast<int>(StationarySimd::AVX512)};
StationarySimd cpu_simd() {
  static const StationarySimd level = [] {
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
      return StationarySimd::AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return StationarySimd::AVX2;
    return StationarySimd::Portable;
  }();
  return level;
}
StationarySimd simd_level() {
  return static_cast<StationarySimd>(std::min(g_simd_max.load(std::memory_order_relaxed), static_cast<int>(cpu_simd())));
}
struct Passes {
  void (*gram)(const sd::PassArgs&);
  void (*contract)(const sd::PassArgs&);
  void (*profile)(int, long, double, double*);
  void (*cross)(int, long, long, long, const double*, const double*, double, double*);
};
const Passes& passes() {
  static const Passes portable{sd::gram_pass_generic, sd::contract_pass_generic, sd::profile_pass_generic,
                               sd::cross_pass_generic};
  static const Passes avx2{sd::gram_pass_avx2, sd::contract_pass_avx2, sd::profile_pass_avx2, sd::cross_pass_avx2};
  static const Passes avx512{sd::gram_pass_avx512, sd::contract_pass_avx512, sd::profile_pass_avx512,
                             sd::cross_pass_avx512};
  switch (simd_level()) {
    case StationarySimd::AVX512: return avx512;
    case StationarySimd::AVX2: return avx2;
    default: return portable;
  }
}
// σ² φ in place over a contiguous array of squared scaled distances.
void profile_in_place(StationaryType t, double variance, Mat& r2) {
  passes().profile(static_cast<int>(t), static_cast<long>(r2.size()), variance, r2.data());
}
}  // namespace

void set_stationary_simd_max(StationarySimd level) { g_simd_max.store(static_cast<int>(level)); }
void set_stationary_simd(bool allowed) {
  set_stationary_simd_max(allowed ? StationarySimd::AVX512 : StationarySimd::Portable);
}
StationarySimd stationary_simd_in_use() { return simd_level(); }
bool stationary_simd_active() { return simd_level() != StationarySimd::Portable; }

StationaryType parse_stationary_type(const std::string& name) { return parse_enum<StationaryType>("kernel", name); }

std::string to_string(StationaryType t) { return enum_name(t); }

StationaryKernel::StationaryKernel(StationaryType type, int dim, bool ard, double lengthscale, double variance)
    : type_(type), dim_(dim), ard_(ard), lengthscales_(Vec::Constant(ard ? dim : 1, lengthscale)),
      variance_(variance) {
  if (dim < 1) throw InputError("kernel: input dimension must be >= 1");
  if (!(lengthscale > 0) || !(variance > 0)) throw InputError("kernel: lengthscale and variance must be > 0");
}

std::string StationaryKernel::describe() const {
  std::ostringstream o;
  o << to_string(type_) << (ard_ ? "(ard, l=[" : "(l=[");
  for (Eigen::Index i = 0; i < lengthscales_.size(); ++i) o << (i ? ", " : "") << lengthscales_[i];
  o << "], s2=" << variance_ << ")";
  return o.str();
}

Vec StationaryKernel::log_params() const {
  Vec p(lengthscales_.size() + 1);
  p.head(lengthscales_.size()) = lengthscales_.array().log();
  p[lengthscales_.size()] = std::log(variance_);
  return p;
}

void StationaryKernel::set_log_params(const Vec& p) {
  if (p.size() != lengthscales_.size() + 1) throw InputError("kernel: wrong number of hyperparameters");
  lengthscales_ = p.head(lengthscales_.size()).array().exp();
  variance_ = std::exp(p[lengthscales_.size()]);
}

std::vector<std::string> StationaryKernel::param_names() const {
  std::vector<std::string> names;
  if (ard_)
    for (int i = 0; i < dim_; ++i) names.push_back("lengthscale[" + std::to_string(i) + "]");
  else
    names.push_back("lengthscale");
  names.push_back("variance");
  return names;
}

std::vector<ParamSpec> StationaryKernel::param_specs() const {
  std::vector<ParamSpec> specs;
  if (ard_)
    for (int i = 0; i < dim_; ++i) specs.push_back(ParamSpec::lengthscale(i));
  else
    specs.push_back(ParamSpec::lengthscale());
  specs.push_back(ParamSpec::variance());
  return specs;
}

void StationaryKernel::set_lengthscales(const Vec& l) {
  if (l.size() != lengthscales_.size() || (l.array() <= 0).any())
    throw InputError("kernel: lengthscales must be " + std::to_string(lengthscales_.size()) + " positive values");
  lengthscales_ = l;
}
void StationaryKernel::set_variance(double v) {
  if (!(v > 0)) throw InputError("kernel: variance must be > 0");
  variance_ = v;
}

double StationaryKernel::profile(double r) const {
  switch (type_) {
    case StationaryType::RBF: return matern::rbf(r);
    case StationaryType::Matern12: return matern::matern12(r);
    case StationaryType::Matern32: return matern::matern32(r);
    case StationaryType::Matern52: return matern::matern52(r);
  }
  return 0.0;
}

double StationaryKernel::profile_derivative(double r) const {
  switch (type_) {
    case StationaryType::RBF: return matern::rbf_derivative(r);
    case StationaryType::Matern12: return matern::matern12_derivative(r);
    case StationaryType::Matern32: return matern::matern32_derivative(r);
    case StationaryType::Matern52: return matern::matern52_derivative(r);
  }
  return 0.0;
}

Mat StationaryKernel::profile_from_sq(const Mat& r2) const {
  switch (type_) {
    case StationaryType::RBF: return (-0.5 * r2.array()).exp().matrix();
    case StationaryType::Matern12: return (-r2.array().sqrt()).exp().matrix();
    case StationaryType::Matern32: {
      auto s = (3.0 * r2.array()).sqrt();
      return ((1.0 + s) * (-s).exp()).matrix();
    }
    case StationaryType::Matern52: {
      auto s = (5.0 * r2.array()).sqrt();
      return ((1.0 + s + 5.0 / 3.0 * r2.array()) * (-s).exp()).matrix();
    }
  }
  return r2;
}

namespace {
// dφ/d(r²) from r², finite at r = 0 except for Matérn-1/2 (there set to 0: the kernel is not
// differentiable at coincident points; a subgradient of 0 is the safe choice).
Mat profile_sq_derivative(StationaryType t, const Mat& r2) {
  switch (t) {
    case StationaryType::RBF: return (-0.5 * (-0.5 * r2.array()).exp()).matrix();
    case StationaryType::Matern12: {
      Eigen::ArrayXXd r = r2.array().sqrt();
      return (r > 0).select(-(-r).exp() / (2.0 * r.max(1e-300)), 0.0).matrix();
    }
    case StationaryType::Matern32: return (-1.5 * (-(3.0 * r2.array()).sqrt()).exp()).matrix();
    case StationaryType::Matern52: {
      auto s = (5.0 * r2.array()).sqrt();
      return (-5.0 / 6.0 * (1.0 + s) * (-s).exp()).matrix();
    }
  }
  return r2;
}
// φ(r²) into K and dφ/d(r²) into G, sharing one exponential per entry.
void profile_and_sq_derivative(StationaryType t, const Mat& r2, Mat& K, Mat& G) {
  switch (t) {
    case StationaryType::RBF:
      K = (-0.5 * r2.array()).exp().matrix();
      G = -0.5 * K;
      return;
    case StationaryType::Matern32: {
      Eigen::ArrayXXd s = (3.0 * r2.array()).sqrt();
      Eigen::ArrayXXd e = (-s).exp();
      K = ((1.0 + s) * e).matrix();
      G = (-1.5 * e).matrix();
      return;
    }
    case StationaryType::Matern52: {
      Eigen::ArrayXXd s = (5.0 * r2.array()).sqrt();
      Eigen::ArrayXXd e = (-s).exp();
      K = ((1.0 + s + 5.0 / 3.0 * r2.array()) * e).matrix();
      G = (-5.0 / 6.0 * (1.0 + s) * e).matrix();
      return;
    }
    case StationaryType::Matern12:
      K = (-r2.array().sqrt()).exp().matrix();
      G = profile_sq_derivative(t, r2);
      return;
  }
}
}  // namespace

Mat StationaryKernel::scaled_sq_dist(const Mat& X, const Mat& Y) const {
  if (X.cols() != dim_ || Y.cols() != dim_)
    throw InputError("kernel: points have " + std::to_string(X.cols() == dim_ ? Y.cols() : X.cols()) +
                     " coordinates, the kernel expects " + std::to_string(dim_));
  Mat A, B;
  if (ard_) {
    Vec inv = lengthscales_.cwiseInverse();
    A = X * inv.asDiagonal();
    B = Y * inv.asDiagonal();
  } else {
    A = X / lengthscales_[0];
    B = Y / lengthscales_[0];
  }
  Mat r2 = -2.0 * A * B.transpose();
  r2.colwise() += A.rowwise().squaredNorm();
  r2.rowwise() += B.rowwise().squaredNorm().transpose();
  return r2.cwiseMax(0.0);
}

Mat StationaryKernel::cross(const Mat& X, const Mat& Y) const {
  if (dim_ > kDirectMaxDim) {  // many dimensions: distances through one GEMM
    Mat r2 = scaled_sq_dist(X, Y);
    if (&X == &Y) r2.diagonal().setZero();
    profile_in_place(type_, variance_, r2);
    return r2;
  }
  if (X.cols() != dim_ || Y.cols() != dim_)
    throw InputError("kernel: points have " + std::to_string(X.cols() == dim_ ? Y.cols() : X.cols()) +
                     " coordinates, the kernel expects " + std::to_string(dim_));
  // Few dimensions: exact differences, one output column at a time along the longer side (a GEMM with
  // an inner dimension of D ≤ 16 is mostly packing overhead).
  const Mat A = scaled(X), B = scaled(Y);
  auto pass = passes().cross;
  if (X.rows() >= Y.rows()) {
    Mat out(X.rows(), Y.rows());
    pass(static_cast<int>(type_), static_cast<long>(X.rows()), static_cast<long>(Y.rows()), dim_, A.data(), B.data(),
         variance_, out.data());
    return out;
  }
  Mat outT(Y.rows(), X.rows());
  pass(static_cast<int>(type_), static_cast<long>(Y.rows()), static_cast<long>(X.rows()), dim_, B.data(), A.data(),
       variance_, outT.data());
  return outT.transpose();
}

Mat StationaryKernel::scaled(const Mat& X) const {
  return ard_ ? Mat(X * lengthscales_.cwiseInverse().asDiagonal()) : Mat(X / lengthscales_[0]);
}

Mat StationaryKernel::gram(const Mat& X) const {
  Mat K, aux;
  if (!gram_lower_fused(X, 0.0, K, aux)) return cross(X, X);
  K.triangularView<Eigen::StrictlyUpper>() = K.transpose();
  return K;
}

bool StationaryKernel::gram_lower_fused(const Mat& X, double shift, Mat& K, Mat& aux) const {
  if (X.cols() != dim_)
    throw InputError("kernel: points have " + std::to_string(X.cols()) + " coordinates, the kernel expects " +
                     std::to_string(dim_));
  if (dim_ > 64) return false;
  const Eigen::Index n = X.rows();
  const Mat A = scaled(X);
  K.resize(n, n);
  aux.resize(n, n);
  std::vector<double> work(2 * static_cast<size_t>(n) + 1);
  sd::PassArgs a{};
  a.type = static_cast<int>(type_);
  a.n = static_cast<long>(n);
  a.d = dim_;
  a.A = A.data();
  a.variance = variance_;
  a.shift = shift;
  a.K = K.data();
  a.E = aux.data();
  a.work = work.data();
  passes().gram(a);
  return true;
}

Vec StationaryKernel::gradient_contract_fused(const Mat& X, const Mat& S, const Vec& alpha, const Mat& aux) const {
  const Eigen::Index n = X.rows();
  if (X.cols() != dim_ || S.rows() != n || S.cols() != n || aux.rows() != n || aux.cols() != n || alpha.size() != n)
    throw InputError("kernel: fused gradient contraction with inconsistent sizes");
  const Mat A = scaled(X);
  Vec g(lengthscales_.size() + 1);
  std::vector<double> work(2 * static_cast<size_t>(n) + 1);
  sd::PassArgs a{};
  a.type = static_cast<int>(type_);
  a.n = static_cast<long>(n);
  a.d = dim_;
  a.A = A.data();
  a.variance = variance_;
  a.E = const_cast<double*>(aux.data());  // read only in the contraction
  a.S = S.data();
  a.alpha = alpha.data();
  a.ard = ard_;
  a.g = g.data();
  a.work = work.data();
  passes().contract(a);
  return g;
}

std::vector<Mat> StationaryKernel::gram_gradients(const Mat& X) const {
  Mat r2 = scaled_sq_dist(X, X);
  r2.diagonal().setZero();
  Mat K = variance_ * profile_from_sq(r2);
  Mat G = variance_ * profile_sq_derivative(type_, r2);  // σ² dφ/d(r²)
  std::vector<Mat> grads;
  if (ard_) {
    for (int d = 0; d < dim_; ++d) {
      Vec a = X.col(d) / lengthscales_[d];
      Mat D2 = (a.replicate(1, X.rows()) - a.transpose().replicate(X.rows(), 1)).array().square();
      grads.push_back((-2.0 * G.array() * D2.array()).matrix());
    }
  } else {
    grads.push_back((-2.0 * G.array() * r2.array()).matrix());
  }
  grads.push_back(K);
  return grads;
}

Vec StationaryKernel::gram_gradient_contract(const Mat& X, const Mat& W) const {
  Mat r2 = scaled_sq_dist(X, X);
  r2.diagonal().setZero();
  const Eigen::Index P = lengthscales_.size() + 1;
  Vec g(P);
  // One pass over the n² entries for both φ and dφ/d(r²) (they share the exponential).
  Mat K(r2.rows(), r2.cols()), M(r2.rows(), r2.cols());
  profile_and_sq_derivative(type_, r2, K, M);
  M.array() *= W.array() * variance_;  // W ∘ σ²φ'
  if (ard_) {
    // Σ_ij M_ij (a_i − a_j)² = 2 Σ_i a_i² (M 1)_i − 2 aᵀ M a  for symmetric M, per dimension.
    Mat A = X * lengthscales_.cwiseInverse().asDiagonal();
    Vec rows = M.rowwise().sum();
    Mat MA = M * A;
    for (int d = 0; d < dim_; ++d)
      g[d] = -2.0 * (2.0 * A.col(d).array().square().matrix().dot(rows) - 2.0 * A.col(d).dot(MA.col(d)));
  } else {
    g[0] = -2.0 * (M.array() * r2.array()).sum();
  }
  g[P - 1] = variance_ * (W.array() * K.array()).sum();
  return g;
}

Mat StationaryKernel::cross_grad_x(const Vec& x, const Mat& Y) const {
  Mat r2 = scaled_sq_dist(x.transpose(), Y);                   // 1 x n
  Mat G = variance_ * profile_sq_derivative(type_, r2);        // 1 x n: σ² dφ/d(r²)
  Mat diff = (-Y).rowwise() + x.transpose();                   // n x D: x − y_j
  Vec inv2 = ard_ ? Vec(lengthscales_.array().square().inverse()) : Vec::Constant(dim_, 1.0 / (lengthscales_[0] * lengthscales_[0]));
  // ∂k/∂x = σ² φ'(r²) · 2 (x − y)/ℓ²
  return (2.0 * inv2.asDiagonal() * diff.transpose()) * G.transpose().asDiagonal();
}

KernelPtr make_stationary(const std::string& name, int dim, bool ard, double lengthscale, double variance) {
  return std::make_unique<StationaryKernel>(parse_stationary_type(name), dim, ard, lengthscale, variance);
}

}  // namespace kbo
