// The hypervolume against trials (kbo/analysis/hypervolume_history.hpp).
#include "kbo/analysis/hypervolume_history.hpp"

#include <algorithm>

#include "kbo/core/error.hpp"
#include "kbo/moo/hypervolume.hpp"

namespace kbo {

nlohmann::json hypervolume_history(const std::vector<Trial>& trials, const std::vector<std::string>& directions,
                                   const std::vector<double>& reference_point) {
  const auto k = static_cast<Eigen::Index>(directions.size());
  if (k < 2 || static_cast<Eigen::Index>(reference_point.size()) != k)
    throw InputError("hypervolume_history: one reference value per objective of a study with several");
  Vec ref(k);  // maximisation terms, as hypervolume() takes them
  Vec sign(k);
  for (Eigen::Index j = 0; j < k; ++j) {
    sign[j] = directions[static_cast<std::size_t>(j)] == "minimize" ? -1.0 : 1.0;
    ref[j] = sign[j] * reference_point[static_cast<std::size_t>(j)];
  }
  std::vector<const Trial*> done;
  for (const Trial& t : trials)
    if (t.state == TrialState::Complete && is_feasible(t) && static_cast<Eigen::Index>(t.values.size()) == k)
      done.push_back(&t);
  std::sort(done.begin(), done.end(), [](const Trial* a, const Trial* b) { return a->id < b->id; });

  // The front so far (rows, maximised). Only a point above the reference and not weakly dominated by the front
  // changes the hypervolume; then the points it dominates leave the front and the front's volume is recomputed.
  std::vector<Vec> front;
  double hv = 0.0;
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < done.size(); ++i) {
    Vec y(k);
    for (Eigen::Index j = 0; j < k; ++j) y[j] = sign[j] * done[i]->values[static_cast<std::size_t>(j)];
    const bool above = (y.array() > ref.array()).all();
    const bool covered = std::any_of(front.begin(), front.end(), [&](const Vec& f) { return (f.array() >= y.array()).all(); });
    const bool changes = above && !covered;
    if (changes) {
      front.erase(std::remove_if(front.begin(), front.end(), [&](const Vec& f) { return (y.array() >= f.array()).all(); }),
                  front.end());
      front.push_back(y);
      Mat F(static_cast<Eigen::Index>(front.size()), k);
      for (std::size_t r = 0; r < front.size(); ++r) F.row(static_cast<Eigen::Index>(r)) = front[r].transpose();
      hv = std::max(hv, hypervolume(F, ref));  // a larger front never dominates less (recomputing can round lower)
    }
    if (changes || i == 0 || i + 1 == done.size()) out.push_back({done[i]->id, hv});
  }
  return out;
}

}  // namespace kbo
