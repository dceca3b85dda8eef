#include "kbo/core/space.hpp"

#include <boost/random/sobol.hpp>
#include <cmath>
#include <sstream>

namespace kbo {

Box::Box(Vec lo, Vec hi) : lower(std::move(lo)), upper(std::move(hi)) {
  if (lower.size() != upper.size())
    throw InputError("bounds: " + std::to_string(lower.size()) + " lower and " + std::to_string(upper.size()) +
                     " upper values");
  if (lower.size() == 0) throw InputError("bounds: empty (need at least one dimension lo:hi)");
  for (Eigen::Index i = 0; i < lower.size(); ++i) {
    if (!std::isfinite(lower[i]) || !std::isfinite(upper[i]))
      throw InputError("bounds: dimension " + std::to_string(i + 1) + " is not finite");
    if (!(lower[i] < upper[i])) {
      std::ostringstream m;
      m << "bounds: dimension " << i + 1 << " has lo >= hi (" << lower[i] << ":" << upper[i] << "); need lo < hi";
      throw InputError(m.str());
    }
  }
}

Box Box::unit(int dim) { return Box(Vec::Zero(dim), Vec::Ones(dim)); }

bool Box::contains(const Vec& x, double tol) const {
  if (x.size() != lower.size()) return false;
  return ((x.array() >= lower.array() - tol) && (x.array() <= upper.array() + tol)).all();
}
Vec Box::clamp(const Vec& x) const { return x.cwiseMax(lower).cwiseMin(upper); }
Vec Box::to_unit(const Vec& x) const { return (x - lower).cwiseQuotient(upper - lower); }
Vec Box::from_unit(const Vec& u) const { return lower + u.cwiseProduct(upper - lower); }

struct Sobol::Impl {
  explicit Impl(int dim) : engine(static_cast<unsigned>(dim)) {}
  boost::random::sobol engine;
  std::vector<std::uint64_t> shift;
  bool origin_pending = true;
};

Sobol::Sobol(int dim, std::uint64_t shift_seed) : dim_(dim) {
  if (dim < 1 || dim > 3667) throw InputError("Sobol: dimension must be in 1..3667, got " + std::to_string(dim));
  impl_ = std::make_unique<Impl>(dim);
  impl_->shift.assign(dim, 0);
  if (shift_seed != 0) {
    Rng rng = make_rng(shift_seed);
    for (auto& s : impl_->shift) s = rng();
  }
}
Sobol::~Sobol() = default;

Vec Sobol::next() {
  Vec u(dim_);
  for (int d = 0; d < dim_; ++d) {
    // Boost's engine skips the origin; the published sequence starts with it.
    std::uint64_t v = impl_->origin_pending ? 0 : static_cast<std::uint64_t>(impl_->engine());
    v ^= impl_->shift[d];
    u[d] = static_cast<double>(v >> 11) * 0x1.0p-53;  // top 53 bits: exactly representable, in [0,1)
  }
  impl_->origin_pending = false;
  return u;
}

Mat Sobol::next(int n) {
  Mat U(n, dim_);
  for (int i = 0; i < n; ++i) U.row(i) = next().transpose();
  return U;
}

nlohmann::json box_space_json(const Box& box) {
  return {{"type", "box"},
          {"lower", std::vector<double>(box.lower.data(), box.lower.data() + box.lower.size())},
          {"upper", std::vector<double>(box.upper.data(), box.upper.data() + box.upper.size())}};
}

namespace {
Vec vec_from_json(const nlohmann::json& j, const char* what) {
  if (!j.is_array()) throw InputError(std::string("space: '") + what + "' must be an array of numbers");
  Vec v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number()) throw InputError(std::string("space: '") + what + "' must be an array of numbers");
    v(static_cast<Eigen::Index>(i)) = j[i].get<double>();
  }
  return v;
}
}  // namespace

Box box_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("lower") || !j.contains("upper"))
    throw InputError("space: needs 'lower' and 'upper' arrays");
  return Box(vec_from_json(j["lower"], "lower"), vec_from_json(j["upper"], "upper"));
}

SamplingMethod parse_sampling_method(const std::string& name) {
  return parse_enum<SamplingMethod>("init_method", name);
}

Mat Space::sample(int n, SamplingMethod method, Rng& rng) const {
  const Box& b = bounds();
  Mat U(n, dim());
  if (method == SamplingMethod::Sobol) {
    Sobol sobol(dim(), rng() | 1ULL);
    U = sobol.next(n);
  } else {
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    for (int i = 0; i < n; ++i)
      for (int d = 0; d < dim(); ++d) U(i, d) = unif(rng);
  }
  Mat X(n, dim());
  for (int i = 0; i < n; ++i) {
    Vec x = b.from_unit(U.row(i).transpose());
    canonicalize(x);
    X.row(i) = x.transpose();
  }
  return X;
}

std::string BoxSpace::describe() const {
  std::ostringstream o;
  o << "box(";
  for (int i = 0; i < dim(); ++i) o << (i ? "," : "") << box_.lower[i] << ":" << box_.upper[i];
  o << ")";
  return o.str();
}

UnitCubeSpace::UnitCubeSpace(std::shared_ptr<const Space> original)
    : original_(std::move(original)) {
  if (!original_) throw InputError("unit cube: no original space");
  unit_ = Box::unit(original_->dim());
}

Mat UnitCubeSpace::sample(int n, SamplingMethod method, Rng& rng) const {
  return rows_to_unit(original_->sample(n, method, rng));
}

void UnitCubeSpace::canonicalize(Vec& u) const {
  Vec x = from_unit(u);
  original_->canonicalize(x);
  u = unit_.clamp(to_unit(x));
}

bool Space::has_coincident_elements(const Vec& x) const {
  const auto layout = element_layout();
  if (!layout) return false;
  const auto [m, d] = *layout;
  if (x.size() != static_cast<Eigen::Index>(m) * d)
    throw InputError("point has " + std::to_string(x.size()) + " coordinates, expected m*d = " + std::to_string(m * d));
  const Vec tol = 1e-3 * (bounds().upper - bounds().lower);
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j)
      if (((x.segment(i * d, d) - x.segment(j * d, d)).cwiseAbs().array() <= tol.segment(i * d, d).array()).all())
        return true;
  return false;
}

Vec Space::from_named(const nlohmann::json& /*values*/) const {
  throw InputError("a " + kind() + " space has no named parameters: give the point as a list of numbers");
}

Vec UnitCubeSpace::from_named(const nlohmann::json& values) const {
  return unit_.clamp(to_unit(original_->from_named(values)));
}

std::vector<Vec> UnitCubeSpace::discrete_neighbours(const Vec& u) const {
  std::vector<Vec> out = original_->discrete_neighbours(from_unit(u));
  for (Vec& x : out) x = unit_.clamp(to_unit(x));
  return out;
}

std::string UnitCubeSpace::describe() const { return "unit cube of " + original_->describe(); }

Mat UnitCubeSpace::rows_to_unit(const Mat& X) const {
  Mat U(X.rows(), X.cols());
  for (Eigen::Index i = 0; i < X.rows(); ++i) U.row(i) = to_unit(X.row(i).transpose()).transpose();
  return U;
}

}  // namespace kbo
