// Group elements, enumeration, random sampling and the exact nearest-orbit-point fast paths.
#include "kbo/invariance/groups.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

namespace kbo {

// ---------------------------------------------------------------- SignedPerm
SignedPerm SignedPerm::identity(int d) {
  SignedPerm g;
  g.perm.resize(d);
  std::iota(g.perm.begin(), g.perm.end(), 0);
  g.sign.assign(d, 1);
  return g;
}

SignedPerm SignedPerm::from_matrix(const Mat& M) {
  if (M.rows() != M.cols() || M.rows() == 0)
    throw InputError("group matrix must be square and non-empty, got " + std::to_string(M.rows()) + "x" +
                     std::to_string(M.cols()));
  const int d = static_cast<int>(M.rows());
  SignedPerm g;
  g.perm.assign(d, -1);
  g.sign.assign(d, 1);
  std::vector<int> col_used(d, 0);
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) {
      const double v = M(i, j);
      if (v == 0.0) continue;
      if (v != 1.0 && v != -1.0)
        throw InputError("group matrix entries must be 0, 1 or -1 (signed permutation), got " + std::to_string(v));
      if (g.perm[i] >= 0) throw InputError("group matrix row " + std::to_string(i) + " has more than one non-zero");
      g.perm[i] = j;
      g.sign[i] = v > 0 ? 1 : -1;
      if (col_used[j]++) throw InputError("group matrix column " + std::to_string(j) + " has more than one non-zero");
    }
    if (g.perm[i] < 0) throw InputError("group matrix row " + std::to_string(i) + " is zero (not a signed permutation)");
  }
  return g;
}

Vec SignedPerm::apply(const Vec& z) const {
  Vec out(z.size());
  for (int i = 0; i < dim(); ++i) out[i] = sign[i] * z[perm[i]];
  return out;
}

Mat SignedPerm::apply_rows(const Mat& Z) const {
  Mat out(Z.rows(), Z.cols());
  for (int i = 0; i < dim(); ++i) out.col(i) = sign[i] * Z.col(perm[i]);
  return out;
}

SignedPerm SignedPerm::compose(const SignedPerm& h) const {
  // (g(h z))_i = s^g_i (h z)_{p^g_i} = s^g_i s^h_{p^g_i} z_{p^h_{p^g_i}}
  SignedPerm out;
  const int d = dim();
  out.perm.resize(d);
  out.sign.resize(d);
  for (int i = 0; i < d; ++i) {
    out.perm[i] = h.perm[perm[i]];
    out.sign[i] = sign[i] * h.sign[perm[i]];
  }
  return out;
}

SignedPerm SignedPerm::inverse() const {
  SignedPerm out;
  const int d = dim();
  out.perm.resize(d);
  out.sign.resize(d);
  for (int i = 0; i < d; ++i) {
    out.perm[perm[i]] = i;
    out.sign[perm[i]] = sign[i];
  }
  return out;
}

Mat SignedPerm::matrix() const {
  Mat M = Mat::Zero(dim(), dim());
  for (int i = 0; i < dim(); ++i) M(i, perm[i]) = sign[i];
  return M;
}

