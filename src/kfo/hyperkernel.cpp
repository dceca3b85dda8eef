#include "kbo/kfo/hyperkernel.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kbo/core/error.hpp"
#include "kbo/model/kernels/matern.hpp"

namespace kbo::kfo {

void validate(const HyperkernelParams& p) {
  if (!(std::isfinite(p.lambda_h) && p.lambda_h > 0.0 && p.lambda_h < 1.0))
    throw InputError("hyperkernel lambda_h = " + std::to_string(p.lambda_h) + " is invalid (allowed: 0 < lambda_h < 1)");
  if (!(std::isfinite(p.lengthscale) && p.lengthscale > 0.0))
    throw InputError("hyperkernel lengthscale = " + std::to_string(p.lengthscale) + " is invalid (allowed: > 0)");
}

double matern32_corr(double r, double l) { return matern::matern32_of_s(matern::kSqrt3 * r / l); }

double matern32_corr_deriv(double r, double l) {
  // d/dr (1+u)e^{-u} = -u e^{-u} du/dr, du/dr = √3/l.
  return matern::matern32_ds(matern::kSqrt3 * r / l) * matern::kSqrt3 / l;
}

double matern32_corr_deriv_over_r(double r, double l) {
  // (−u e^{−u} √3/l)/r = −(3/l²) e^{−u}: finite at r = 0.
  return -(3.0 / (l * l)) * std::exp(-(matern::kSqrt3 * r / l));
}

double harmonic(double r1, double r2, const HyperkernelParams& p) {
  const double lam = p.lambda_h;
  return (1.0 - lam) / (1.0 - lam * matern32_corr(r1, p.lengthscale) * matern32_corr(r2, p.lengthscale));
}

double harmonic_d_r1(double r1, double r2, const HyperkernelParams& p) {
  const double lam = p.lambda_h;
  const double m2 = matern32_corr(r2, p.lengthscale);
  const double den = 1.0 - lam * matern32_corr(r1, p.lengthscale) * m2;
  return (1.0 - lam) * lam * m2 * matern32_corr_deriv(r1, p.lengthscale) / (den * den);
}

double hyperkernel(const Vec& a, const Vec& b, const Vec& c, const Vec& d, const HyperkernelParams& p) {
  return harmonic((a - b).norm(), (c - d).norm(), p);
}

double hyperkernel_cross(const Vec& a, const Vec& b, const Vec& c, const Vec& d, const HyperkernelParams& p) {
  return harmonic((a - c).norm(), (b - d).norm(), p);
}

int default_base_points(int input_dim, const BasisOptions& options) {
  if (options.convention == GridConvention::CodeCompat) return 4;
  const int m = static_cast<int>(std::ceil(std::sqrt(10.0 * input_dim) - 1e-12));
  return std::max(m, options.components);
}

FunctionalBasis::FunctionalBasis(int input_dim, const BasisOptions& options)
    : input_dim_(input_dim), options_(options) {
  if (input_dim < 1) throw InputError("KFO basis: input dimension must be >= 1");
  if (options.components < 1) throw InputError("KFO basis: components must be >= 1");
  if (options.base_points < 0 || options.base_points == 1)
    throw InputError("KFO basis: base_points must be 0 (default) or >= 2");
  validate(options.hyper);
  const int m = options.base_points > 0 ? options.base_points : default_base_points(input_dim, options);
  options_.base_points = m;
  const bool compat = options.convention == GridConvention::CodeCompat;
  const int gdim = compat ? 1 : input_dim;
  base_.resize(m, gdim);
  for (int i = 0; i < m; ++i) base_.row(i).setConstant(static_cast<double>(i) / (m - 1));

  if (compat) {
    // The authors' cross-pair hyper-Gram depends on the pair's points, not only on its distance: keep all m²
    // ordered pairs a ↦ (g[a / m], g[a % m]), each once.
    const int ng = m * m;
    grid_r_.resize(ng);
    multiplicity_ = Vec::Ones(ng);
    gram_.resize(ng, ng);
    for (int a = 0; a < ng; ++a) grid_r_[a] = (base_.row(a / m) - base_.row(a % m)).norm();
    for (int a = 0; a < ng; ++a)
      for (int b = 0; b <= a; ++b)
        gram_(a, b) = gram_(b, a) = hyperkernel_cross(base_.row(a / m), base_.row(a % m), base_.row(b / m),
                                                      base_.row(b % m), options.hyper);
  } else {
    // Eq. (3) depends on a pair only through its within-pair distance, so the m² pairs of the grid collapse to
    // the m distinct distances d_u = u/(m−1)·√D with multiplicities c_0 = m, c_u = 2(m − u). The m²×m² hyper-Gram
    // is A G Aᵀ (A: pair → distance indicator, G: eq. (3) on the distinct distances); its non-zero eigenpairs are
    // those of C^{1/2} G C^{1/2} (C = AᵀA = diag(c)), mapped by A C^{-1/2}. Functionals are then the same as
    // with the full grid, with weights per distance w = Aᵀα (tests check both against the explicit m² grid).
    grid_r_.resize(m);
    multiplicity_.resize(m);
    for (int u = 0; u < m; ++u) {
      grid_r_[u] = (base_.row(u) - base_.row(0)).norm();
      multiplicity_[u] = u == 0 ? m : 2.0 * (m - u);
    }
    gram_.resize(m, m);
    for (int a = 0; a < m; ++a)
      for (int b = 0; b <= a; ++b) gram_(a, b) = gram_(b, a) = harmonic(grid_r_[a], grid_r_[b], options.hyper);
  }
  const int ng = static_cast<int>(grid_r_.size());
  const Vec c_half = multiplicity_.cwiseSqrt();
  const Mat weighted = c_half.asDiagonal() * gram_ * c_half.asDiagonal();

  SymmetricEigen eig = symmetric_eigen(weighted);  // ascending
  const double top = eig.values(ng - 1);
  int keep = 0;
  while (keep < options.components && keep < ng && eig.values(ng - 1 - keep) > options.rel_eig_floor * top) ++keep;
  if (keep == 0) throw NumericalError("KFO basis: hyper-Gram matrix has no positive eigenvalue");
  eigenvalues_.resize(keep);
  eigenvectors_.resize(ng, keep);
  for (int i = 0; i < keep; ++i) {
    eigenvalues_(i) = eig.values(ng - 1 - i);
    eigenvectors_.col(i) = eig.vectors.col(ng - 1 - i);
  }
  projection_ = c_half.asDiagonal() * eigenvectors_ * eigenvalues_.cwiseSqrt().cwiseInverse().asDiagonal();
}

Vec FunctionalBasis::alpha(const Vec& z) const {
  if (z.size() != components()) throw InputError("KFO: coordinate vector has wrong size");
  return projection_ * z;
}

Vec FunctionalBasis::grid_values(const Vec& z) const {
  if (z.size() != components()) throw InputError("KFO: coordinate vector has wrong size");
  // G w = G C^{1/2} V Λ^{-1/2} z = C^{-1/2} V Λ^{1/2} z.
  return multiplicity_.cwiseSqrt().cwiseInverse().asDiagonal() * (eigenvectors_ * (eigenvalues_.cwiseSqrt().asDiagonal() * z));
}

Vec FunctionalBasis::coordinates(const Vec& k) const {
  if (k.size() != grid_size()) throw InputError("KFO: grid value vector has wrong size");
  // Least squares over the m² pairs, whose values repeat k_u c_u times: Λ^{-1/2} Vᵀ C^{1/2} k.
  return eigenvalues_.cwiseSqrt().cwiseInverse().asDiagonal() *
         (eigenvectors_.transpose() * (multiplicity_.cwiseSqrt().asDiagonal() * k));
}

Vec FunctionalBasis::features(double r) const {
  Vec h(grid_size());
  for (int j = 0; j < grid_size(); ++j) h(j) = harmonic(r, grid_r_(j), options_.hyper);
  return h;
}

double FunctionalBasis::value(double r, const Vec& alpha) const { return features(r).dot(alpha); }

double FunctionalBasis::rkhs_distance_alpha_form(const Vec& z1, const Vec& z2) const {
  const Vec a1 = alpha(z1), a2 = alpha(z2);
  const double q = a1.dot(gram_ * a1) + a2.dot(gram_ * a2) - 2.0 * a1.dot(gram_ * a2);
  return std::sqrt(std::max(q, 0.0));
}

Vec FunctionalBasis::sample_direction(Rng& rng) const {
  std::normal_distribution<double> n01(0.0, 1.0);
  Vec b(components());
  for (int i = 0; i < b.size(); ++i) b(i) = n01(rng);
  return b;
}

}  // namespace kbo::kfo
