// BOStrategy's data subsets for large n (include/kbo/strategy/bo_model_options.hpp: fit_subset, model,
// subset_*): the rows θ is fitted on, and the rows the subset-of-data model conditions on.
#include <algorithm>
#include <numeric>
#include <vector>

#include "kbo/core/random.hpp"
#include "kbo/strategy/bo_strategy.hpp"

namespace kbo {

namespace {
// k of the indices `from` drawn uniformly without replacement (partial Fisher–Yates), sorted.
std::vector<Eigen::Index> draw(std::vector<Eigen::Index> from, std::size_t k, Rng& rng) {
  k = std::min(k, from.size());
  for (std::size_t i = 0; i < k; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, from.size() - 1);
    std::swap(from[i], from[pick(rng)]);
  }
  from.resize(k);
  std::sort(from.begin(), from.end());
  return from;
}

std::vector<Eigen::Index> all_rows(Eigen::Index n) {
  std::vector<Eigen::Index> rows(static_cast<std::size_t>(n));
  std::iota(rows.begin(), rows.end(), Eigen::Index(0));
  return rows;
}
}  // namespace

bool BOStrategy::uses_subset_model(int n) const {
  const BOModelOptions& mo = model_options_;
  if (!candidates_.empty()) return false;  // structure choice among candidates: every model exact
  return mo.model == ModelKind::Subset || (mo.model == ModelKind::Auto && n > mo.subset_above);
}

std::vector<Eigen::Index> BOStrategy::fit_rows(Eigen::Index n, int trial_index) const {
  // A uniform subset estimates the same lengthscales, signal and noise variances as all rows do (the
  // evidence per point is what the fit needs), at a bounded cost: a refit at n = 2,000 costed 105 s with
  // every row (docs/bench/scale.md).
  const int cap = model_options_.fit_subset;
  if (cap == 0 || n <= cap) return {};
  Rng rng = make_rng(trial_seed(config_.seed ^ 0x5B5E7ULL, static_cast<std::uint64_t>(trial_index)));
  return draw(all_rows(n), static_cast<std::size_t>(cap), rng);
}

std::vector<Eigen::Index> BOStrategy::subset_model_rows(const Mat& U, Eigen::Index incumbent, int trial_index) const {
  // The subset_local rows nearest the incumbent (where the search exploits, modelled exactly) and
  // subset_global rows drawn from the others, so that the model still knows the rest of the box is
  // explored: without them UCB would see empty space where excluded observations lie.
  const BOModelOptions& mo = model_options_;
  const Eigen::Index n = U.rows();
  const auto local = static_cast<std::size_t>(std::min<Eigen::Index>(mo.subset_local, n));
  if (static_cast<Eigen::Index>(local) + mo.subset_global >= n) return all_rows(n);
  const Vec d2 = (U.rowwise() - U.row(incumbent)).rowwise().squaredNorm();
  std::vector<Eigen::Index> order = all_rows(n);
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(local), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return d2[a] < d2[b] || (d2[a] == d2[b] && a < b); });
  std::vector<Eigen::Index> rows(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(local));
  Rng rng = make_rng(trial_seed(config_.seed ^ 0x10CA1ULL, static_cast<std::uint64_t>(trial_index)));
  const std::vector<Eigen::Index> spread =
      draw(std::vector<Eigen::Index>(order.begin() + static_cast<std::ptrdiff_t>(local), order.end()),
           static_cast<std::size_t>(mo.subset_global), rng);
  rows.insert(rows.end(), spread.begin(), spread.end());
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace kbo
