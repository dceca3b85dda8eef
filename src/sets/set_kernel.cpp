#include "kbo/sets/set_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>

#include "kbo/invariance/kernels.hpp"
#include "kbo/sets/aligned_set_kernel.hpp"
#include "kbo/sets/set_chart.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/sets/sliced_set_kernel.hpp"
#include "set_engine.hpp"

namespace kbo {

using sets_detail::block_sums;
using sets_detail::for_each_tile;
using sets_detail::profile_eval;
using sets_detail::sq_dist;
using sets_detail::stack_scaled;

SetKernelMode parse_set_kernel_mode(const std::string& name) { return parse_enum<SetKernelType>("set_kernel", name); }

namespace {

// FNV-1a over the bytes of X and its shape: the approximate kernel's draw is a function of
// (seed, training set), so it is reproducible and independent of how often the kernel was cloned.
std::uint64_t hash_matrix(const Mat& X) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](const unsigned char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= 1099511628211ULL;
    }
  };
  const std::int64_t shape[2] = {static_cast<std::int64_t>(X.rows()), static_cast<std::int64_t>(X.cols())};
  mix(reinterpret_cast<const unsigned char*>(shape), sizeof(shape));
  mix(reinterpret_cast<const unsigned char*>(X.data()), sizeof(double) * static_cast<std::size_t>(X.size()));
  return h;
}

}  // namespace

SetKernel::SetKernel(const StationaryKernel& base, int set_size, int element_dim, SetKernelMode mode,
                     int subset_size, std::uint64_t seed)
    : base_(base), m_(set_size), d_(element_dim), mode_(mode), L_(subset_size), rng_(make_rng(seed)), seed_(seed) {
  if (m_ < 1) throw InputError("set kernel: set size m must be >= 1 (got " + std::to_string(m_) + ")");
  if (d_ < 1) throw InputError("set kernel: element dimension d must be >= 1 (got " + std::to_string(d_) + ")");
  if (mode_ != SetKernelMode::Full && mode_ != SetKernelMode::Approx)
    throw InputError("set kernel: the mean-pair set kernel is 'full' or 'approx' (got '" + enum_name(mode_) + "')");
  if (base_.dim() != d_)
    throw InputError("set kernel: base kernel dimension " + std::to_string(base_.dim()) +
                     " differs from the element dimension " + std::to_string(d_));
  if (L_ == 0) L_ = m_;
  if (L_ < 1 || L_ > m_)
    throw InputError("set kernel: subset size L must be in [1, m=" + std::to_string(m_) + "] (got " +
                     std::to_string(subset_size) + ")");
  redraw();
}

KernelPtr SetKernel::local_chart(const Vec& x, Mat& X) const {
  align_elements(x, X, m_, d_);
  return tiled_element_kernel(base_, m_);
}

std::string SetKernel::describe() const {
  std::ostringstream os;
  os << "set(" << base_.describe() << ", m=" << m_ << ", d=" << d_;
  if (mode_ == SetKernelMode::Approx) os << ", approx L=" << L_;
  os << ")";
  return os.str();
}

void SetKernel::check_input(const Mat& X, const char* what) const {
  if (X.cols() != static_cast<Eigen::Index>(m_) * d_)
    throw InputError(std::string("set kernel: ") + what + " has " + std::to_string(X.cols()) +
                     " columns, expected m*d = " + std::to_string(m_ * d_));
}

// ---------------------------------------------------------------- draws
void SetKernel::redraw() {
  std::normal_distribution<double> normal;
  draw_.w.resize(d_);
  for (int k = 0; k < d_; ++k) draw_.w(k) = normal(rng_);
  std::vector<int> perm(m_);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng_);
  draw_.ranks.assign(perm.begin(), perm.begin() + L_);
}

void SetKernel::reseed(std::uint64_t seed) {
  seed_ = seed;
  rng_ = make_rng(seed);
  redraw();
}

