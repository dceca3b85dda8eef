// The GP analysis behind the study views (see kbo/analysis/study_analysis.hpp for the method).
#include "kbo/analysis/study_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>

#include "kbo/analysis/model_fit.hpp"
#include "kbo/analysis/param_axes.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/strategy/config.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/study/study.hpp"

namespace kbo {

namespace {

nlohmann::json vec_json(const Vec& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

// Names of a params space's coordinates (its encoding, kbo/core/params.hpp: float/int one coordinate,
// categorical one per choice, fixed none), or empty when the list does not read that way.
std::vector<std::string> params_names(const nlohmann::json& params) {
  std::vector<std::string> names;
  if (!params.is_array()) return {};
  for (const auto& p : params) {
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) return {};
    const std::string name = p["name"].get<std::string>();
    const std::string type = p.value("type", "float");
    if (type == "fixed") continue;
    if (type == "categorical" || type == "cat") {
      if (!p.contains("choices") || !p["choices"].is_array()) return {};
      for (const auto& c : p["choices"]) names.push_back(name + "=" + (c.is_string() ? c.get<std::string>() : c.dump()));
    } else {
      names.push_back(p.value("log", false) ? "log " + name : name);
    }
  }
  return names;
}

// The GP mean (original units) at every row of U: k(U, X) α scaled back, without the O(n²) variance per
// row that GP::predict also computes (the importance needs D·kGridPoints·kBackground means).
Vec gp_mean(const GP& gp, const Mat& U) {
  Vec m(U.rows());
  const Eigen::Index chunk = 2048;
  for (Eigen::Index s = 0; s < U.rows(); s += chunk) {
    const Eigen::Index n = std::min(chunk, U.rows() - s);
    m.segment(s, n) = gp.kernel().cross(U.middleRows(s, n), gp.X()) * gp.alpha();
  }
  return (m.array() * gp.y_scale() + gp.y_mean()).matrix();
}

double variance_of(const Vec& v) {
  if (v.size() < 2) return 0.0;
  return (v.array() - v.mean()).square().sum() / static_cast<double>(v.size());
}

// Fits one GP of the view on unit-cube inputs U and values y with `kernel`.
GP fit_with(KernelPtr kernel, const StrategyConfig& config, const Mat& U, const Vec& y) {
  const bool learn_noise = !config.fixed_noise.has_value();
  const double noise = config.fixed_noise.value_or(1e-4);
  FitOptions options;
  options.map = true;
  options.restarts = std::max(0, config.fit_restarts) + 3;
  options.seed = config.seed;
  GP gp(std::move(kernel), noise, /*normalize=*/true, learn_noise);
  gp.set_data(U, y);
  if (const Kernel* surrogate = gp.kernel().fit_surrogate()) {
    // Invariant kernels are fitted on their base kernel (same log-parameter layout), as the strategy does.
    GP base(surrogate->clone(), noise, true, learn_noise);
    base.set_data(U, y);
    base.fit(options);
    gp.set_hyperparameters(base.hyperparameters());
  } else {
    gp.fit(options);
  }
  return gp;
}

// Fits the viewer's GP (header: "The model") on unit-cube inputs U and values y. `space` is the study's
// own space (make_model_kernels builds the unit-cube kernels from it, as the strategies do). A structure
// chosen by evidence (--invariant-kernel/--set-kernel auto) is chosen here the same way: every candidate
// is fitted and the highest log marginal likelihood models.
GP fit_model(const StrategyConfig& config, const Space& space, const Mat& U, const Vec& y) {
  std::vector<NamedKernel> kernels;
  try {
    kernels = make_model_kernels(config, space);
  } catch (const InputError&) {  // e.g. a stored config of a kernel this build does not register
    kernels.clear();
    kernels.push_back({"flat", model_kernels().get("matern52").make(space.dim(), true, 1.0 / 3.0, 1.0)});
  }
  std::optional<GP> best;
  for (NamedKernel& k : kernels) {
    GP gp = fit_with(std::move(k.kernel), config, U, y);
    if (!best || gp.log_marginal_likelihood() > best->log_marginal_likelihood()) best.emplace(std::move(gp));
  }
  return std::move(*best);
}

}  // namespace

std::vector<std::string> coordinate_names(const nlohmann::json& space, int dim) {
  std::vector<std::string> names;
  if (space.is_object() && space.contains("params")) names = params_names(space["params"]);
  if (space.is_object() && space.value("type", "") == "set" && space.contains("set_size") &&
      space["set_size"].is_number_integer() && space.contains("lower") && space["lower"].is_array()) {
    const int m = space["set_size"].get<int>();
    const int d = static_cast<int>(space["lower"].size());
    for (int i = 0; i < m; ++i)
      for (int k = 0; k < d; ++k) names.push_back("e" + std::to_string(i) + ".x" + std::to_string(k));
  }
  if (static_cast<int>(names.size()) != dim) {
    names.clear();
    for (int j = 0; j < dim; ++j) names.push_back("x" + std::to_string(j));
  }
  return names;
}

namespace {

// Unit-cube rows with the coordinates of `axis` set to one level's encoding (original units → unit cube).
template <class Rows>
void set_level(Rows&& rows, const ParamAxis& axis, const Vec& encoded, const Box& box) {
  for (size_t k = 0; k < axis.coordinates.size(); ++k) {
    const int c = axis.coordinates[k];
    const double span = box.upper[c] - box.lower[c];
    rows.col(c).setConstant(span > 0.0 ? (encoded[static_cast<Eigen::Index>(k)] - box.lower[c]) / span : 0.0);
  }
}

// The contours' grid: 2-D means over every pair of the (up to) kContourAxes most important axes.
nlohmann::json contours(const GP& gp, const Space& space, const std::vector<ParamAxis>& axes,
                        const std::vector<double>& importance, const Vec& anchor) {
  std::vector<int> order(axes.size());
  for (size_t a = 0; a < axes.size(); ++a) order[a] = static_cast<int>(a);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return importance[a] > importance[b]; });
  if (static_cast<int>(order.size()) > kContourAxes) order.resize(kContourAxes);
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t k = i + 1; k < order.size(); ++k) {
      const ParamAxis& ax = axes[order[i]];
      const ParamAxis& ay = axes[order[k]];
      const AxisLevels lx = axis_levels(ax, space, kContourPoints);
      const AxisLevels ly = axis_levels(ay, space, kContourPoints);
      if (lx.values.size() < 2 || ly.values.size() < 2) continue;
      const Eigen::Index nx = static_cast<Eigen::Index>(lx.values.size());
      const Eigen::Index ny = static_cast<Eigen::Index>(ly.values.size());
      Mat U = anchor.transpose().replicate(nx * ny, 1);
      for (Eigen::Index r = 0; r < ny; ++r)
        for (Eigen::Index c = 0; c < nx; ++c) {
          set_level(U.middleRows(r * nx + c, 1), ax, lx.encoded[c], space.bounds());
          set_level(U.middleRows(r * nx + c, 1), ay, ly.encoded[r], space.bounds());
        }
      const Vec m = gp_mean(gp, U);
      nlohmann::json mean = nlohmann::json::array();
      for (Eigen::Index r = 0; r < ny; ++r) mean.push_back(vec_json(m.segment(r * nx, nx)));
      out.push_back({{"params", {order[i], order[k]}},
                     {"names", {ax.name, ay.name}},
                     {"x", lx.values},
                     {"y", ly.values},
                     {"mean", std::move(mean)}});
    }
  return out;
}

}  // namespace

