// Local search over the discrete neighbours of a mixed space (see kbo/optimize/mixed_search.hpp).
#include "kbo/optimize/mixed_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kbo {

namespace {
constexpr int kMaxMoves = 100;  // accepted moves (each strictly improves, so this only bounds plateaus of noise)
}

OptResult discrete_local_search(const Objective& f, const std::function<Vec(const Mat&)>& score, const Space& space,
                                OptResult best, int max_evaluations) {
  const std::vector<bool> discrete = space.discrete_coordinates();
  const bool has_continuous = std::find(discrete.begin(), discrete.end(), false) != discrete.end();
  const Box& box = space.bounds();
  for (int move = 0; move < kMaxMoves; ++move) {
    const std::vector<Vec> nb = space.discrete_neighbours(best.x);
    if (nb.empty()) break;
    Mat N(static_cast<Eigen::Index>(nb.size()), best.x.size());
    for (std::size_t i = 0; i < nb.size(); ++i) N.row(static_cast<Eigen::Index>(i)) = nb[i].transpose();
    const Vec v = score(N);
    best.evaluations += static_cast<int>(v.size());
    Eigen::Index arg = -1;
    double top = best.value;
    for (Eigen::Index i = 0; i < v.size(); ++i)
      if (std::isfinite(v[i]) && v[i] > top) top = v[i], arg = i;
    if (arg < 0) break;  // a local optimum over the discrete neighbourhood
    OptResult next{N.row(arg).transpose(), top, 0};
    if (has_continuous) {
      // The continuous coordinates may want to move with the new discrete values.
      OptResult polished = lbfgs_maximize(f, next.x, box, LbfgsOptions{max_evaluations, 1e-9});
      best.evaluations += polished.evaluations;
      Vec xc = polished.x;
      space.canonicalize(xc);
      xc = box.clamp(xc);
      const double vc = f(xc, nullptr);
      ++best.evaluations;
      if (std::isfinite(vc) && vc > next.value) next.x = xc, next.value = vc;
    }
    next.evaluations = best.evaluations;
    best = std::move(next);
  }
  return best;
}

}  // namespace kbo