void SetKernel::set_draw(const SetSubsetDraw& draw) {
  if (draw.w.size() != d_) throw InputError("set kernel draw: w must have d = " + std::to_string(d_) + " entries");
  if (static_cast<int>(draw.ranks.size()) != L_)
    throw InputError("set kernel draw: expected L = " + std::to_string(L_) + " ranks");
  std::vector<char> seen(m_, 0);
  for (int r : draw.ranks) {
    if (r < 0 || r >= m_ || seen[r]) throw InputError("set kernel draw: ranks must be distinct values in [0, m)");
    seen[r] = 1;
  }
  draw_ = draw;
}

void SetKernel::condition_on(const Mat& X_train) {
  if (mode_ != SetKernelMode::Approx) return;
  if (X_train.rows() == conditioned_on_.rows() && X_train.cols() == conditioned_on_.cols() &&
      X_train == conditioned_on_)
    return;  // same training set (e.g. hyperparameter refits): keep the draw
  conditioned_on_ = X_train;
  rng_ = make_rng(seed_ ^ hash_matrix(X_train));
  redraw();
}

std::vector<int> SetKernel::selected_elements(const Vec& set) const {
  std::vector<int> idx(m_);
  std::iota(idx.begin(), idx.end(), 0);
  if (mode_ == SetKernelMode::Full) return idx;
  const Vec proj = SetSpace::to_elements(set, m_, d_) * draw_.w;
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return proj(a) < proj(b); });
  std::vector<int> out(L_);
  for (int j = 0; j < L_; ++j) out[j] = idx[draw_.ranks[j]];
  return out;
}

Mat SetKernel::select(const Mat& X) const {
  check_input(X, "input");
  if (mode_ == SetKernelMode::Full) return X;
  Mat S(X.rows(), static_cast<Eigen::Index>(L_) * d_);
  for (Eigen::Index s = 0; s < X.rows(); ++s) {
    const Vec row = X.row(s).transpose();
    const std::vector<int> sel = selected_elements(row);
    for (int j = 0; j < L_; ++j) S.row(s).segment(j * d_, d_) = row.segment(sel[j] * d_, d_).transpose();
  }
  return S;
}

// ---------------------------------------------------------------- evaluation
Mat SetKernel::cross(const Mat& X, const Mat& Y) const {
  check_input(X, "X");
  check_input(Y, "Y");
  const int L = subset_size();
  const Vec& ls = base_.lengthscales();
  const Mat A = stack_scaled(select(X), L, d_, ls);
  const Mat B = stack_scaled(select(Y), L, d_, ls);
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  Mat K(X.rows(), Y.rows());
  sets_detail::TileSums ts;
  for_each_tile(static_cast<int>(X.rows()), L, static_cast<int>(Y.rows()), L, false, kTileElements,
                [&](int i0, int ni, int j0, int nj) {
                  sets_detail::tile_block_sums(base_.type(), A.middleRows(i0 * L, ni * L),
                                               B.middleRows(j0 * L, nj * L), L, false, false, false, ts);
                  K.block(i0, j0, ni, nj) = scale * ts.phi;
                });
  return K;
}

Mat SetKernel::gram(const Mat& X) const {
  check_input(X, "X");
  const int L = subset_size();
  const int n = static_cast<int>(X.rows());
  const Mat A = stack_scaled(select(X), L, d_, base_.lengthscales());
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  Mat K(n, n);
  sets_detail::TileSums ts;
  for_each_tile(n, L, n, L, true, kTileElements, [&](int i0, int ni, int j0, int nj) {
    sets_detail::tile_block_sums(base_.type(), A.middleRows(i0 * L, ni * L), A.middleRows(j0 * L, nj * L), L,
                                 j0 == i0, false, false, ts);
    K.block(i0, j0, ni, nj) = scale * ts.phi;
    if (j0 != i0) K.block(j0, i0, nj, ni) = K.block(i0, j0, ni, nj).transpose();
  });
  // Diagonal tiles are computed in full; symmetrise rounding so Cholesky sees an exactly symmetric K.
  return 0.5 * (K + K.transpose());
}

