// The multi-objective strategy (see include/kbo/moo/moo_strategy.hpp).
#include "kbo/moo/moo_strategy.hpp"

#include <chrono>
#include <cmath>
#include <random>

#include "kbo/acquisition/constraints.hpp"
#include "kbo/strategy/schedule.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/moo/box_decomposition.hpp"
#include "kbo/moo/ehvi.hpp"
#include "kbo/moo/hypervolume.hpp"
#include "kbo/moo/pareto.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Above this many objectives the box decomposition (front^(k−1) boxes) gives way to ParEGO.
constexpr int kMaxEhviObjectives = 3;
/// ParEGO's augmentation ρ (Knowles 2006): keeps weakly dominated points from tying with the front.
constexpr double kParegoRho = 0.05;

std::vector<double> to_vector(const Vec& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

/// The inferred reference point of the search (rows of Y, maximised): each objective's worst value on the front,
/// 10 % of the objective's observed range (all rows) further out; BoTorch's rule (infer_reference_point) where
/// every observation has the same value.
Vec search_reference_point(const Mat& Y) {
  const Mat front = pareto_front(Y);
  const Vec nadir = front.colwise().minCoeff().transpose();
  const Vec range = Y.colwise().maxCoeff().transpose() - Y.colwise().minCoeff().transpose();
  Vec ref = infer_reference_point(front);
  for (Eigen::Index j = 0; j < ref.size(); ++j)
    if (range[j] > 0.0) ref[j] = nadir[j] - 0.1 * range[j];
  return ref;
}

}  // namespace

MooStrategy::MooStrategy(StrategyConfig config, std::shared_ptr<const Space> space)
    : config_(std::move(config)), space_(std::move(space)) {
  if (!space_) throw InputError("moo strategy: no search space");
  if (config_.n_init < 1) throw InputError("--init must be >= 1 (got " + std::to_string(config_.n_init) + ")");
  if (config_.fit_restarts < 0) throw InputError("fit_restarts must be >= 0");
  unit_ = std::make_shared<UnitCubeSpace>(space_);
  Rng rng = make_rng(config_.seed);
  design_ = unit_->sample(config_.n_init, config_.init_method, rng);
}

Vec MooStrategy::random_point(int trial_index) const {
  Rng rng = make_rng(trial_seed(config_.seed, trial_index));
  return unit_->sample(1, SamplingMethod::Uniform, rng).row(0).transpose();
}

Vec MooStrategy::suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) {
  return suggest(X, y, pending, Mat(0, space_->dim()), trial_index);
}

GP& MooStrategy::fit(std::optional<GP>& gp, const Mat& U, const Vec& y, int trial_index, int stream) {
  if (!gp)
    gp.emplace(make_model_kernel(config_, *space_), config_.fixed_noise.value_or(1e-3), /*normalize=*/true,
               /*learn_noise=*/!config_.fixed_noise.has_value());
  gp->set_data(U, y);
  FitOptions options;
  options.restarts = config_.fit_restarts;
  options.map = config_.map;
  options.seed = trial_seed(config_.seed ^ 0xF17ULL, static_cast<std::uint64_t>(trial_index) * 64 + stream);
  gp->fit(options);
  return *gp;
}

Vec MooStrategy::suggest(const Mat& X, const Vec& y, const Mat& pending, const Mat& failed, int trial_index) {
  const int D = space_->dim();
  if (X.rows() != y.size() || (X.rows() > 0 && X.cols() != D) || (pending.rows() > 0 && pending.cols() != D))
    throw InputError("moo strategy: data does not match the space dimension " + std::to_string(D));
  // One objective (a study without several) is EHVI over one objective, i.e. EI.
  const Mat Y = objectives_.rows() == X.rows() && objectives_.cols() > 0 ? objectives_ : Mat(y);
  info_ = nlohmann::json::object();
  info_["trial_index"] = trial_index;
  std::optional<Vec> u =
      opening_point(design_, config_.n_init, X.rows(), trial_index, [&] { return random_point(trial_index); }, info_);
  if (!u) {
    const Mat U = unit_->rows_to_unit(X);
    const Mat Pu = pending.rows() > 0 ? unit_->rows_to_unit(pending) : Mat(0, D);
    const Mat Fu = failed.rows() > 0 ? unit_->rows_to_unit(failed) : Mat(0, D);
    u = model_step(U, Y, Pu, Fu, trial_index);
    if (!u->allFinite() || min_row_distance(*u, Pu) < kRepeatTolerance || min_row_distance(*u, U) < kRepeatTolerance ||
        min_row_distance(*u, Fu) < kFailedRadius) {
      info_["repeat_replaced_by_random"] = true;
      u = random_point(trial_index);
    }
  }
  Vec x = space_->bounds().clamp(unit_->from_unit(*u));
  space_->canonicalize(x);
  return x;
}