// ---------------------------------------------------------------- Hungarian
double hungarian(const Mat& cost, std::vector<int>& assignment) {
  // Shortest augmenting paths with row/column potentials (the classical O(K³) e-maxx formulation),
  // 1-based internally with a virtual column 0.
  const int n = static_cast<int>(cost.rows());
  if (cost.cols() != n) throw InputError("hungarian: cost matrix must be square");
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1, 0.0), v(n + 1, 0.0), minv(n + 1);
  std::vector<int> p(n + 1, 0), way(n + 1, 0);
  std::vector<char> used(n + 1);
  for (int i = 1; i <= n; ++i) {
    p[0] = i;
    int j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      const int i0 = p[j0];
      double delta = inf;
      int j1 = 0;
      for (int j = 1; j <= n; ++j) {
        if (used[j]) continue;
        const double cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (int j = 0; j <= n; ++j) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      const int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  assignment.assign(n, -1);
  double total = 0.0;
  for (int j = 1; j <= n; ++j) {
    assignment[p[j] - 1] = j - 1;
    total += cost(p[j] - 1, j - 1);
  }
  return total;
}

// ---------------------------------------------------------------- Group (defaults)
Group::Group(int dim) : dim_(dim) {
  if (dim < 1) throw InputError("group dimension must be >= 1, got " + std::to_string(dim));
}

void Group::for_each_element(const std::function<void(const SignedPerm&)>&) const {
  throw InputError("group '" + name() + "' is continuous: its elements cannot be enumerated");
}

std::vector<SignedPerm> Group::elements(double max_order) const {
  if (!is_finite()) throw InputError("group '" + name() + "' is continuous: its elements cannot be enumerated");
  if (order() > max_order)
    throw InputError("group '" + name() + "' has " + std::to_string(order()) + " elements, more than the " +
                     std::to_string(max_order) + " that brute-force enumeration allows");
  std::vector<SignedPerm> out;
  out.reserve(static_cast<std::size_t>(order()));
  for_each_element([&](const SignedPerm& g) { out.push_back(g); });
  return out;
}

SignedPerm Group::random_element(Rng&) const {
  throw InputError("group '" + name() + "' is continuous: use random_apply");
}

Vec Group::random_apply(const Vec& z, Rng& rng) const { return random_element(rng).apply(z); }

void Group::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const { align_brute_force(z, w, z_out, w_out); }

std::vector<int> Group::lengthscale_classes() const {
  std::vector<int> parent(dim_);
  std::iota(parent.begin(), parent.end(), 0);
  if (is_finite() && order() <= 1e5) {
    std::function<int(int)> root = [&](int i) { return parent[i] == i ? i : parent[i] = root(parent[i]); };
    for_each_element([&](const SignedPerm& g) {
      for (int i = 0; i < dim_; ++i) parent[root(i)] = root(g.perm[i]);
    });
    std::vector<int> label(dim_, -1), out(dim_);
    int next = 0;
    for (int i = 0; i < dim_; ++i) {
      const int r = root(i);
      if (label[r] < 0) label[r] = next++;
      out[i] = label[r];
    }
    return out;
  }
  return std::vector<int>(dim_, 0);
}

void Group::align_brute_force(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  double best = std::numeric_limits<double>::infinity();
  z_out = z;
  for_each_element([&](const SignedPerm& g) {
    Vec gw = g.apply(w);
    const double d2 = (z - gw).squaredNorm();
    if (d2 < best) {
      best = d2;
      w_out = std::move(gw);
    }
  });
}

namespace {
double factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

// Visits every permutation of 0..n-1 (lexicographic order).
void for_each_permutation(int n, const std::function<void(const std::vector<int>&)>& f) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  do f(p);
  while (std::next_permutation(p.begin(), p.end()));
}

std::vector<int> random_permutation(int n, Rng& rng) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

// Indices ordering v ascending (stable, so ties are deterministic).
std::vector<int> argsort(const Vec& v) {
  std::vector<int> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return v[a] < v[b]; });
  return idx;
}
}  // namespace

// ---------------------------------------------------------------- permutations
PermutationGroup::PermutationGroup(int dim) : Group(dim) {}
double PermutationGroup::order() const { return factorial(dim_); }

void PermutationGroup::for_each_element(const std::function<void(const SignedPerm&)>& f) const {
  SignedPerm g = SignedPerm::identity(dim_);
  for_each_permutation(dim_, [&](const std::vector<int>& p) {
    g.perm = p;
    f(g);
  });
}

SignedPerm PermutationGroup::random_element(Rng& rng) const {
  SignedPerm g = SignedPerm::identity(dim_);
  g.perm = random_permutation(dim_, rng);
  return g;
}

void PermutationGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  // Rearrangement inequality: Σ z_i w_π(i) is largest when both are sorted the same way, and
  // ||z − πw||² = ||z||² + ||w||² − 2 Σ z_i w_π(i).
  const auto iz = argsort(z), iw = argsort(w);
  z_out = z;
  w_out.resize(z.size());
  for (int r = 0; r < dim_; ++r) w_out[iz[r]] = w[iw[r]];
}

// ---------------------------------------------------------------- sign flips
SignFlipGroup::SignFlipGroup(int dim) : Group(dim) {
  if (dim > 60) throw InputError("signflip group: dimension must be <= 60, got " + std::to_string(dim));
}
double SignFlipGroup::order() const { return std::ldexp(1.0, dim_); }

