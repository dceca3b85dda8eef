#pragma once
// Groups acting on flat vectors around a centre c: x ↦ c + g(x − c). The BO works on the unit cube,
// so c = 0.5 there (c = 0 for boxes symmetric about the origin). Everything in this header works on
// CENTRED vectors z = x − c; the kernels in kernels/invariant.hpp do the centring.
//
// Finite groups are groups of signed permutations (every finite group kbo offers — permutations, sign
// flips, hyperoctahedral, block permutations, cyclic shifts, user lists of signed-permutation matrices —
// is one), enumerable as the brute-force reference. Continuous groups (2-D rotations, scalings) are not
// enumerable; they provide exact nearest-pair alignment and quadrature rules instead.
//
// The "fast paths": for an isotropic stationary kernel k(x, y) = v φ(||x − y||/ℓ) with φ decreasing,
// max_g k(x, g y) = v φ(min_g ||x − g y|| / ℓ), a nearest-orbit-point problem. align() solves it exactly:
//   signflip        w'_i = sign(z_i)|w_i|                               O(D)
//   hyperoctahedral pair sorted |z| with sorted |w| (rearrangement)      O(D log D)
//   permutation     pair sorted z with sorted w                         O(D log D)
//   blocks:K        Hungarian assignment on the K×K block distances      O(K³ + K² p)
//   cyclic          best of the D shifts                                O(D²)
//   rotation (2-D)  rotate w onto the direction of z: w' = ||w|| ẑ      O(1)
//   scaling         see ScalingGroup                                    O(D)
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"
#include "kbo/core/registry.hpp"

namespace kbo {

/// A signed permutation g: (g z)_i = sign_i · z_{perm_i}; its matrix has M(i, perm_i) = sign_i.
struct SignedPerm {
  std::vector<int> perm;
  std::vector<int> sign;  // each ±1

  static SignedPerm identity(int d);
  /// InputError unless M is square with exactly one entry ±1 per row and column and zeros elsewhere.
  static SignedPerm from_matrix(const Mat& M);
  int dim() const { return static_cast<int>(perm.size()); }
  Vec apply(const Vec& z) const;
  /// Applies g to every row of Z (rows are centred points).
  Mat apply_rows(const Mat& Z) const;
  /// (g ∘ h)(z) = g(h(z)).
  SignedPerm compose(const SignedPerm& h) const;
  SignedPerm inverse() const;
  Mat matrix() const;
  bool operator==(const SignedPerm& o) const { return perm == o.perm && sign == o.sign; }
  bool operator<(const SignedPerm& o) const { return perm != o.perm ? perm < o.perm : sign < o.sign; }
};

/// Minimum-cost perfect assignment on a square cost matrix (Hungarian algorithm with potentials,
/// O(K³)). Returns the cost; assignment[i] = column assigned to row i.
double hungarian(const Mat& cost, std::vector<int>& assignment);

/// The kind of maps a group's elements are.
enum class GroupAction {
  SignedPermutations,  // finite: the elements can be enumerated (for_each_element)
  PlanarRotations,     // SO(2): a uniform angle (RotationGroup::rotation)
  Scalings             // z ↦ a z on the representative ρẑ: a factor in [1/A, A] (ScalingGroup)
};

class Group {
 public:
  virtual ~Group() = default;
  /// The name accepted by make_group ("hyperoctahedral", "blocks:4", ...).
  virtual std::string name() const = 0;
  int dim() const { return dim_; }
  virtual bool is_finite() const = 0;
  /// |G| (as a double: the hyperoctahedral group of d = 20 has 2.5e24 elements); +inf if continuous.
  virtual double order() const = 0;
  /// True if every element is an orthogonal map (all groups except scaling).
  virtual bool is_isometric() const { return true; }
  /// What the elements are; it fixes the rule an orbit average is computed with (AveragedKernel).
  virtual GroupAction action() const { return GroupAction::SignedPermutations; }
  /// True if the orbit distance has a canonical form: min_g ||z − g w|| = ||Φz − Φw|| for a map Φ onto
  /// one orbit representative (align() pairs the representatives), so max_g k(z, g w) = k(Φz, Φw) is
  /// PSD for an isotropic stationary k (MaxKernel::known_psd). Reflection groups: Φ = sort (permutation),
  /// |·| (signflip), sort∘|·| (hyperoctahedral); continuous: the radius (rotation), the direction (scaling).
  virtual bool has_canonical_orbit_map() const { return false; }