Vec MooStrategy::model_step(const Mat& U, const Mat& Y, const Mat& Pu, const Mat& /*Fu*/, int trial_index) {
  const Eigen::Index n = U.rows();
  const Eigen::Index k = Y.cols();
  const auto t0 = Clock::now();

  // Outcome constraints: one GP per constraint on −c (feasible ⇔ GP >= 0), as the single-objective model.
  const Eigen::Index m = constraints_.rows() == n ? constraints_.cols() : 0;
  std::vector<bool> feasible(static_cast<std::size_t>(n), true);
  constraint_gps_.resize(static_cast<std::size_t>(m));
  for (Eigen::Index j = 0; j < m; ++j) fit(constraint_gps_[static_cast<std::size_t>(j)], U, -constraints_.col(j), trial_index, 32 + static_cast<int>(j));
  for (Eigen::Index i = 0; i < n; ++i) feasible[static_cast<std::size_t>(i)] = m == 0 || (constraints_.row(i).array() <= 0.0).all();
  int n_feasible = 0;
  for (bool f : feasible) n_feasible += f;
  Mat Yf(n_feasible, k);
  for (Eigen::Index i = 0, r = 0; i < n; ++i)
    if (feasible[static_cast<std::size_t>(i)]) Yf.row(r++) = Y.row(i);

  const FantasyMode fantasy = Pu.rows() > 0 ? config_.fantasy : FantasyMode::None;
  std::vector<GP> conditioned;  // fantasy-conditioned models (outlive the acquisition)
  conditioned.reserve(static_cast<std::size_t>(k + m + 1));
  std::unique_ptr<Acquisition> acq;
  Mat starts(0, U.cols());
  if (n_feasible > 0) {
    // The reference point: given (maximisation terms), or inferred (see the header).
    const Mat front = pareto_front(Yf);
    Vec ref = reference_point_.size() == k ? reference_point_ : search_reference_point(Yf);
    info_["reference_point"] = to_vector(ref);
    info_["reference"] = reference_point_.size() == k ? "given" : "inferred";
    info_["hypervolume"] = hypervolume(front, ref);
    info_["front_size"] = front.rows();
    // The best few observed front points start the acquisition search (EHVI is largest near the front).
    const std::vector<bool> on_front = non_dominated_mask(Y);
    for (Eigen::Index i = 0; i < n && starts.rows() < 4; ++i)
      if (on_front[static_cast<std::size_t>(i)] && feasible[static_cast<std::size_t>(i)]) {
        starts.conservativeResize(starts.rows() + 1, Eigen::NoChange);
        starts.row(starts.rows() - 1) = U.row(i);
      }
    if (k <= kMaxEhviObjectives) {
      info_["acquisition"] = "logEHVI";
      Mat believed = Yf;  // the front with the pending points at their believed values
      std::vector<const GP*> models;
      for (Eigen::Index j = 0; j < k; ++j) {
        objective_gps_.resize(static_cast<std::size_t>(k));
        GP& g = fit(objective_gps_[static_cast<std::size_t>(j)], U, Y.col(j), trial_index, static_cast<int>(j));
        if (fantasy != FantasyMode::None) {
          conditioned.push_back(condition_on_pending(g, Pu, fantasy));
          models.push_back(&conditioned.back());
        } else {
          models.push_back(&g);
        }
      }
      if (fantasy != FantasyMode::None) {
        believed.conservativeResize(Yf.rows() + Pu.rows(), Eigen::NoChange);
        for (Eigen::Index j = 0; j < k; ++j)
          believed.col(j).tail(Pu.rows()) = fantasy_values(*objective_gps_[static_cast<std::size_t>(j)], Pu, fantasy);
      }
      BoxDecomposition boxes = non_dominated_boxes(pareto_front(believed), ref);
      info_["boxes"] = boxes.size();
      acq = std::make_unique<LogExpectedHypervolumeImprovement>(std::move(models), std::move(boxes));
    } else {
      // ParEGO: weights uniform on the simplex (a fresh draw per trial), objectives scaled to [0, 1] over the
      // observed values, s = −max_j w_j (1 − ŷ_j) − ρ Σ_j w_j (1 − ŷ_j), maximised by log-EI.
      info_["acquisition"] = "parego-logEI";
      Rng rng = make_rng(trial_seed(config_.seed ^ 0x9A8E60ULL, trial_index));
      std::exponential_distribution<double> e(1.0);
      Vec w(k);
      for (Eigen::Index j = 0; j < k; ++j) w[j] = e(rng);
      w /= w.sum();
      info_["weights"] = to_vector(w);
      const Vec lo = Y.colwise().minCoeff().transpose(), hi = Y.colwise().maxCoeff().transpose();
      Vec s(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        double worst = 0.0, sum = 0.0;
        for (Eigen::Index j = 0; j < k; ++j) {
          const double range = hi[j] - lo[j];
          const double gap = w[j] * (range > 0.0 ? (hi[j] - Y(i, j)) / range : 0.0);
          worst = std::max(worst, gap);
          sum += gap;
        }
        s[i] = -worst - kParegoRho * sum;
      }
      GP& g = fit(scalarised_gp_, U, s, trial_index, 16);
      const GP* model = &g;
      if (fantasy != FantasyMode::None) {
        conditioned.push_back(condition_on_pending(g, Pu, fantasy));
        model = &conditioned.back();
      }
      double incumbent = -std::numeric_limits<double>::infinity();
      for (Eigen::Index i = 0; i < n; ++i)
        if (feasible[static_cast<std::size_t>(i)]) incumbent = std::max(incumbent, s[i]);
      acq = std::make_unique<LogExpectedImprovement>(*model, incumbent);
    }
  }
  if (m > 0) {
    std::vector<std::unique_ptr<Acquisition>> pof;
    for (Eigen::Index j = 0; j < m; ++j) {
      const GP& g = *constraint_gps_[static_cast<std::size_t>(j)];
      if (fantasy != FantasyMode::None) {
        conditioned.push_back(condition_on_pending(g, Pu, fantasy));
        pof.push_back(log_probability_of_feasibility(conditioned.back()));
      } else {
        pof.push_back(log_probability_of_feasibility(g));
      }
    }
    // Before any feasible point the search maximises the probability of feasibility alone.
    acq = std::make_unique<ConstrainedAcquisition>(std::move(acq), std::move(pof));
    info_["constraints"] = {{"n", m}, {"feasible_points", n_feasible}};
  }
  info_["fit_seconds"] = seconds_since(t0);
  const auto t1 = Clock::now();
  AcqOptimizerOptions opt = config_.acq_optimizer;
  opt.seed = trial_seed(config_.seed ^ 0xACCULL, trial_index);
  const OptResult res = maximize_acquisition(*acq, *unit_, opt, starts);
  info_["acq_value"] = res.value;
  info_["acq_seconds"] = seconds_since(t1);
  if (Pu.rows() > 0 && fantasy != FantasyMode::None) info_["fantasy"] = to_string(fantasy);
  return res.x;
}

