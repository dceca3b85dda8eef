// Exact hypervolume (see include/kbo/moo/hypervolume.hpp).
#include "kbo/moo/hypervolume.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kbo/core/error.hpp"

namespace kbo {

namespace {

/// Rows strictly better than ref in every objective (the others add no volume).
std::vector<Vec> above(const Mat& Y, const Vec& ref) {
  std::vector<Vec> out;
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    if ((Y.row(i).transpose().array() > ref.array()).all()) out.push_back(Y.row(i).transpose());
  return out;
}

double sweep_2d(std::vector<Vec> pts, double r0, double r1) {
  std::sort(pts.begin(), pts.end(), [](const Vec& a, const Vec& b) { return a[0] > b[0]; });
  double hv = 0.0, top = r1;
  // Every later point has a smaller first objective: each one adds the strip above the highest second
  // objective so far, as wide as its own first objective.
  for (const Vec& p : pts)
    if (p[1] > top) {
      hv += (p[0] - r0) * (p[1] - top);
      top = p[1];
    }
  return hv;
}

double slice(std::vector<Vec> pts, const Vec& ref) {
  const Eigen::Index m = ref.size();
  if (pts.empty()) return 0.0;
  if (m == 1) {
    double best = ref[0];
    for (const Vec& p : pts) best = std::max(best, p[0]);
    return best - ref[0];
  }
  if (m == 2) return sweep_2d(std::move(pts), ref[0], ref[1]);
  // Slabs along the last objective: between consecutive values, the points at or above the slab, projected.
  std::sort(pts.begin(), pts.end(), [m](const Vec& a, const Vec& b) { return a[m - 1] > b[m - 1]; });
  const Vec lower_ref = ref.head(m - 1);
  std::vector<Vec> active;
  double hv = 0.0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    active.push_back(pts[i].head(m - 1));
    const double next = i + 1 < pts.size() ? pts[i + 1][m - 1] : ref[m - 1];
    const double height = pts[i][m - 1] - next;
    if (height > 0.0) hv += height * slice(active, lower_ref);
  }
  return hv;
}

}  // namespace

double hypervolume(const Mat& Y, const Vec& ref) {
  if (Y.rows() > 0 && Y.cols() != ref.size())
    throw InputError("hypervolume: the reference point has " + std::to_string(ref.size()) + " objectives, the points " +
                     std::to_string(Y.cols()));
  if (!ref.allFinite() || !Y.allFinite()) throw InputError("hypervolume: values and reference point must be finite");
  return slice(above(Y, ref), ref);
}

Vec infer_reference_point(const Mat& front) {
  if (front.rows() == 0) throw InputError("infer_reference_point: no points");
  const Vec nadir = front.colwise().minCoeff().transpose();
  const Vec ideal = front.colwise().maxCoeff().transpose();
  Vec ref(nadir.size());
  for (Eigen::Index j = 0; j < nadir.size(); ++j) {
    double range = ideal[j] - nadir[j];
    if (!(range > 0.0)) range = std::abs(nadir[j]) > 0.0 ? std::abs(nadir[j]) : 1.0;
    ref[j] = nadir[j] - 0.1 * range;
  }
  return ref;
}

}  // namespace kbo