Vec SetKernel::diag(const Mat& X) const {
  check_input(X, "X");
  const int L = subset_size();
  const Mat A = stack_scaled(select(X), L, d_, base_.lengthscales());
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  Vec out(X.rows());
  sets_detail::TileSums ts;
  for (Eigen::Index s = 0; s < X.rows(); ++s) {  // one set at a time: only its own m x m block
    const auto As = A.middleRows(s * L, L);
    sets_detail::tile_block_sums(base_.type(), As, As, L, true, false, false, ts);
    out(s) = scale * ts.phi(0, 0);
  }
  return out;
}

// ---------------------------------------------------------------- hyperparameter gradients
// With z̃ = z/ℓ and r² = Σ_k D_k, D_k = (z̃_ak − z̃_bk)²: ∂φ/∂log ℓ_k = g(r)·D_k, g = −φ'(r)/r;
// ∂k/∂log v = k. Isotropic: Σ_k D_k = r².
std::vector<Mat> SetKernel::gram_gradients(const Mat& X) const {
  check_input(X, "X");
  const int L = subset_size();
  const int n = static_cast<int>(X.rows());
  const bool ard = base_.lengthscales().size() > 1;
  const int nls = ard ? d_ : 1;
  const Mat A = stack_scaled(select(X), L, d_, base_.lengthscales());
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  std::vector<Mat> G(nls + 1, Mat(n, n));
  sets_detail::TileSums ts;
  for_each_tile(n, L, n, L, true, kTileElements, [&](int i0, int ni, int j0, int nj) {
    sets_detail::tile_block_sums(base_.type(), A.middleRows(i0 * L, ni * L), A.middleRows(j0 * L, nj * L), L,
                                 j0 == i0, !ard, ard, ts);
    auto put = [&](Mat& target, const Mat& S) {
      target.block(i0, j0, ni, nj) = scale * S;
      if (j0 != i0) target.block(j0, i0, nj, ni) = target.block(i0, j0, ni, nj).transpose();
    };
    put(G[nls], ts.phi);
    if (!ard) put(G[0], ts.gr2);
    for (int k = 0; ard && k < d_; ++k) put(G[k], ts.gd[k]);
  });
  for (Mat& M : G) M = 0.5 * (M + M.transpose());
  return G;
}

// Σ_ij W_ij ∂K_ij/∂θ_p from the same block sums: no n x n gradient matrices, no expanded weights.
Vec SetKernel::gram_gradient_contract(const Mat& X, const Mat& W) const {
  check_input(X, "X");
  const int n = static_cast<int>(X.rows());
  if (W.rows() != n || W.cols() != n) throw InputError("set kernel: W must be n x n");
  const int L = subset_size();
  const bool ard = base_.lengthscales().size() > 1;
  const int nls = ard ? d_ : 1;
  const Mat A = stack_scaled(select(X), L, d_, base_.lengthscales());
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  Vec out = Vec::Zero(nls + 1);
  sets_detail::TileSums ts;
  for_each_tile(n, L, n, L, true, kTileElements, [&](int i0, int ni, int j0, int nj) {
    sets_detail::tile_block_sums(base_.type(), A.middleRows(i0 * L, ni * L), A.middleRows(j0 * L, nj * L), L,
                                 j0 == i0, !ard, ard, ts);
    // Off-diagonal tiles stand for themselves and their mirror image (W symmetric).
    const double w = (j0 == i0 ? 1.0 : 2.0) * scale;
    const auto Wt = W.block(i0, j0, ni, nj);
    out(nls) += w * Wt.cwiseProduct(ts.phi).sum();
    if (!ard) out(0) += w * Wt.cwiseProduct(ts.gr2).sum();
    for (int k = 0; ard && k < d_; ++k) out(k) += w * Wt.cwiseProduct(ts.gd[k]).sum();
  });
  return out;
}