void SignFlipGroup::for_each_element(const std::function<void(const SignedPerm&)>& f) const {
  SignedPerm g = SignedPerm::identity(dim_);
  const std::uint64_t n = std::uint64_t{1} << dim_;
  for (std::uint64_t mask = 0; mask < n; ++mask) {
    for (int i = 0; i < dim_; ++i) g.sign[i] = (mask >> i) & 1 ? -1 : 1;
    f(g);
  }
}

SignedPerm SignFlipGroup::random_element(Rng& rng) const {
  SignedPerm g = SignedPerm::identity(dim_);
  std::bernoulli_distribution coin(0.5);
  for (int i = 0; i < dim_; ++i) g.sign[i] = coin(rng) ? -1 : 1;
  return g;
}

std::vector<int> SignFlipGroup::lengthscale_classes() const {
  std::vector<int> out(dim_);
  std::iota(out.begin(), out.end(), 0);
  return out;
}

void SignFlipGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  z_out = z;
  w_out.resize(z.size());
  for (int i = 0; i < dim_; ++i) w_out[i] = (z[i] < 0 ? -1.0 : 1.0) * std::abs(w[i]);
}

// ---------------------------------------------------------------- signed permutations
HyperoctahedralGroup::HyperoctahedralGroup(int dim) : Group(dim) {
  if (dim > 60) throw InputError("hyperoctahedral group: dimension must be <= 60, got " + std::to_string(dim));
}
double HyperoctahedralGroup::order() const { return std::ldexp(1.0, dim_) * factorial(dim_); }

void HyperoctahedralGroup::for_each_element(const std::function<void(const SignedPerm&)>& f) const {
  SignedPerm g = SignedPerm::identity(dim_);
  const std::uint64_t n = std::uint64_t{1} << dim_;
  for_each_permutation(dim_, [&](const std::vector<int>& p) {
    g.perm = p;
    for (std::uint64_t mask = 0; mask < n; ++mask) {
      for (int i = 0; i < dim_; ++i) g.sign[i] = (mask >> i) & 1 ? -1 : 1;
      f(g);
    }
  });
}

SignedPerm HyperoctahedralGroup::random_element(Rng& rng) const {
  SignedPerm g = SignedPerm::identity(dim_);
  g.perm = random_permutation(dim_, rng);
  std::bernoulli_distribution coin(0.5);
  for (int i = 0; i < dim_; ++i) g.sign[i] = coin(rng) ? -1 : 1;
  return g;
}

void HyperoctahedralGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  // Signs can always be matched, so ||z − gw||² = ||z||² + ||w||² − 2 Σ |z_i||w_π(i)|, minimised by
  // pairing |z| and |w| in sorted order; then give each paired |w| the sign of its z_i.
  const Vec az = z.cwiseAbs(), aw = w.cwiseAbs();
  const auto iz = argsort(az), iw = argsort(aw);
  z_out = z;
  w_out.resize(z.size());
  for (int r = 0; r < dim_; ++r) w_out[iz[r]] = (z[iz[r]] < 0 ? -1.0 : 1.0) * aw[iw[r]];
}

// ---------------------------------------------------------------- block permutations
BlockPermutationGroup::BlockPermutationGroup(int dim, int blocks) : Group(dim), blocks_(blocks) {
  if (blocks < 1 || dim % blocks != 0)
    throw InputError("blocks:K needs K >= 1 dividing the dimension " + std::to_string(dim) + ", got K = " +
                     std::to_string(blocks));
}
double BlockPermutationGroup::order() const { return factorial(blocks_); }

SignedPerm BlockPermutationGroup::from_block_perm(const std::vector<int>& bp) const {
  // Block a of g w is block bp[a] of w.
  SignedPerm g = SignedPerm::identity(dim_);
  const int p = block_size();
  for (int a = 0; a < blocks_; ++a)
    for (int t = 0; t < p; ++t) g.perm[a * p + t] = bp[a] * p + t;
  return g;
}

void BlockPermutationGroup::for_each_element(const std::function<void(const SignedPerm&)>& f) const {
  for_each_permutation(blocks_, [&](const std::vector<int>& bp) { f(from_block_perm(bp)); });
}

SignedPerm BlockPermutationGroup::random_element(Rng& rng) const {
  return from_block_perm(random_permutation(blocks_, rng));
}

std::vector<int> BlockPermutationGroup::lengthscale_classes() const {
  std::vector<int> out(dim_);
  for (int i = 0; i < dim_; ++i) out[i] = i % block_size();
  return out;
}

void BlockPermutationGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  // Linear assignment: cost(a, b) = ||z_a − w_b||² between block a of z and block b of w.
  const int p = block_size();
  Mat cost(blocks_, blocks_);
  for (int a = 0; a < blocks_; ++a)
    for (int b = 0; b < blocks_; ++b) cost(a, b) = (z.segment(a * p, p) - w.segment(b * p, p)).squaredNorm();
  std::vector<int> assign;
  hungarian(cost, assign);
  z_out = z;
  w_out.resize(z.size());
  for (int a = 0; a < blocks_; ++a) w_out.segment(a * p, p) = w.segment(assign[a] * p, p);
}

// ---------------------------------------------------------------- cyclic shifts
CyclicGroup::CyclicGroup(int dim) : Group(dim) {}

void CyclicGroup::for_each_element(const std::function<void(const SignedPerm&)>& f) const {
  SignedPerm g = SignedPerm::identity(dim_);
  for (int s = 0; s < dim_; ++s) {
    for (int i = 0; i < dim_; ++i) g.perm[i] = (i + s) % dim_;
    f(g);
  }
}

SignedPerm CyclicGroup::random_element(Rng& rng) const {
  SignedPerm g = SignedPerm::identity(dim_);
  const int s = std::uniform_int_distribution<int>(0, dim_ - 1)(rng);
  for (int i = 0; i < dim_; ++i) g.perm[i] = (i + s) % dim_;
  return g;
}

void CyclicGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  // |G| = D, so the enumeration is already the cheap path (O(D²)).
  int best_s = 0;
  double best = std::numeric_limits<double>::infinity();
  for (int s = 0; s < dim_; ++s) {
    double d2 = 0.0;
    for (int i = 0; i < dim_; ++i) {
      const double e = z[i] - w[(i + s) % dim_];
      d2 += e * e;
    }
    if (d2 < best) {
      best = d2;
      best_s = s;
    }
  }
  z_out = z;
  w_out.resize(z.size());
  for (int i = 0; i < dim_; ++i) w_out[i] = w[(i + best_s) % dim_];
}

// ---------------------------------------------------------------- user groups
CustomGroup::CustomGroup(int dim, const std::vector<SignedPerm>& generators, double max_order) : Group(dim) {
  // Closure under composition (breadth first from the identity). Generators of a finite group
  // generate it as a monoid too (g⁻¹ = g^(ord g − 1)), so inverses need no special treatment.
  for (const auto& g : generators)
    if (g.dim() != dim)
      throw InputError("custom group: matrix of size " + std::to_string(g.dim()) + " for dimension " +
                       std::to_string(dim));
  std::set<SignedPerm> seen{SignedPerm::identity(dim)};
  std::vector<SignedPerm> frontier{SignedPerm::identity(dim)};
  while (!frontier.empty()) {
    std::vector<SignedPerm> next;
    for (const auto& h : frontier)
      for (const auto& g : generators) {
        SignedPerm gh = g.compose(h);
        if (seen.insert(gh).second) {
          if (static_cast<double>(seen.size()) > max_order)
            throw InputError("custom group: the matrices generate more than " + std::to_string(max_order) +
                             " elements");
          next.push_back(std::move(gh));
        }
      }
    frontier = std::move(next);
  }
  elements_.assign(seen.begin(), seen.end());
}

