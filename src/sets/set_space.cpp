#include "kbo/sets/set_space.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <vector>

namespace kbo {

SetOrder parse_set_order(const std::string& name) { return parse_enum<SetOrder>("set order", name); }

std::string to_string(SetOrder order) { return enum_name(order); }

namespace {

Box tile_box(const Box& element, int m) {
  const int d = element.dim();
  Vec lo(m * d), hi(m * d);
  for (int i = 0; i < m; ++i) {
    lo.segment(i * d, d) = element.lower;
    hi.segment(i * d, d) = element.upper;
  }
  return Box(lo, hi);
}

// Strict-weak "a before b" on two element rows for the given order.
bool lex_less(const Mat& E, int a, int b) {
  for (int k = 0; k < E.cols(); ++k) {
    if (E(a, k) < E(b, k)) return true;
    if (E(b, k) < E(a, k)) return false;
  }
  return false;
}

}  // namespace

SetSpace::SetSpace(int set_size, Box element_box, SetOrder order)
    : m_(set_size), d_(element_box.dim()), element_box_(std::move(element_box)), order_(order) {
  if (m_ < 1) throw InputError("set size must be >= 1 (got " + std::to_string(m_) + ")");
  if (d_ < 1) throw InputError("set element dimension must be >= 1");
  box_ = tile_box(element_box_, m_);
}

Mat SetSpace::to_elements(const Vec& x, int m, int d) {
  if (x.size() != static_cast<Eigen::Index>(m) * d)
    throw InputError("set point has " + std::to_string(x.size()) + " coordinates, expected m*d = " +
                     std::to_string(m * d));
  // Row-major m x d block ⇒ map as column-major d x m and transpose.
  return Eigen::Map<const Mat>(x.data(), d, m).transpose();
}

Vec SetSpace::from_elements(const Mat& elements) {
  Mat t = elements.transpose();  // d x m column-major = row-major m x d
  return Eigen::Map<const Vec>(t.data(), t.size());
}

void SetSpace::sort_elements(Mat& E, SetOrder order) {
  const int m = static_cast<int>(E.rows());
  std::vector<int> idx(m);
  std::iota(idx.begin(), idx.end(), 0);
  if (order == SetOrder::FirstCoordinate) {
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return lex_less(E, a, b); });
  } else {
    const Vec norms = E.rowwise().norm();
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
      if (norms(a) != norms(b)) return norms(a) < norms(b);
      return lex_less(E, a, b);
    });
  }
  Mat sorted(E.rows(), E.cols());
  for (int i = 0; i < m; ++i) sorted.row(i) = E.row(idx[i]);
  E = std::move(sorted);
}

void SetSpace::canonicalize(Vec& x) const {
  Mat E = to_elements(x, m_, d_);
  sort_elements(E, order_);
  x = from_elements(E);
}

bool SetSpace::in_canonical_region(const Vec& x) const {
  const Mat E = to_elements(x, m_, d_);
  for (int i = 0; i + 1 < m_; ++i) {
    if (order_ == SetOrder::FirstCoordinate) {
      if (lex_less(E, i + 1, i)) return false;
    } else {
      const double a = E.row(i).norm(), b = E.row(i + 1).norm();
      if (b < a || (b == a && lex_less(E, i + 1, i))) return false;
    }
  }
  return true;
}

std::string SetSpace::describe() const {
  std::ostringstream os;
  os << "set(m=" << m_ << ", d=" << d_ << ", element box [";
  for (int k = 0; k < d_; ++k) os << (k ? ", " : "") << element_box_.lower(k) << ".." << element_box_.upper(k);
  os << "], order=" << to_string(order_) << ")";
  return os.str();
}

}  // namespace kbo