  // ---- finite groups ----
  /// Calls f on every element exactly once (identity included). InputError for continuous groups.
  virtual void for_each_element(const std::function<void(const SignedPerm&)>& f) const;
  /// All elements; InputError if |G| > max_order (enumeration is the brute-force reference only).
  std::vector<SignedPerm> elements(double max_order = 2e6) const;
  /// A uniformly random element (finite groups).
  virtual SignedPerm random_element(Rng& rng) const;

  // ---- every group ----
  /// g z for a random element (finite: uniform; rotation: uniform angle; scaling: log-uniform factor).
  virtual Vec random_apply(const Vec& z, Rng& rng) const;
  /// Exact nearest pair of the two orbits (of representatives, see ScalingGroup): on return z_out is in
  /// the orbit of z, w_out in the orbit of w, and ||z_out − w_out|| = min over the orbits. Isometric
  /// groups keep z_out = z. Default: brute force (finite groups).
  virtual void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const;
  /// The same by enumerating every element (finite groups): the reference the fast paths are tested against.
  void align_brute_force(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const;
  /// ∂z_out/∂z with the optimal group element held fixed (identity for isometric groups).
  virtual Mat align_jacobian(const Vec& z) const { return Mat::Identity(z.size(), z.size()); }
  /// Tied ARD: class c(i) of every coordinate such that each element maps coordinate i only onto
  /// coordinates of the same class, so a diagonal scaling constant on classes commutes with the group and
  /// an ARD kernel with one lengthscale per class stays invariant (MaxKernel's tied mode). Default: the
  /// orbits of the coordinates under the enumerated elements (finite groups up to 1e5 elements), else one
  /// class (a scalar scaling commutes with every linear action).
  virtual std::vector<int> lengthscale_classes() const;

 protected:
  explicit Group(int dim);
  int dim_;
};

using GroupPtr = std::shared_ptr<const Group>;

/// All coordinate permutations (|G| = D!).
class PermutationGroup : public Group {
 public:
  explicit PermutationGroup(int dim);
  std::string name() const override { return "permutation"; }
  bool is_finite() const override { return true; }
  bool has_canonical_orbit_map() const override { return true; }
  double order() const override;
  void for_each_element(const std::function<void(const SignedPerm&)>& f) const override;
  SignedPerm random_element(Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
};

/// All coordinate sign flips diag(±1) (|G| = 2^D).
class SignFlipGroup : public Group {
 public:
  explicit SignFlipGroup(int dim);
  std::string name() const override { return "signflip"; }
  bool is_finite() const override { return true; }
  bool has_canonical_orbit_map() const override { return true; }
  double order() const override;
  void for_each_element(const std::function<void(const SignedPerm&)>& f) const override;
  SignedPerm random_element(Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
  std::vector<int> lengthscale_classes() const override;  // every coordinate its own class
};

/// Signed permutations B_D (|G| = 2^D D!).
class HyperoctahedralGroup : public Group {
 public:
  explicit HyperoctahedralGroup(int dim);
  std::string name() const override { return "hyperoctahedral"; }
  bool is_finite() const override { return true; }
  bool has_canonical_orbit_map() const override { return true; }
  double order() const override;
  void for_each_element(const std::function<void(const SignedPerm&)>& f) const override;
  SignedPerm random_element(Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
};

/// Permutations of K equal consecutive blocks of size p = D/K (K points in R^p), |G| = K!.
class BlockPermutationGroup : public Group {
 public:
  BlockPermutationGroup(int dim, int blocks);
  std::string name() const override { return "blocks:" + std::to_string(blocks_); }
  bool is_finite() const override { return true; }
  double order() const override;
  void for_each_element(const std::function<void(const SignedPerm&)>& f) const override;
  SignedPerm random_element(Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
  int blocks() const { return blocks_; }
  int block_size() const { return dim_ / blocks_; }
  std::vector<int> lengthscale_classes() const override;  // coordinate j of every block: class j
 private:
  SignedPerm from_block_perm(const std::vector<int>& bp) const;
  int blocks_;
};

/// Cyclic shifts of the coordinates, (g_s z)_i = z_{(i+s) mod D} (|G| = D).
class CyclicGroup : public Group {
 public:
  explicit CyclicGroup(int dim);
  std::string name() const override { return "cyclic"; }
  bool is_finite() const override { return true; }
  double order() const override { return dim_; }
  void for_each_element(const std::function<void(const SignedPerm&)>& f) const override;
  SignedPerm random_element(Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
};

/// The group generated by user-supplied signed-permutation matrices (a full list or generators: the
/// closure is computed, up to `max_order` elements).
class CustomGroup : public Group {
 public:
  CustomGroup(int dim, const std::vector<SignedPerm>& generators, double max_order = 2e5);
  /// From a JSON array of D×D matrices (arrays of rows); InputError naming the bad matrix otherwise.
  static std::shared_ptr<CustomGroup> from_json(int dim, const nlohmann::json& matrices);
  std::string name() const override { return "custom"; }
  bool is_finite() const override { return true; }
  double order() const override { return static_cast<double>(elements_.size()); }
  void for_each_element(const std::function<void(const SignedPerm&)>& f) const override;
  SignedPerm random_element(Rng& rng) const override;
 private:
  std::vector<SignedPerm> elements_;
};

/// Planar rotations SO(2) (D = 2, continuous, isometric).
class RotationGroup : public Group {
 public:
  RotationGroup();
  std::string name() const override { return "rotation"; }
  bool is_finite() const override { return false; }
  GroupAction action() const override { return GroupAction::PlanarRotations; }
  bool has_canonical_orbit_map() const override { return true; }
  double order() const override;
  Vec random_apply(const Vec& z, Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
  static Mat rotation(double angle);
};

/// Scalings z ↦ a z, a > 0 (continuous, not isometric). Over the whole group the max kernel is
/// degenerate (every ray approaches the origin, so max_{a,a'} k(a z, a' w) = k(0) for all z, w), so kbo
/// works THROUGH THE DIRECTION: the orbit of z ≠ 0 is represented by ρ ẑ (ẑ = z/||z||, ρ = `radius`) and
/// the group elements are the factors a ∈ [1/A, A] (A = `max_factor`) acting on that representative.
/// Everything is then a function of the directions only, hence exactly scale invariant. The nearest
/// pair of the two orbit segments {a ρ ẑ}, {a' ρ ŵ} is (ρ/A ẑ, ρ/A ŵ) (both at the smallest factor, for
/// any angle between them), so the max kernel is k(c + ρ/A ẑ, c + ρ/A ŵ) — a PSD kernel of the
/// directions. z = 0 (a measure-zero set) is given the direction e_1.
class ScalingGroup : public Group {
 public:
  ScalingGroup(int dim, double radius, double max_factor);
  std::string name() const override { return "scaling"; }
  bool is_finite() const override { return false; }
  bool is_isometric() const override { return false; }
  GroupAction action() const override { return GroupAction::Scalings; }
  bool has_canonical_orbit_map() const override { return true; }
  double order() const override;
  Vec random_apply(const Vec& z, Rng& rng) const override;
  void align(const Vec& z, const Vec& w, Vec& z_out, Vec& w_out) const override;
  Mat align_jacobian(const Vec& z) const override;
  double radius() const { return radius_; }
  double max_factor() const { return max_factor_; }
  /// ρ ẑ.
  Vec representative(const Vec& z) const;
  /// ∂(ρ ẑ)/∂z = ρ (I − ẑẑᵀ)/||z||.
  Mat representative_jacobian(const Vec& z) const;
  /// Gauss–Legendre rule in t = log a over [−log A, log A]: factors a_j and weights (sum 1).
  void factor_quadrature(int nodes, Vec& factors, Vec& weights) const;
 private:
  double radius_, max_factor_;
};

/// "none" → nullptr; "permutation", "signflip", "hyperoctahedral", "blocks:K", "cyclic", "rotation"
/// (D = 2), "scaling", "custom" (options["matrices"]: JSON array of D×D signed-permutation matrices).
/// Scaling options: "radius" (default 0.5), "max_factor" (default 2). InputError listing the allowed
/// names, or naming the dimension constraint, otherwise.
GroupPtr make_group(const std::string& name, int dim, const nlohmann::json& options = nlohmann::json::object());

/// A family of groups by name ("blocks" of "blocks:4"): adding a group is its class plus one registration.
struct GroupFamily {
  std::function<GroupPtr(int dim, const std::string& argument, const nlohmann::json& options)> make;
  bool takes_argument = false;  // "family:K"
  bool mixes_coordinates = true;  // moves mass between coordinates (then every coordinate needs the same width)
  std::string help;
};
Registry<GroupFamily>& group_families();
/// permutation, signflip, hyperoctahedral, cyclic, blocks, rotation, scaling, custom.
void register_builtin_groups();
/// The names make_group accepts (for messages and --help).
std::string group_names();

}  // namespace kbo