std::shared_ptr<CustomGroup> CustomGroup::from_json(int dim, const nlohmann::json& matrices) {
  if (!matrices.is_array() || matrices.empty())
    throw InputError("custom group: \"matrices\" must be a non-empty JSON array of " + std::to_string(dim) + "x" +
                     std::to_string(dim) + " signed-permutation matrices");
  std::vector<SignedPerm> gens;
  for (std::size_t k = 0; k < matrices.size(); ++k) {
    const auto& m = matrices[k];
    const std::string where = "custom group matrix " + std::to_string(k);
    if (!m.is_array() || static_cast<int>(m.size()) != dim)
      throw InputError(where + ": must be an array of " + std::to_string(dim) + " rows");
    Mat M(dim, dim);
    for (int i = 0; i < dim; ++i) {
      if (!m[i].is_array() || static_cast<int>(m[i].size()) != dim)
        throw InputError(where + ": row " + std::to_string(i) + " must have " + std::to_string(dim) + " numbers");
      for (int j = 0; j < dim; ++j) {
        if (!m[i][j].is_number()) throw InputError(where + ": entries must be numbers 0, 1 or -1");
        M(i, j) = m[i][j].get<double>();
      }
    }
    try {
      gens.push_back(SignedPerm::from_matrix(M));
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
  }
  return std::make_shared<CustomGroup>(dim, gens);
}

void CustomGroup::for_each_element(const std::function<void(const SignedPerm&)>& f) const {
  for (const auto& g : elements_) f(g);
}

SignedPerm CustomGroup::random_element(Rng& rng) const {
  return elements_[std::uniform_int_distribution<std::size_t>(0, elements_.size() - 1)(rng)];
}

// ---------------------------------------------------------------- rotations
RotationGroup::RotationGroup() : Group(2) {}
double RotationGroup::order() const { return std::numeric_limits<double>::infinity(); }

Mat RotationGroup::rotation(double angle) {
  Mat R(2, 2);
  R << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
  return R;
}

Vec RotationGroup::random_apply(const Vec& z, Rng& rng) const {
  return rotation(std::uniform_real_distribution<double>(0.0, 2.0 * M_PI)(rng)) * z;
}

void RotationGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  // The orbit of w is the circle of radius ||w||; its nearest point to z lies on the ray through z.
  z_out = z;
  const double nz = z.norm(), nw = w.norm();
  if (nz == 0.0) {
    w_out = w;  // every orbit point is equally far
  } else {
    w_out = (nw / nz) * z;
  }
}

// ---------------------------------------------------------------- scalings
ScalingGroup::ScalingGroup(int dim, double radius, double max_factor)
    : Group(dim), radius_(radius), max_factor_(max_factor) {
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw InputError("scaling group: radius must be > 0, got " + std::to_string(radius));
  if (!(max_factor >= 1.0) || !std::isfinite(max_factor))
    throw InputError("scaling group: max_factor must be >= 1, got " + std::to_string(max_factor));
}
double ScalingGroup::order() const { return std::numeric_limits<double>::infinity(); }

Vec ScalingGroup::random_apply(const Vec& z, Rng& rng) const {
  // Any positive factor: the kernels only see the direction (log-uniform over [1e-3, 1e3] here).
  const double t = std::uniform_real_distribution<double>(-3.0, 3.0)(rng);
  return std::pow(10.0, t) * z;
}

Vec ScalingGroup::representative(const Vec& z) const {
  const double n = z.norm();
  if (n == 0.0) {
    Vec e = Vec::Zero(z.size());
    e[0] = radius_;
    return e;
  }
  return (radius_ / n) * z;
}

Mat ScalingGroup::representative_jacobian(const Vec& z) const {
  const double n = z.norm();
  const int d = static_cast<int>(z.size());
  if (n == 0.0) return Mat::Zero(d, d);
  const Vec u = z / n;
  return (radius_ / n) * (Mat::Identity(d, d) - u * u.transpose());
}

void ScalingGroup::align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const {
  // For the segments {a ρ ẑ}, {a' ρ ŵ}, a, a' ∈ [m, A], m = 1/A: ρ⁻²||a ẑ − a' ŵ||² = a² + a'² − 2 a a' cos α
  // is convex in (a, a') and its gradient at the corner (m, m) is 2m(1 − cos α)(1, 1) ≥ 0, i.e. it
  // increases into the box: the corner is the minimiser whatever the angle α.
  z_out = representative(z) / max_factor_;
  w_out = representative(w) / max_factor_;
}

Mat ScalingGroup::align_jacobian(const Vec& z) const { return representative_jacobian(z) / max_factor_; }