// ---------------------------------------------------------------- input gradients
// ∂φ(r_ab)/∂x_ak = −g(r_ab)·(z̃_ak − z̃_bk)/ℓ_k. In Approx mode the selection is piecewise constant in
// x, so only the kept elements of x carry a gradient.
Mat SetKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  check_input(X, "X");
  if (x.size() != static_cast<Eigen::Index>(m_) * d_) throw InputError("set kernel: x must have m*d entries");
  const int L = subset_size();
  const Vec& ls = base_.lengthscales();
  const std::vector<int> sel = selected_elements(x);
  const Mat a = stack_scaled(select(x.transpose()), L, d_, ls);  // L x d
  const Mat B = stack_scaled(select(X), L, d_, ls);              // (n·L) x d
  Mat phi, g;
  profile_eval(base_.type(), sq_dist(a, B), phi, &g);
  const Mat Gb = block_sums(g, 1, L);  // L x n
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  Mat out = Mat::Zero(x.size(), X.rows());
  for (int k = 0; k < d_; ++k) {
    const double lk = ls.size() == 1 ? ls(0) : ls(k);
    const Mat T = block_sums(g * B.col(k).asDiagonal(), 1, L);  // Σ_b g_ab z̃_bk per set
    const Mat grad = (-scale / lk) * (a.col(k).asDiagonal() * Gb - T);  // L x n
    for (int i = 0; i < L; ++i) out.row(sel[i] * d_ + k) = grad.row(i);
  }
  return out;
}

Vec SetKernel::diag_grad_x(const Vec& x) const {
  if (x.size() != static_cast<Eigen::Index>(m_) * d_) throw InputError("set kernel: x must have m*d entries");
  const int L = subset_size();
  const Vec& ls = base_.lengthscales();
  const std::vector<int> sel = selected_elements(x);
  const Mat a = stack_scaled(select(x.transpose()), L, d_, ls);
  Mat phi, g;
  Mat r2 = sq_dist(a, a);
  r2.diagonal().setZero();
  profile_eval(base_.type(), r2, phi, &g);
  const Vec rs = g.rowwise().sum();
  const Mat gA = g * a;
  const double scale = base_.variance() / (static_cast<double>(L) * L);
  Vec out = Vec::Zero(x.size());
  for (int i = 0; i < L; ++i)
    for (int k = 0; k < d_; ++k) {
      const double lk = ls.size() == 1 ? ls(0) : ls(k);
      // Both arguments move: twice the one-sided derivative (g symmetric).
      out(sel[i] * d_ + k) = -2.0 * scale / lk * (a(i, k) * rs(i) - gA(i, k));
    }
  return out;
}