nlohmann::json analyze_study(const StudyRecord& record, const std::vector<Trial>& trials) {
  nlohmann::json out;
  out["parameters"] = nlohmann::json::array();
  out["slices"] = nlohmann::json::array();
  out["importance"] = nlohmann::json::array();
  out["contours"] = nlohmann::json::array();
  out["model_fit"] = nullptr;
  out["interactions"] = nullptr;
  out["best"] = nullptr;
  auto fail = [&](const std::string& reason) {
    out["model"] = {{"ok", false}, {"reason", reason}};
    return out;
  };

  std::shared_ptr<const Space> space;
  StrategyConfig config;
  try {
    space = space_from_json(record.space);
    config = strategy_config_from_json(record.config);
  } catch (const std::exception& e) {
    return fail(std::string("the stored study cannot be read by this kbo: ") + e.what());
  }
  const int D = space->dim();
  const Box& box = space->bounds();
  const std::vector<ParamAxis> axes = param_axes(*space, coordinate_names(record.space, D));
  const int P = static_cast<int>(axes.size());
  for (const ParamAxis& a : axes) out["parameters"].push_back(to_json(a));

  // The complete trials (the most recent kMaxModelPoints) in the unit cube.
  std::vector<const Trial*> done;
  for (const Trial& t : trials)
    if (t.state == TrialState::Complete && t.value && std::isfinite(*t.value) && t.x.size() == D) done.push_back(&t);
  if (static_cast<int>(done.size()) > kMaxModelPoints) done.erase(done.begin(), done.end() - kMaxModelPoints);
  const std::optional<Trial> best = Study::best_of(trials, record.minimize);
  if (best && best->x.size() == D) {
    nlohmann::json values = nlohmann::json::array();
    for (const ParamAxis& a : axes) values.push_back(axis_value(a, *space, best->x));
    out["best"] = {{"trial", best->id}, {"x", vec_json(best->x)}, {"values", std::move(values)}};
  }
  if (done.size() < 2) return fail("the model needs at least 2 complete trials (" + std::to_string(done.size()) + " so far)");

  const auto unit = std::make_shared<UnitCubeSpace>(space);
  Mat U(static_cast<Eigen::Index>(done.size()), D);
  Vec y(static_cast<Eigen::Index>(done.size()));
  for (size_t i = 0; i < done.size(); ++i) {
    U.row(static_cast<Eigen::Index>(i)) = unit->to_unit(done[i]->x).transpose();
    y[static_cast<Eigen::Index>(i)] = *done[i]->value;
  }

  std::optional<GP> gp;
  try {
    gp.emplace(fit_model(config, *space, U, y));
  } catch (const std::exception& e) {
    return fail(std::string("the GP fit failed: ") + e.what());
  }

  // Lengthscales per coordinate (unit cube), when the kernel has exactly one per coordinate.
  std::vector<double> lengthscale(D, std::numeric_limits<double>::quiet_NaN());
  int per_coordinate = 0;
  {
    const Vec theta = gp->kernel().log_params();
    const auto specs = gp->kernel().param_specs();
    for (size_t p = 0; p < specs.size(); ++p)
      if (specs[p].role == ParamRole::Lengthscale && specs[p].dim >= 0 && specs[p].dim < D &&
          std::isnan(lengthscale[specs[p].dim])) {
        lengthscale[specs[p].dim] = std::exp(theta[static_cast<Eigen::Index>(p)]);
        ++per_coordinate;
      }
  }
  const bool ard = per_coordinate == D;
  out["model"] = {{"ok", true},
                  {"kernel", gp->kernel().describe()},
                  {"n_points", gp->size()},
                  {"noise_variance", gp->noise_variance()},
                  {"log_marginal_likelihood", gp->log_marginal_likelihood()},
                  {"lengthscales", ard ? nlohmann::json(lengthscale) : nlohmann::json(nullptr)}};

  // Model fit: leave-one-out predictions of every modelled trial.
  {
    const LeaveOneOut loo = leave_one_out(*gp);
    std::vector<int> ids;
    for (const Trial* t : done) ids.push_back(t->id);
    out["model_fit"] = {{"trials", ids}, {"observed", vec_json(y)}, {"predicted", vec_json(loo.mean)},
                        {"std", vec_json(loo.std)}};
  }

  // Slices through the best point (mean and std of the latent f, original units).
  const Vec anchor = unit->to_unit(best ? best->x : done.back()->x);

  // Background sample for the partial dependences and the variance decomposition.
  Rng rng = make_rng(config.seed + 1);
  // D·kGridPoints·N means of n kernel terms each: N shrinks (to 32 at least) so that this stays near 2·10⁸
  // kernel evaluations (about a second) for wide spaces with many trials.
  const double work = static_cast<double>(D) * kGridPoints * static_cast<double>(gp->size());
  const int n_background = static_cast<int>(std::clamp(2e8 / work, 32.0, static_cast<double>(kBackground)));
  const Mat background = unit->sample(n_background, SamplingMethod::Sobol, rng);
  const Vec m_background = gp_mean(*gp, background);
  const double total_variance = variance_of(m_background);

  double inv_sum = 0.0;
  if (ard)
    for (double l : lengthscale) inv_sum += 1.0 / l;
  double explained = 0.0;
  std::vector<double> shares(P, 0.0);
  for (int a = 0; a < P; ++a) {
    const ParamAxis& axis = axes[a];
    const AxisLevels levels = axis_levels(axis, *space, kGridPoints);
    const int L = static_cast<int>(levels.values.size());
    Mat S = anchor.transpose().replicate(L, 1);
    for (int g = 0; g < L; ++g) {
      set_level(S.middleRows(g, 1), axis, levels.encoded[g], box);
    }
    const GP::Prediction p = gp->predict(S);

    // Partial dependence: the background with this parameter set to each level, averaged; its variance is
    // weighted by the levels' shares of the unit cube (the measure the background is drawn from).
    const Eigen::Index nb = n_background;
    Mat B(L * nb, D);
    for (int g = 0; g < L; ++g) {
      B.middleRows(g * nb, nb) = background;
      set_level(B.middleRows(g * nb, nb), axis, levels.encoded[g], box);
    }
    const Vec mb = gp_mean(*gp, B);
    Vec pd(L);
    double pd_mean = 0.0;
    for (int g = 0; g < L; ++g) {
      pd[g] = mb.segment(g * nb, nb).mean();
      pd_mean += levels.weights[g] * pd[g];
    }
    double vj = 0.0;
    for (int g = 0; g < L; ++g) vj += levels.weights[g] * (pd[g] - pd_mean) * (pd[g] - pd_mean);
    const double share = total_variance > 0.0 ? std::min(1.0, vj / total_variance) : 0.0;
    shares[a] = share;
    explained += share;

    // ARD relevance of a parameter: the sum over its coordinates (a categorical's one-hot block).
    double relevance = 0.0;
    if (ard)
      for (int c : axis.coordinates) relevance += (1.0 / lengthscale[c]) / inv_sum;
    out["slices"].push_back({{"param", a},
                             {"name", axis.name},
                             {"type", axis.type},
                             {"x", levels.values},
                             {"mean", vec_json(p.mean)},
                             {"std", vec_json(p.variance.cwiseMax(0.0).cwiseSqrt())},
                             {"partial_dependence", vec_json(pd)}});
    out["importance"].push_back(
        {{"param", a},
         {"name", axis.name},
         {"fanova", total_variance > 0.0 ? nlohmann::json(share) : nlohmann::json(nullptr)},
         {"lengthscale", ard ? nlohmann::json(relevance) : nlohmann::json(nullptr)}});
  }
  out["interactions"] = total_variance > 0.0 ? nlohmann::json(std::max(0.0, 1.0 - explained)) : nlohmann::json(nullptr);
  out["contours"] = contours(*gp, *space, axes, shares, anchor);
  return out;
}

}  // namespace kbo
