#pragma once
// Search spaces. Every point is a flat vector in R^D; the space says what it means, how to sample it
// and which region is canonical (for spaces with symmetries, e.g. sets).
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/enum_names.hpp"
#include "kbo/core/linalg.hpp"
#include "kbo/core/random.hpp"

namespace kbo {

/// Axis-aligned box [lower, upper] in R^D.
struct Box {
  Vec lower, upper;
  Box() = default;
  Box(Vec lo, Vec hi);  // throws InputError if sizes differ, empty, non-finite or lo >= hi
  static Box unit(int dim);
  int dim() const { return static_cast<int>(lower.size()); }
  bool contains(const Vec& x, double tol = 0.0) const;
  Vec clamp(const Vec& x) const;
  Vec to_unit(const Vec& x) const;    // affine map to [0,1]^D
  Vec from_unit(const Vec& u) const;  // inverse of to_unit
};

/// Sobol low-discrepancy sequence (Boost's Joe & Kuo direction numbers, up to 3667 dimensions), starting
/// at the origin like the published tables. A non-zero `shift_seed` applies a random digital shift (XOR
/// scrambling), which keeps the net property and makes designs differ between seeds.
class Sobol {
 public:
  explicit Sobol(int dim, std::uint64_t shift_seed = 0);
  ~Sobol();
  Sobol(const Sobol&) = delete;
  Sobol& operator=(const Sobol&) = delete;
  int dim() const { return dim_; }
  Vec next();       // in [0,1)^dim
  Mat next(int n);  // n x dim
 private:
  struct Impl;
  int dim_;
  std::unique_ptr<Impl> impl_;
};

enum class SamplingMethod { Sobol, Uniform };
template <>
struct EnumNames<SamplingMethod> {
  static constexpr std::array<std::pair<SamplingMethod, const char*>, 2> table{
      {{SamplingMethod::Sobol, "sobol"}, {SamplingMethod::Uniform, "uniform"}}};
  static constexpr std::array<std::pair<SamplingMethod, const char*>, 1> aliases{{{SamplingMethod::Uniform, "random"}}};
};
/// {"type": "box", "lower": [...], "upper": [...]}, as stored with a study, and back (InputError naming
/// the bad key; lo < hi and finite).
nlohmann::json box_space_json(const Box& box);
Box box_from_json(const nlohmann::json& j);

SamplingMethod parse_sampling_method(const std::string& name);  // "sobol" | "uniform"

/// A search space: bounds for the optimisers, sampling for initial designs, and an optional projection
/// onto a canonical region (identity for a plain box).
class Space {
 public:
  virtual ~Space() = default;
  virtual int dim() const = 0;
  virtual const Box& bounds() const = 0;
  /// n points: Sobol (scrambled by seed) or i.i.d. uniform; each projected onto the canonical region.
  virtual Mat sample(int n, SamplingMethod method, Rng& rng) const;
  /// Projects x onto the canonical region in place (identity by default).
  virtual void canonicalize(Vec& /*x*/) const {}
  virtual std::string describe() const = 0;
  /// The space kind's registered name ("box", "set", …; kbo/strategy/registry.hpp), as stored with a study.
  virtual std::string kind() const { return "box"; }

  // ---- named, typed coordinates (params spaces, kbo/core/params.hpp); plain spaces have none ----
  /// x → {"name": typed value, …}; null for spaces without names.
  virtual nlohmann::json named(const Vec& /*x*/) const { return nullptr; }
  /// Inverse of named(): InputError naming a missing, extra or out-of-range parameter (and for spaces
  /// without names).
  virtual Vec from_named(const nlohmann::json& values) const;
  /// Per coordinate: true if canonicalize() rounds it to a discrete set (integers, categories). Empty ⇒
  /// every coordinate is continuous. The acquisition optimiser searches such spaces as mixed spaces.
  virtual std::vector<bool> discrete_coordinates() const { return {}; }
  /// The canonical points one discrete step from the canonical x (an integer ±1, another category).
  virtual std::vector<Vec> discrete_neighbours(const Vec& /*x*/) const { return {}; }
  /// {m, d} for a space of m interchangeable elements of d consecutive coordinates each (sets); nothing here.
  virtual std::optional<std::pair<int, int>> element_layout() const { return std::nullopt; }
  /// True when two elements of x (element_layout) coincide: within 1e-3 of the box's width in every
  /// coordinate. False for spaces without elements.
  bool has_coincident_elements(const Vec& x) const;
};

class BoxSpace : public Space {
 public:
  explicit BoxSpace(Box box) : box_(std::move(box)) {}
  int dim() const override { return box_.dim(); }
  const Box& bounds() const override { return box_; }
  std::string describe() const override;
 private:
  Box box_;
};

/// The unit-cube image [0,1]^D of a space: sampling and canonicalisation are the original space's,
/// carried through the affine map x = lower + u·(upper − lower). Strategies fit their GP and maximise
/// their acquisition here, so kernel hyperparameters and priors mean the same thing whatever the user's
/// bounds are. Invariant: canonicalize() leaves u in [0,1]^D (clamped after the round trip through the
/// original space, whose map back may land a rounding error outside).
class UnitCubeSpace : public Space {
 public:
  explicit UnitCubeSpace(std::shared_ptr<const Space> original);
  int dim() const override { return unit_.dim(); }
  const Box& bounds() const override { return unit_; }
  /// The original space's sample (same draws from rng), mapped to the unit cube.
  Mat sample(int n, SamplingMethod method, Rng& rng) const override;
  void canonicalize(Vec& u) const override;
  std::string describe() const override;
  std::string kind() const override { return original_->kind(); }
  nlohmann::json named(const Vec& u) const override { return original_->named(from_unit(u)); }
  Vec from_named(const nlohmann::json& values) const override;
  std::vector<bool> discrete_coordinates() const override { return original_->discrete_coordinates(); }
  std::vector<Vec> discrete_neighbours(const Vec& u) const override;

  Vec to_unit(const Vec& x) const { return original_->bounds().to_unit(x); }
  Vec from_unit(const Vec& u) const { return original_->bounds().from_unit(u); }
  Mat rows_to_unit(const Mat& X) const;  // to_unit of every row
  const Space& original() const { return *original_; }

 private:
  std::shared_ptr<const Space> original_;
  Box unit_;
};

}  // namespace kbo
