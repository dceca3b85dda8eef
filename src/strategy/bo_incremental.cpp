// BOStrategy's incremental model (include/kbo/strategy/bo_strategy.hpp, BOModelOptions::full_refit_below):
// when θ is not refitted, the fitted GP keeps its factor and gains only the new observations, so a
// suggestion at n observations costs O(n²) instead of a multi-start fit of O(n³) runs.
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "kbo/strategy/bo_strategy.hpp"

namespace kbo {

namespace {
/// The row's bytes: rows are matched exactly (the same trial gives the same unit-cube point every time).
std::string row_key(const Mat& M, Eigen::Index i) {
  std::string key(static_cast<std::size_t>(M.cols()) * sizeof(double), '\0');
  for (Eigen::Index d = 0; d < M.cols(); ++d) {
    const double v = M(i, d);
    std::memcpy(key.data() + static_cast<std::size_t>(d) * sizeof(double), &v, sizeof(double));
  }
  return key;
}
}  // namespace

BOStrategy::Refit BOStrategy::refit_due(int n) const {
  const BOModelOptions& mo = model_options_;
  // A model restored from a stored state has θ but no data yet: it is extended (or warm-refitted from the
  // stored θ), not fully refitted, unless due.
  if (!gp_ || n < mo.full_refit_below || n < refit_n_) return Refit::Full;
  const int every = static_cast<int>(std::ceil(std::sqrt(double(refit_n_))));
  if (n - refit_n_ >= every) return Refit::Full;
  return n < mo.warm_refit_below ? Refit::Warm : Refit::None;
}

void BOStrategy::extend_model(GP& gp, const Mat& U, const Vec& yt, const Vec& noise) {
  // The GP's rows are a permutation of a subset of U's (trials complete out of id order, so the new ones
  // need not come last): match them, append the others, then replace every target (they are re-scaled
  // each time: the worst value and the spread move) in O(n²).
  std::unordered_map<std::string, std::vector<Eigen::Index>> where;
  where.reserve(static_cast<std::size_t>(U.rows()));
  for (Eigen::Index i = U.rows() - 1; i >= 0; --i) where[row_key(U, i)].push_back(i);
  const Mat& old = gp.X();
  std::vector<Eigen::Index> order;  // model row -> row of U
  order.reserve(static_cast<std::size_t>(U.rows()));
  std::vector<bool> used(static_cast<std::size_t>(U.rows()), false);
  for (Eigen::Index r = 0; r < old.rows(); ++r) {
    auto it = where.find(row_key(old, r));
    if (it == where.end() || it->second.empty()) {  // an observation disappeared: start over at this θ
      gp.set_data(U, yt, noise);
      return;
    }
    order.push_back(it->second.back());
    used[static_cast<std::size_t>(it->second.back())] = true;
    it->second.pop_back();
  }
  std::vector<Eigen::Index> fresh;
  for (Eigen::Index i = 0; i < U.rows(); ++i)
    if (!used[static_cast<std::size_t>(i)]) fresh.push_back(i);
  const bool known = noise.size() > 0;
  Mat Unew(static_cast<Eigen::Index>(fresh.size()), U.cols());
  Vec ynew(static_cast<Eigen::Index>(fresh.size()));
  Vec nnew(known ? static_cast<Eigen::Index>(fresh.size()) : 0);
  for (std::size_t k = 0; k < fresh.size(); ++k) {
    Unew.row(static_cast<Eigen::Index>(k)) = U.row(fresh[k]);
    ynew(static_cast<Eigen::Index>(k)) = yt(fresh[k]);
    if (known) nnew(static_cast<Eigen::Index>(k)) = noise(fresh[k]);
    order.push_back(fresh[k]);
  }
  gp.append_observations(Unew, ynew, nnew);
  // Replicates (equal rows) may pair with each other in any order: their targets and known noise follow the
  // pairing, and a known noise that moved (another pairing, or a new target scale) refactorises.
  Vec y_model(static_cast<Eigen::Index>(order.size()));
  Vec n_model(known ? static_cast<Eigen::Index>(order.size()) : 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    y_model(static_cast<Eigen::Index>(k)) = yt(order[k]);
    if (known) n_model(static_cast<Eigen::Index>(k)) = noise(order[k]);
  }
  gp.set_targets(y_model, n_model);
}

}  // namespace kbo

namespace kbo {

namespace {
nlohmann::json theta_json(const GP& gp) {
  const Vec t = gp.hyperparameters();
  return std::vector<double>(t.data(), t.data() + t.size());
}
}  // namespace

nlohmann::json BOStrategy::model_identity() const {
  // What a stored θ must match to be reused: the prototype kernels (their describe() never changes),
  // the noise setting and the prior mean (which decides whether the GP standardises).
  return {{"kernel", kernel_->describe()},
          {"alt_kernel", alt_kernel_ ? alt_kernel_->describe() : std::string()},
          {"fixed_noise", config_.fixed_noise ? nlohmann::json(*config_.fixed_noise) : nlohmann::json(nullptr)},
          {"prior_mean", enum_name(model_options_.prior_mean)}};
}

nlohmann::json BOStrategy::model_state() const {
  // Structure chosen among candidate kernels (set/invariant auto) swaps kernels between refits: such a
  // state is not stored (every process refits its candidates itself).
  if (!gp_ || refit_n_ == 0 || !candidates_.empty()) return nullptr;
  nlohmann::json theta = {{alt_leads_ ? "alt_kernel" : "kernel", theta_json(*gp_)}};
  if (gp_alt_) theta[alt_leads_ ? "kernel" : "alt_kernel"] = theta_json(*gp_alt_);
  return {{"model", model_identity()},
          {"n", refit_n_},
          {"objective", refit_objective_},
          {"leader", alt_leads_ ? "alt_kernel" : "kernel"},
          {"noisy", noisy_},
          {"theta", theta}};
}

void BOStrategy::restore_model_state(const nlohmann::json& state) {
  try {
    if (!state.is_object() || state.value("model", nlohmann::json()) != model_identity()) return;
    const int n = state.at("n").get<int>();
    if (n <= refit_n_) return;  // ours is as recent
    const bool alt_leads = state.at("leader").get<std::string>() == "alt_kernel";
    if (alt_leads && !alt_kernel_) return;
    const auto& theta = state.at("theta");
    auto restored = [&](const KernelPtr& prototype, const char* key) -> std::optional<GP> {
      if (!prototype || !theta.contains(key)) return std::nullopt;
      const std::vector<double> t = theta.at(key).get<std::vector<double>>();
      GP g = new_model(prototype->clone());
      if (static_cast<Eigen::Index>(t.size()) != g.hyperparameters().size()) return std::nullopt;
      for (double v : t)
        if (!std::isfinite(v)) return std::nullopt;
      g.set_hyperparameters(Eigen::Map<const Vec>(t.data(), static_cast<Eigen::Index>(t.size())));
      return g;
    };
    std::optional<GP> main = restored(kernel_, "kernel"), alt = restored(alt_kernel_, "alt_kernel");
    if (!main || (alt_leads && !alt)) return;
    // The data are set at the next suggestion (extend_model on an empty model is one factorisation).
    gp_ = alt_leads ? std::move(alt) : std::move(main);
    gp_alt_ = alt_leads ? std::move(main) : std::move(alt);
    alt_leads_ = alt_leads;
    noisy_ = state.value("noisy", false);
    refit_n_ = n;
    refit_objective_ = state.at("objective").get<double>();
  } catch (const std::exception&) {
    // A state this build cannot read (another kbo version): ignored, the next refit replaces it.
  }
}

}  // namespace kbo