KernelPtr make_set_kernel(const std::string& base, int m, int d, bool ard, SetKernelType mode, int L,
                          std::uint64_t seed) {
  if (d < 1) throw InputError("set kernel: element dimension must be >= 1");
  if (m < 1) throw InputError("set kernel: set size m must be >= 1 (got " + std::to_string(m) + ")");
  const StationaryType type = parse_stationary_type(base);
  switch (effective_set_kernel(mode, m)) {
    case SetKernelType::Full:
    case SetKernelType::Approx:
      return std::make_unique<SetKernel>(StationaryKernel(type, d, ard), m, d, mode, L, seed);
    case SetKernelType::Normalized:
    case SetKernelType::NormalizedApprox: {
      // The mean-pair kernel's prior variance k(X, X) is largest when all elements coincide (every pair
      // is at distance 0), so UCB/EI chase degenerate sets; normalised, every set has the same variance.
      const SetKernelMode inner = mode == SetKernelType::Normalized ? SetKernelMode::Full : SetKernelMode::Approx;
      return std::make_unique<NormalizedKernel>(
          std::make_unique<SetKernel>(StationaryKernel(type, d, ard), m, d, inner, L, seed), /*keep_variance=*/true);
    }
    case SetKernelType::Max: {
      // max over the m! orderings of the elements = the invariance module's max kernel over permutations
      // of m blocks of d coordinates (exact: a Hungarian assignment per pair). With ard the d lengthscales
      // of an element are tied across the m elements (MaxKernel's tied mode); without, one lengthscale.
      KernelPtr b = std::make_unique<StationaryKernel>(type, m * d, ard && d > 1);
      // Hyperparameters fitted on the max kernel itself (docs/bench/structure.md measures it against the
      // paper's fit on the base kernel).
      return make_invariant_kernel(std::move(b), "blocks:" + std::to_string(m), InvariantKernelType::Max,
                                   Vec::Constant(m * d, 0.5), nlohmann::json{{"fit", "kernel"}}, ard && d > 1);
    }
    case SetKernelType::Average: {
      // (1/m!) Σ_π k(X, πY) normalised to constant prior variance: exactly PSD (unlike the max kernel, whose
      // Gram matrix on the design set needs a PSD projection that leaves a rank-n model) and close to the
      // max kernel when the elements are far apart relative to the lengthscale; unnormalised, its prior
      // variance would peak at degenerate sets (fixed points of every ordering). One lengthscale: the
      // orbit average's one-sided form needs an isotropic base (ARD made no difference to the flat GP on
      // the set problems of docs/bench/structure.md). m! terms per entry: for large sets use normalized.
      // The signal variance scales the normalised kernel (keep_variance), so it is a fitted amplitude, not a
      // dead parameter.
      KernelPtr b = std::make_unique<StationaryKernel>(type, m * d, false);
      KernelPtr avg = make_invariant_kernel(std::move(b), "blocks:" + std::to_string(m), InvariantKernelType::Average,
                                            Vec::Constant(m * d, 0.5), nlohmann::json{{"fit", "kernel"}});
      return std::make_unique<NormalizedKernel>(std::move(avg), /*keep_variance=*/true);
    }
    case SetKernelType::Sorted:
      // The plain stationary kernel on the flat vector of the set's canonical ordering (the set space sorts
      // every point the GP sees and keeps the acquisition search in the canonical region): the flat GP
      // on one m!-th of the box, so the same data cover the space m! times more densely. Lengthscale 1/3:
      // the mode of the default lengthscale prior on the unit cube, as for the flat model.
      return std::make_unique<StationaryKernel>(type, m * d, ard, 1.0 / 3.0, 1.0);
    case SetKernelType::Sliced:
      // The plain kernel on the sorted projections onto the axes and diagonals: PSD, constant prior variance,
      // continuous and piecewise linear in the set, so a coincident pair splits at first order (no variance
      // ridge there, unlike the orbit average; docs/bench/structure.md). One lengthscale, 1/3 as above.
      return std::make_unique<SlicedSetKernel>(type, m, d, 1.0 / 3.0, 1.0);
    case SetKernelType::Aligned:
      // The plain kernel (ARD per element and coordinate, lengthscale 1/3 as above) on each set's elements
      // paired with the incumbent's, recentred by the strategy at every refit (aligned_set_kernel.hpp).
      return std::make_unique<AlignedSetKernel>(type, m, d, ard, 1.0 / 3.0, 1.0);
    case SetKernelType::Auto:
      break;
  }
  throw InputError("set_kernel auto is a choice between kernels made by the BO strategy; build one of: full, "
                   "approx, normalized, normalized-approx, max, average, sorted, sliced, aligned");
}

SetKernelType effective_set_kernel(SetKernelType asked, int m) {
  return asked == SetKernelType::Average && m > kAverageSetKernelMaxSize ? SetKernelType::Normalized : asked;
}

KernelPtr make_set_kernel(const std::string& base, int m, int d, bool ard, const std::string& mode, int L,
                          std::uint64_t seed) {
  return make_set_kernel(base, m, d, ard, parse_set_kernel_mode(mode), L, seed);
}

}  // namespace kbo
