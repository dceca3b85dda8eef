#pragma once
// Search space of sets: m elements x_1..x_m of a box in R^d, stored as ONE flat point of R^(m·d)
// (row-major m x d block: element i occupies coordinates [i·d, (i+1)·d)).
//
// A set has m! flat representations (one per ordering of its elements). The canonical region picks
// one of them by a fixed key, so that acquisition optimisation searches m! times less space:
//   - FirstCoordinate (default): elements sorted lexicographically (first coordinate, ties by the next
//     coordinates). An increasing per-coordinate affine map (e.g. the GP's unit-cube image) preserves
//     this order, so the region of the unit-cube image is the image of the region.
//   - Norm: elements sorted by ascending ℓ2 norm (ties lexicographic) — the ordering the paper uses for
//     its Vector and Split baselines. NOT preserved by per-coordinate affine maps: canonicalise in the
//     original coordinates.
// canonicalize() is the projection onto the region (a sort): idempotent, and every output is in the
// region. Sampling = sample in the box, then canonicalise (equivalent to the paper's rejection sampling
// of the symmetric region, which would accept with probability 1/m!).
#include <string>

#include "kbo/core/space.hpp"

namespace kbo {

enum class SetOrder { FirstCoordinate, Norm };
template <>
struct EnumNames<SetOrder> {
  static constexpr std::array<std::pair<SetOrder, const char*>, 2> table{
      {{SetOrder::FirstCoordinate, "first"}, {SetOrder::Norm, "norm"}}};
  static constexpr std::array<std::pair<SetOrder, const char*>, 1> aliases{{{SetOrder::FirstCoordinate, "lex"}}};
};
/// "first" (alias "lex") | "norm"; InputError listing them otherwise.
SetOrder parse_set_order(const std::string& name);
std::string to_string(SetOrder order);

class SetSpace : public Space {
 public:
  /// m ≥ 1 elements, each in `element_box` (dimension d ≥ 1). InputError otherwise.
  SetSpace(int set_size, Box element_box, SetOrder order = SetOrder::FirstCoordinate);

  int dim() const override { return m_ * d_; }
  const Box& bounds() const override { return box_; }
  void canonicalize(Vec& x) const override;
  std::string describe() const override;
  std::string kind() const override { return "set"; }

  int set_size() const { return m_; }
  int element_dim() const { return d_; }
  const Box& element_box() const { return element_box_; }
  SetOrder order() const { return order_; }
  /// True when x is in the canonical region (consecutive elements non-decreasing in the key).
  bool in_canonical_region(const Vec& x) const;
  std::optional<std::pair<int, int>> element_layout() const override { return std::pair(m_, d_); }

  /// Flat point (size m·d) ⇄ elements as rows of an m x d matrix.
  static Mat to_elements(const Vec& x, int m, int d);
  static Vec from_elements(const Mat& elements);
  /// Sorts the rows of E (m x d) by `order` (stable); used by canonicalize and the baselines.
  static void sort_elements(Mat& elements, SetOrder order);

 private:
  int m_, d_;
  Box element_box_, box_;
  SetOrder order_;
};

}  // namespace kbo
