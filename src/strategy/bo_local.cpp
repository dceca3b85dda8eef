// BOStrategy's local trust-region step, the end-game's (BOModelOptions::endgame_fraction;
// include/kbo/strategy/bo_strategy.hpp).
//
// Why: the global GP standardises all observations together, so when the values span orders of magnitude
// (ill-conditioned or steep functions) the differences among the best few are a sliver of the targets'
// range, below the model's noise; and UCB keeps exploring the box. A GP fitted only to the observations
// around the incumbent, scaled on them alone, sees the local bowl at its own scale; its acquisition,
// maximised in a trust region around the incumbent, takes the precise steps the global model cannot
// (TuRBO's rule, Eriksson et al. 2019: a radius that halves on failed local steps and doubles on successful
// ones, replayed from the trial history, trust_region.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "constant_mean_kernel.hpp"
#include "kbo/strategy/bo_strategy.hpp"
#include "kbo/strategy/trust_region.hpp"

namespace kbo {

TrustRegion BOStrategy::replay_region(const Vec& y) const {
  TrustRegionRule rule;
  rule.initial = model_options_.local_radius;
  rule.min = model_options_.local_radius_min;
  rule.max = model_options_.local_radius_max;
  rule.fail = model_options_.local_fail;
  rule.succ = model_options_.local_succ;
  rule.restart = model_options_.local_restart;
  rule.restart_global = false;  // a stalled region restarts in place (bo_model_options.hpp)
  rule.restart_max = model_options_.local_restart_max;
  // Row i is trial i: local steps are taken only when no trial is pending or failed, so the completed
  // rows are all the trials (but for trials that neither completed nor count towards the budget).
  return replay_trust_region(y, [this](int t) { return schedule_->is_local(t, budget_); }, rule);
}

nlohmann::json BOStrategy::describe_region(const TrustRegion& tr) {
  return {{"radius", tr.radius},     {"local_steps", tr.local_steps}, {"successes", tr.successes},
          {"failures", tr.failures}, {"halvings", tr.halvings},       {"doublings", tr.doublings},
          {"restarts", tr.restarts}};
}

namespace {

// The lengthscale of every coordinate (unit-cube units) in θ: distances in them find an ill-conditioned
// valley's neighbours along it.
Vec coordinate_lengthscales(const Vec& theta, const std::vector<ParamSpec>& specs, Eigen::Index D) {
  Vec scale = Vec::Ones(D);
  for (std::size_t p = 0; p < specs.size(); ++p) {
    if (specs[p].role != ParamRole::Lengthscale) continue;
    if (specs[p].dim < 0)
      scale.setConstant(std::exp(theta[static_cast<Eigen::Index>(p)]));
    else if (specs[p].dim < D)
      scale[specs[p].dim] = std::exp(theta[static_cast<Eigen::Index>(p)]);
  }
  return scale;
}

// The maximiser of q(s) = gᵀs + ½ sᵀHs over the box [slo, shi] (q(0) = 0 the baseline): projected gradient
// ascent (step 1/L, L the Hessian's spectral bound) from 0 and from the clipped Newton point — enough for
// the few coordinates of a local step, concave or not. best_q receives its value.
Vec maximize_quadratic(const Vec& g, const Mat& H, const Vec& slo, const Vec& shi, double& best_q) {
  const Eigen::Index D = g.size();
  auto q = [&](const Vec& s) { return g.dot(s) + 0.5 * s.dot(H * s); };
  auto clip = [&](const Vec& s) { return Vec(s.cwiseMax(slo).cwiseMin(shi)); };
  const double L = std::max(H.cwiseAbs().rowwise().sum().maxCoeff(), 1e-12);
  std::vector<Vec> starts{Vec::Zero(D)};
  const Eigen::LDLT<Mat> ldlt(-H);
  if (ldlt.info() == Eigen::Success && ldlt.isPositive()) {
    const Vec newton = ldlt.solve(g);
    if (newton.allFinite()) starts.push_back(clip(newton));
  }
  Vec best_s = Vec::Zero(D);
  best_q = 0.0;
  for (Vec s : starts) {
    for (int it = 0; it < 500; ++it) {
      const Vec next = clip(s + (g + H * s) / L);
      const bool still = (next - s).cwiseAbs().maxCoeff() < 1e-12;
      s = next;
      if (still) break;
    }
    if (q(s) > best_q) best_q = q(s), best_s = s;
  }
  return best_s;
}

}  // namespace

KernelPtr BOStrategy::local_chart(const Vec& incumbent, Mat& U) const {
  // An invariant model sees every observation at its orbit point nearest the incumbent (the same value by
  // invariance), and the local GP models the function there with the base kernel. A model with no chart of
  // its own borrows a candidate's that holds for every model of the space (NamedKernel::lends_chart: the
  // plain kernel of a set space's canonical vector models the elements in the incumbent's order).
  if (KernelPtr base = gp_->kernel().local_chart(incumbent, U)) return with_constant_mean(std::move(base), gls_mean_variance());
  for (const NamedKernel& c : candidates_)
    if (c.lends_chart && c.kernel->local_chart(incumbent, U)) return gp_->kernel().clone();
  return nullptr;
}

std::vector<Eigen::Index> BOStrategy::local_neighbours(const Mat& U, Eigen::Index best, const Vec& scale,
                                                       Eigen::Index m) const {
  const Vec centre = U.row(best).transpose();
  Vec dist(U.rows());
  for (Eigen::Index i = 0; i < U.rows(); ++i) dist[i] = ((U.row(i).transpose() - centre).cwiseQuotient(scale)).squaredNorm();
  std::vector<Eigen::Index> rows(static_cast<std::size_t>(U.rows()));
  std::iota(rows.begin(), rows.end(), Eigen::Index{0});
  std::stable_sort(rows.begin(), rows.end(), [&](Eigen::Index a, Eigen::Index b) { return dist[a] < dist[b]; });
  rows.resize(static_cast<std::size_t>(m));
  return rows;
}

std::optional<Vec> BOStrategy::local_step(const Mat& U_raw, const Vec& y, Eigen::Index best, int trial_index) {
  Mat U_chart;
  KernelPtr chart_kernel;  // the local GP's kernel in the chart, constant mean included
  if (model_options_.local_chart) {
    U_chart = U_raw;
    chart_kernel = local_chart(U_raw.row(best).transpose(), U_chart);
  }
  const bool charted = chart_kernel != nullptr;  // chart_kernel itself moves into the local GP below
  const Mat& U = charted ? U_chart : U_raw;
  const Eigen::Index n = U.rows(), D = U.cols();
  // A quadratic has p = (D + 1)(D + 2)/2 coefficients: twice as many neighbours fit it (at least 5·(D + 1)).
  const Eigen::Index p = (D + 1) * (D + 2) / 2;
  const Eigen::Index m_quadratic = std::max<Eigen::Index>(5 * (D + 1), 2 * p);
  const Eigen::Index m = std::min<Eigen::Index>(n, m_quadratic);
  if (m < 3) return std::nullopt;
  const Vec centre = U.row(best).transpose();
  // Distances in the global model's lengthscales (in the chart, the chart kernel's).
  const Vec theta = charted ? chart_kernel->log_params() : gp_->hyperparameters();
  const auto specs = charted ? chart_kernel->param_specs() : gp_->hyperparameter_specs();
  std::vector<Eigen::Index> rows = local_neighbours(U, best, coordinate_lengthscales(theta, specs, D), m);
  // The box the neighbours span around the incumbent (symmetric): the scale of the local fit.
  Vec spread = Vec::Zero(D);
  for (Eigen::Index r : rows) spread = spread.cwiseMax((U.row(r).transpose() - centre).cwiseAbs());
  if (!(spread.maxCoeff() > 0.0)) return std::nullopt;
  for (Eigen::Index j = 0; j < D; ++j)
    if (!(spread[j] > 0.0)) spread[j] = spread.maxCoeff();  // a coordinate all neighbours share: no information
  // The trust region: a cube of the radius replayed from the trial history, which shrinks on failed local
  // steps and grows on successful ones (trust_region.hpp).
  const TrustRegion tr = replay_region(y);
  const Vec half = Vec::Constant(D, tr.radius);
  const Vec lo = (centre - half).cwiseMax(0.0), hi = (centre + half).cwiseMin(1.0);
  if (!((hi - lo).array() > 0.0).all()) return std::nullopt;
  nlohmann::json local = {{"points", m}, {"half_width", std::vector<double>(half.data(), half.data() + D)}};
  if (charted) local["chart"] = true;
  local["trust_region"] = describe_region(tr);
  if (std::optional<Vec> step = local_quadratic_step(U, y, rows, best, spread, lo, hi, tr, local)) {
    info_["local"] = local;
    return step;
  }
  info_["local"] = local;
  // Where the quadratic does not fit, the local GP: on the quadratic's neighbours, unless those are every
  // observation (in 6 dimensions the quadratic takes 56, every point of a 55-evaluation run: no longer
  // local), then on its own 5·(D + 1) nearest; a long run's GP is better on the quadratic's 2p.
  if (m_quadratic >= n) rows.resize(static_cast<std::size_t>(std::min<Eigen::Index>(m, 5 * (D + 1))));
  info_["local"]["gp_points"] = rows.size();
  // warm start: the global model's θ (the chart's base kernel holds it too)
  const Vec u = local_gp_step(charted ? std::move(chart_kernel) : gp_->kernel().clone(), U, y, rows, centre, lo, hi,
                              trial_index);
  if (!u.allFinite()) return std::nullopt;
  return u;
}

std::optional<Vec> BOStrategy::local_quadratic_step(const Mat& U, const Vec& y, const std::vector<Eigen::Index>& rows,
                                                    Eigen::Index best, const Vec& spread, const Vec& lo, const Vec& hi,
                                                    const TrustRegion& tr, nlohmann::json& local) const {
  // The quadratic's maximiser, unless it repeats an observation (a corner of an indefinite fit, typically):
  // then the local GP takes the step.
  const Eigen::Index D = U.cols();
  const Vec centre = U.row(best).transpose();
  double r2 = std::numeric_limits<double>::quiet_NaN();  // stays NaN (JSON null) when no quadratic was fitted
  std::optional<Vec> u = quadratic_step(U, y, rows, centre, spread, lo, hi, &r2);
  // A quadratic that explains less than local_min_r2 of the neighbours' variance is the wrong model there
  // (a kink, a ridge, ruggedness): the local GP takes the step.
  if (r2 < model_options_.local_min_r2) u.reset();
  double used = tr.radius;
  // A maximiser next to an observation other than the incumbent (within a tenth of the radius) repeats a
  // point where the model was already wrong — a least-squares fit barely moves for one more residual —
  // so the region is halved at once and the step re-solved (at most 4 times), as a trust region would
  // after the failure that point was, instead of spending the next trials on near-copies of it.
  Mat others(U.rows() - 1, D);
  for (Eigen::Index i = 0, k = 0; i < U.rows(); ++i)
    if (i != best) others.row(k++) = U.row(i);
  for (int k = 0; k < 4 && u && min_row_distance(*u, others) < 0.1 * used; ++k) {
    used /= 2.0;
    const Vec lo_k = (centre.array() - used).cwiseMax(0.0), hi_k = (centre.array() + used).cwiseMin(1.0);
    u = quadratic_step(U, y, rows, centre, spread, lo_k, hi_k);
  }
  const double repeat = std::min(1e-6, 1e-3 * used);
  if (u && min_row_distance(*u, U) < repeat) u.reset();
  local["model"] = "quadratic";
  local["fitted"] = u.has_value();
  local["r2"] = r2;
  local["fit_power"] = model_options_.local_fit_power;
  local["radius_used"] = used;
  return u;
}

Vec BOStrategy::local_gp_step(KernelPtr kernel, const Mat& U, const Vec& y, const std::vector<Eigen::Index>& rows,
                              const Vec& centre, const Vec& lo, const Vec& hi, int trial_index) {
  const Mat Ul = U(rows, Eigen::all);
  const Vec yl = model_targets(y(rows), model_options_.local_warp);  // scaled on the neighbours alone
  std::optional<GP> local;
  local.emplace(new_model(std::move(kernel)));
  local->set_data(Ul, yl);
  {
    // The local GP is near-exact unless the objective is known to be noisy (inferred so, or noise "free"
    // given by the user; a structured kernel's preset frees the global model's noise only): with a free
    // level the local fit on a rugged objective took the ruggedness for noise (docs/bench/structure.md,
    // Ackley-2d-fpf's end-game). For this fit only, however it ends (noise_cap() reads fit_noise_cap_).
    const bool exact = !noisy_ && (model_options_.noise != NoiseModel::Free || noise_from_preset_);
    fit_noise_cap_ = exact ? NoiseLevels::exact_cap : 0.0;
    const struct ResetCap {
      double& cap;
      ~ResetCap() { cap = 0.0; }
    } reset{fit_noise_cap_};
    refit({&local}, trial_index);
  }
  const auto acq = std::make_unique<UpperConfidenceBound>(*local, model_options_.local_beta);
  AcqOptimizerOptions opt = config_.acq_optimizer;
  opt.seed = trial_seed(config_.seed ^ 0x10CA1ULL, trial_index);
  const BoxSpace region(Box(lo, hi));
  const OptResult res = maximize_acquisition(*acq, region, opt, centre.transpose());
  info_["local"]["gp_noise"] = local->noise_variance();
  return res.x;
}

std::optional<Vec> BOStrategy::quadratic_step(const Mat& U, const Vec& y, const std::vector<Eigen::Index>& rows,
                                              const Vec& centre, const Vec& scale, const Vec& lo, const Vec& hi,
                                              double* r2) const {
  const Eigen::Index D = U.cols(), m = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index p = (D + 1) * (D + 2) / 2;
  if (m <= p) return std::nullopt;  // at least one residual degree of freedom
  // Coordinates s = (u − centre) / h, h the neighbours' extent, so every coefficient is of order one.
  const Vec& h = scale;
  // Values relative to the incumbent's, scaled by their spread: the fit is affine-invariant in y anyway.
  const Vec yr = y(rows);
  const double y0 = y.maxCoeff(), spread = std::max((yr.array() - y0).abs().maxCoeff(), 1e-300);
  Mat A(m, p);
  Vec t(m);
  for (Eigen::Index r = 0; r < m; ++r) {
    const Vec s = (U.row(rows[static_cast<std::size_t>(r)]).transpose() - centre).cwiseQuotient(h);
    Eigen::Index c = 0;
    A(r, c++) = 1.0;
    for (Eigen::Index j = 0; j < D; ++j) A(r, c++) = s[j];
    for (Eigen::Index j = 0; j < D; ++j)
      for (Eigen::Index k = j; k < D; ++k) A(r, c++) = s[j] * s[k];
    t[r] = (yr[r] - y0) / spread;
  }
  // Row weights (BOModelOptions::local_fit_power): (gap + g₀)^−power, the incumbent's gap 0.
  const double power = model_options_.local_fit_power;
  Vec w = Vec::Ones(m);
  if (power > 0.0) {
    double floor_gap = std::numeric_limits<double>::infinity();
    for (Eigen::Index r = 0; r < m; ++r)
      if (-t[r] > 0.0) floor_gap = std::min(floor_gap, -t[r]);
    if (std::isfinite(floor_gap)) w = (floor_gap - t.array()).pow(-power).matrix();
  }
  const Mat WA = w.asDiagonal() * A;
  const Vec wt = w.cwiseProduct(t);
  const Eigen::ColPivHouseholderQR<Mat> qr(WA);
  if (qr.rank() < p) return std::nullopt;  // the neighbours do not determine a quadratic
  const Vec coef = qr.solve(wt);
  if (!coef.allFinite()) return std::nullopt;
  if (r2) {  // weighted as the fit (unweighted, the walls' variance passes a fit that misses the floor)
    const double mean = w.cwiseProduct(wt).sum() / w.squaredNorm();
    const double total = (wt - mean * w).squaredNorm();
    *r2 = total > 0.0 ? 1.0 - (WA * coef - wt).squaredNorm() / total : 1.0;
  }
  // q(s) = c + gᵀs + ½ sᵀHs, maximised in the box.
  const Vec g = coef.segment(1, D);
  Mat H(D, D);
  Eigen::Index c = 1 + D;
  for (Eigen::Index j = 0; j < D; ++j)
    for (Eigen::Index k = j; k < D; ++k, ++c) {
      H(j, k) = H(k, j) = j == k ? 2.0 * coef[c] : coef[c];
    }
  const Vec slo = (lo - centre).cwiseQuotient(h), shi = (hi - centre).cwiseQuotient(h);
  double best_q = 0.0;
  const Vec best_s = maximize_quadratic(g, H, slo, shi, best_q);
  if (!(best_q > 0.0) || !(best_s.cwiseAbs().maxCoeff() > 1e-9)) return std::nullopt;  // no predicted gain
  return Vec(centre + best_s.cwiseProduct(h));
}

}  // namespace kbo