void ScalingGroup::factor_quadrature(int nodes, Vec& factors, Vec& weights) const {
  if (nodes < 1) throw InputError("scaling group: quadrature needs >= 1 node");
  // Gauss–Legendre nodes on [−1, 1] by Newton on the Legendre recurrence.
  Vec x(nodes), w(nodes);
  for (int i = 0; i < nodes; ++i) {
    double t = std::cos(M_PI * (i + 0.75) / (nodes + 0.5));
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = t;
      for (int k = 2; k <= nodes; ++k) {
        const double p2 = ((2.0 * k - 1.0) * t * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      const double dp = nodes * (t * p1 - p0) / (t * t - 1.0);
      const double dt = p1 / dp;
      t -= dt;
      if (std::abs(dt) < 1e-15) {
        x[i] = t;
        w[i] = 2.0 / ((1.0 - t * t) * dp * dp);
        break;
      }
      x[i] = t;
      w[i] = 2.0 / ((1.0 - t * t) * dp * dp);
    }
  }
  const double L = std::log(max_factor_);
  factors = (L * x).array().exp();
  weights = w / w.sum();
}

// ---------------------------------------------------------------- registry
Registry<GroupFamily>& group_families() {
  static Registry<GroupFamily> registry("invariance group");
  return registry;
}

namespace {

int positive_int(const std::string& family, const std::string& text) {
  int k = 0;
  try {
    std::size_t pos = 0;
    k = std::stoi(text, &pos);
    if (pos != text.size()) k = 0;
  } catch (...) {
    k = 0;
  }
  if (k < 1) throw InputError("invariance '" + family + ":K': K must be a positive integer, got '" + text + "'");
  return k;
}

}  // namespace

void register_builtin_groups() {
  auto& r = group_families();
  r.add("permutation", {[](int d, const std::string&, const nlohmann::json&) -> GroupPtr {
                          return std::make_shared<PermutationGroup>(d);
                        },
                        false, true, "all permutations of the coordinates"});
  r.add("signflip", {[](int d, const std::string&, const nlohmann::json&) -> GroupPtr {
                       return std::make_shared<SignFlipGroup>(d);
                     },
                     false, false, "sign flips of each coordinate about the centre"});
  r.add("hyperoctahedral", {[](int d, const std::string&, const nlohmann::json&) -> GroupPtr {
                              return std::make_shared<HyperoctahedralGroup>(d);
                            },
                            false, true, "signed permutations"});
  r.add("cyclic", {[](int d, const std::string&, const nlohmann::json&) -> GroupPtr {
                     return std::make_shared<CyclicGroup>(d);
                   },
                   false, true, "cyclic shifts of the coordinates"});
  r.add("blocks", {[](int d, const std::string& arg, const nlohmann::json&) -> GroupPtr {
                     return std::make_shared<BlockPermutationGroup>(d, positive_int("blocks", arg));
                   },
                   true, true, "blocks:K, permutations of K equal blocks of coordinates"});
  r.add("rotation", {[](int d, const std::string&, const nlohmann::json&) -> GroupPtr {
                       if (d != 2) throw InputError("invariance 'rotation' needs a 2-D space, got dimension " + std::to_string(d));
                       return std::make_shared<RotationGroup>();
                     },
                     false, true, "rotations of the plane about the centre (2-D)"});
  r.add("scaling", {[](int d, const std::string&, const nlohmann::json& o) -> GroupPtr {
                      return std::make_shared<ScalingGroup>(d, o.value("radius", 0.5), o.value("max_factor", 2.0));
                    },
                    false, false, "radial scalings about the centre"});
  r.add("custom", {[](int d, const std::string&, const nlohmann::json& o) -> GroupPtr {
                     if (!o.contains("matrices"))
                       throw InputError("invariance 'custom' needs options \"matrices\": a JSON array of " +
                                        std::to_string(d) + "x" + std::to_string(d) + " signed-permutation matrices");
                     return CustomGroup::from_json(d, o["matrices"]);
                   },
                   false, true, "a finite group from options.invariance.matrices"});
}

std::string group_names() {
  std::string s = "none";
  for (const auto& name : group_families().names())
    s += "|" + name + (group_families().get(name).takes_argument ? ":K" : "");
  return s;
}

GroupPtr make_group(const std::string& name, int dim, const nlohmann::json& options_in) {
  const nlohmann::json options = options_in.is_null() ? nlohmann::json::object() : options_in;
  if (!options.is_object()) throw InputError("invariance options must be a JSON object");
  if (dim < 1) throw InputError("invariance: dimension must be >= 1, got " + std::to_string(dim));
  if (name == "none") return nullptr;
  const auto colon = name.find(':');
  const std::string family = name.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : name.substr(colon + 1);
  const GroupFamily* f = group_families().find(family);
  if (!f || f->takes_argument != (colon != std::string::npos))
    throw InputError("unknown invariance '" + name + "'; allowed: " + group_names());
  return f->make(dim, arg, options);
}

}  // namespace kbo
