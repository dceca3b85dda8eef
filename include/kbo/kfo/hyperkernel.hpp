#pragma once
// KFO (Kumar et al., NeurIPS 2021) §3.1: the Matérn harmonic hyperkernel on pairs (eq. 3), the grid G of
// pairs, the hyper-Gram matrix κ_G and its top-N eigenpairs. A kernel functional is stored by its N PCA
// coordinates z; its values on the grid are k = E Λ^{1/2} z and, by eq. (4) with the PCA pseudo-inverse,
//     K(x, x') = h(x, x')ᵀ α,   α = P z,   P = E Λ^{-1/2},   h_j(x, x') = κ((x, x'), g_j).
// In this basis the hyper-RKHS distance of eq. (7) is exactly ||z1 − z2||₂ (αᵀκ_G α' = zᵀz').
//
// Every hyperkernel entry depends on a pair only through its within-pair distance r = ||x − x'|| (eq. 3),
// so a learned kernel is isotropic and stationary: K(x, x') = Σ_j α_j κ(||x − x'||, r_j). The basis therefore
// represents the paper's m² grid pairs by their m distinct distances with multiplicities c: the same
// eigenvalues and functionals as the m² × m² hyper-Gram, from an m × m eigenproblem. (Relevance per input
// dimension comes from scaling the inputs, kfo/input_scales.hpp.)
#include <vector>

#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"

namespace kbo::kfo {

/// Θ = {λh, l}: harmonic weight λh ∈ (0, 1) and Matérn-3/2 lengthscale l > 0.
struct HyperkernelParams {
  double lambda_h = 0.5;
  double lengthscale = 0.5;
};
/// InputError unless 0 < λh < 1 and l > 0 (both finite).
void validate(const HyperkernelParams& p);

/// Matérn-3/2 correlation m(r) = (1 + √3 r / l) exp(−√3 r / l) and its derivative dm/dr.
double matern32_corr(double r, double l);
double matern32_corr_deriv(double r, double l);
/// matern32_corr_deriv(r, l) / r = −(3/l²) e^{−√3 r/l}, finite at r = 0.
double matern32_corr_deriv_over_r(double r, double l);

/// Eq. (3) written through the within-pair distances: κ = (1 − λh) / (1 − λh m(r1) m(r2)).
double harmonic(double r1, double r2, const HyperkernelParams& p);
/// ∂κ/∂r1 of harmonic(r1, r2).
double harmonic_d_r1(double r1, double r2, const HyperkernelParams& p);

/// Eq. (3) on two pairs (a, b) and (c, d): r1 = ||a − b||, r2 = ||c − d||.
double hyperkernel(const Vec& a, const Vec& b, const Vec& c, const Vec& d, const HyperkernelParams& p);
/// The authors' grid-Gram form (docs/papers.md#kfo-hyperkernel):
/// (1 − λh) / (1 − λh m(||a − c||) m(||b − d||)) ("cross-pair").
double hyperkernel_cross(const Vec& a, const Vec& b, const Vec& c, const Vec& d, const HyperkernelParams& p);

enum class GridConvention {
  Paper,       // eq. (3) for the hyper-Gram AND for h (one hyperkernel throughout)
  CodeCompat,  // authors' code: cross-pair form for the hyper-Gram, eq. (3) for h; 1-D base grid
};

struct BasisOptions {
  /// m base points; the grid is all m² ordered pairs (Ng = m², represented by its m distinct distances). 0 ⇒ default:
  ///   Paper: m = max(⌈√(10·D)⌉, N) so that Ng ≈ 10·D (the paper's "Ng ≈ 10n") and the hyper-Gram has
  ///          at least N non-zero eigenvalues (with eq. (3) its rank is the number of distinct distances);
  ///   CodeCompat: m = 4 (Ng = 16), as in the authors' classification wrapper.
  int base_points = 0;
  int components = 10;  // N, principal components kept (fewer if the hyper-Gram has lower numerical rank)
  GridConvention convention = GridConvention::Paper;
  HyperkernelParams hyper;
  /// Eigenvalues below rel_eig_floor · λ_max are treated as zero (not kept: Λ^{-1/2} would blow up).
  double rel_eig_floor = 1e-12;
};

class FunctionalBasis {
 public:
  /// input_dim D of the data the kernels will act on (data scaled to [0,1]^D). Base points:
  ///   Paper: g_i = t_i·(1,…,1) ∈ [0,1]^D, t = linspace(0,1,m) (the cube's diagonal, so grid distances
  ///          |t_i − t_j|·√D span the range of data distances [0, √D]);
  ///   CodeCompat: g_i = t_i ∈ [0,1] (1-D, whatever D is, as the authors' code).
  FunctionalBasis(int input_dim, const BasisOptions& options);