void register_moo_module() {
  strategies().add("moo",
                   {[](const StrategyConfig& c, std::shared_ptr<const Space> space) -> std::unique_ptr<Strategy> {
                      return std::make_unique<MooStrategy>(c, std::move(space));
                    },
                    {"kernel", "ard", "n_init", "init_method", "fit_restarts", "map", "fixed_noise", "acq_optimizer",
                     "fantasy", "module_options", "seed"},
                    {"moo"},
                    "",
                    "several objectives: one GP per objective, logEHVI (2-3 objectives) or ParEGO (more); the "
                    "default with several --directions"});
  option_sections().add(
      "moo", {[](const nlohmann::json& v, const StrategyConfig&, int) {
                if (!v.is_object()) throw InputError("options.moo must be an object {\"ref_point\": [numbers]}");
                for (const auto& item : v.items()) {
                  if (item.key() != "ref_point")
                    throw InputError("options.moo: unknown key '" + item.key() + "' (allowed: ref_point)");
                  const auto& r = item.value();
                  if (!r.is_array() || r.empty())
                    throw InputError("options.moo.ref_point must be a list of numbers, one per objective");
                  for (const auto& e : r)
                    if (!e.is_number() || !std::isfinite(e.get<double>()))
                      throw InputError("options.moo.ref_point must be a list of finite numbers (got " + r.dump() + ")");
                }
              },
              // Read by the study (the hypervolume it reports) whatever the strategy.
              [](const StrategyConfig&) { return true; },
              "studies with several objectives: the hypervolume's reference point (--ref-point)"});
}

}  // namespace kbo