  int input_dim() const { return input_dim_; }
  /// Grid points of the representation: Paper: the m distinct within-pair distances of the m² pairs (eq. (3)
  /// sees a pair only through its distance); CodeCompat: all m² pairs (its cross-pair form does not).
  int grid_size() const { return static_cast<int>(grid_r_.size()); }
  int components() const { return static_cast<int>(eigenvalues_.size()); }  // N actually kept
  const BasisOptions& options() const { return options_; }
  const HyperkernelParams& hyper() const { return options_.hyper; }

  const Mat& base_points() const { return base_; }          // m × (D or 1)
  const Vec& grid_distances() const { return grid_r_; }      // r_u, size grid_size()
  /// c_u: how many of the m² grid pairs grid point u stands for (Paper: m at r = 0, 2(m − u) else; CodeCompat: 1).
  const Vec& multiplicities() const { return multiplicity_; }

  const Mat& hyper_gram() const { return gram_; }            // G, κ between grid points, grid_size()²
  const Vec& eigenvalues() const { return eigenvalues_; }    // top N of C^{1/2} G C^{1/2}, descending, all > 0
                                                             // (= the non-zero ones of the m² pairs' hyper-Gram)
  const Mat& eigenvectors() const { return eigenvectors_; }  // V, grid_size() × N
  const Mat& projection() const { return projection_; }      // P = C^{1/2} V Λ^{-1/2}, grid_size() × N

  Vec alpha(const Vec& z) const;                              // weights per grid point w = P z (Σ of the pairs' α)
  Vec grid_values(const Vec& z) const;                        // G w = C^{-1/2} V Λ^{1/2} z
  /// PCA coordinates of grid values k (least squares in the kept subspace): Λ^{-1/2} Eᵀ k.
  Vec coordinates(const Vec& grid_values) const;
  /// h(x, x') for a pair at within-pair distance r: κ(r, r_j), j = 1..Ng.
  Vec features(double r) const;
  /// K(x, x') = h ᵀ α for the pair distance r.
  double value(double r, const Vec& alpha) const;

  /// Eq. (7) in this basis: ||z1 − z2||₂.
  static double rkhs_distance(const Vec& z1, const Vec& z2) { return (z1 - z2).norm(); }
  /// Eq. (7) literally: sqrt(α1ᵀκ_Gα1 + α2ᵀκ_Gα2 − 2α1ᵀκ_Gα2) with α = P z (for checking the identity).
  double rkhs_distance_alpha_form(const Vec& z1, const Vec& z2) const;

  /// A random direction in the functional space: β ~ N(0, I_N) (grid values E Λ^{1/2} β ~ GP_κ on G).
  Vec sample_direction(Rng& rng) const;

 private:
  int input_dim_;
  BasisOptions options_;
  Mat base_;
  Vec grid_r_, multiplicity_;
  Mat gram_;
  Vec eigenvalues_;
  Mat eigenvectors_, projection_;
};

/// Default m of BasisOptions (see there).
int default_base_points(int input_dim, const BasisOptions& options);

}  // namespace kbo::kfo
