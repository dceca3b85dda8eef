// The multi-start hyperparameter fitter (fit.hpp) and the GP's fitting defaults: bounds and priors per
// parameter role, and GP::fit's starting points.
#include "kbo/model/fit.hpp"

#include "kbo/core/parallel.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <nlopt.hpp>
#include <random>
#include <string>

#include "kbo/core/error.hpp"
#include "kbo/core/random.hpp"
#include "lml_evaluator.hpp"

namespace kbo {

namespace {

// Per-dimension input range of the data (1 where the column is constant or there is no data).
Vec input_ranges(const Mat& X, int dims) {
  Vec r = Vec::Ones(dims);
  if (X.rows() > 1 && X.cols() == dims)
    for (int d = 0; d < dims; ++d) {
      double span = X.col(d).maxCoeff() - X.col(d).minCoeff();
      if (span > 1e-12) r[d] = span;
    }
  return r;
}
// The input range a lengthscale (or period) is measured against: its coordinate's, else the mean.
double range_for(const ParamSpec& spec, const Vec& ranges) {
  if (spec.dim >= 0 && spec.dim < ranges.size()) return ranges[spec.dim];
  return ranges.mean();
}
}  // namespace

// ---- the GP's defaults ----

void GP::default_bounds(Vec& lower, Vec& upper) const {
  const auto specs = hyperparameter_specs();
  const int P = static_cast<int>(specs.size());
  lower.resize(P);
  upper.resize(P);
  Vec ranges = input_ranges(X_, static_cast<int>(X_.cols()));
  // Raw targets: bounds scale with their second moment; all-zero targets (a constant objective seen
  // through a fixed prior mean) carry no scale, so they get the standardised bounds.
  const double m2 = y_.size() == 0 ? 0.0 : y_.squaredNorm() / static_cast<double>(y_.size());
  const double yvar = normalize_ || m2 == 0.0 ? 1.0 : std::max(m2, 1e-12);
  for (int p = 0; p < P; ++p) {
    switch (specs[p].role) {
      case ParamRole::Lengthscale:
      case ParamRole::Period: {
        double r = range_for(specs[p], ranges);
        lower[p] = std::log(1e-3 * r);
        upper[p] = std::log(1e3 * r);
        break;
      }
      case ParamRole::Variance:
        lower[p] = std::log(1e-4 * yvar);
        upper[p] = std::log(1e4 * yvar);
        break;
      case ParamRole::Noise:
        lower[p] = std::log(1e-8 * yvar);
        upper[p] = std::log(yvar);
        break;
      case ParamRole::Other:
        lower[p] = std::log(1e-4);
        upper[p] = std::log(1e4);
        break;
    }
    if (specs[p].log_lower) lower[p] = *specs[p].log_lower;
    if (specs[p].log_upper) upper[p] = *specs[p].log_upper;
  }
}

std::vector<Prior> GP::default_priors() const {
  const auto specs = hyperparameter_specs();
  const int P = static_cast<int>(specs.size());
  std::vector<Prior> priors(P);
  Vec ranges = input_ranges(X_, static_cast<int>(X_.cols()));
  for (int p = 0; p < P; ++p) {
    if (specs[p].prior) {
      priors[p] = *specs[p].prior;
      continue;
    }
    switch (specs[p].role) {
      case ParamRole::Lengthscale: priors[p] = Prior::gamma(3.0, 6.0 / range_for(specs[p], ranges)); break;
      case ParamRole::Variance: priors[p] = Prior::gamma(2.0, 0.15); break;
      case ParamRole::Noise: priors[p] = Prior::gamma(1.1, 0.05); break;
      case ParamRole::Period:
      case ParamRole::Other: break;
    }
  }
  return priors;
}

double GP::fit(const FitOptions& options) {
  if (X_.rows() == 0) throw InputError("GP: fit needs data");
  const Vec theta0 = hyperparameters();
  const int P = static_cast<int>(theta0.size());
  HyperparameterFit fit;
  fit.lower = options.lower;
  fit.upper = options.upper;
  if (fit.lower.size() == 0 || fit.upper.size() == 0) default_bounds(fit.lower, fit.upper);
  if (fit.lower.size() != P || fit.upper.size() != P)
    throw InputError("GP fit: bounds must have one value per hyperparameter");
  const Vec& lower = fit.lower;
  const Vec& upper = fit.upper;
  fit.mask = options.fit_mask;
  if (fit.mask.empty()) {
    fit.mask.assign(P, true);
    fit.mask[P - 1] = learn_noise_;
  }
  if (static_cast<int>(fit.mask.size()) != P) throw InputError("GP fit: the mask must have one entry per hyperparameter");
  fit.map = options.map;
  fit.priors = options.priors;
  if (options.map && fit.priors.empty()) fit.priors = default_priors();
  std::vector<int> free;
  for (int p = 0; p < P; ++p)
    if (fit.mask[p]) free.push_back(p);
  if (free.empty()) {
    refactor();
    return lml_;
  }

  // Starting points: the current θ (clamped), then random restarts in data-aware ranges per role.
  fit.starts.push_back(theta0.cwiseMax(lower).cwiseMin(upper));
  Rng rng = make_rng(options.seed + 7919);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  const auto specs = hyperparameter_specs();
  Vec ranges = input_ranges(X_, static_cast<int>(X_.cols()));
  for (int r = 0; r < options.restarts; ++r) {
    Vec t = fit.starts[0];
    for (int p : free) {
      double lo, hi;
      if (specs[p].role == ParamRole::Lengthscale) {
        double s = range_for(specs[p], ranges);
        lo = std::log(0.05 * s), hi = std::log(2.0 * s);
      } else if (specs[p].role == ParamRole::Noise) {
        // Between 1e-4 and 0.3 of the target variance: tiny-noise starts tend to get stuck in
        // interpolating optima with lower likelihood.
        lo = std::max(lower[p], upper[p] + std::log(1e-4));
        hi = std::min(upper[p], upper[p] + std::log(0.3));
      } else {
        lo = theta0[p] - std::log(10.0), hi = theta0[p] + std::log(10.0);
      }
      t[p] = std::clamp(lo + (hi - lo) * unif(rng), lower[p], upper[p]);
    }
    fit.starts.push_back(t);
  }
  fit.polish = options.polish > 0 ? options.polish : (X_.rows() < 200 ? 3 : 1);
  fit.max_evaluations = options.max_evaluations;

  const FitResult result = fit_hyperparameters(*this, fit);
  set_hyperparameters(result.theta);
  return result.value;
}

// ---- the fitter ----

namespace {

// One problem, checked and with its starts clamped and screened.
struct Prepared {
  const GP* gp;
  const HyperparameterFit* fit;
  std::vector<int> free;    // indices of the entries that move
  std::vector<Vec> starts;  // the starts to polish
};

// fit's objective at θ: LML (+ log priors with map).
double objective(const HyperparameterFit& fit, detail::LmlEvaluator& eval, const Vec& theta, Vec* grad) {
  double value = eval(theta, grad);
  if (fit.map) {
    const int P = static_cast<int>(theta.size());
    for (int p = 0; p < P && p < static_cast<int>(fit.priors.size()); ++p) {
      double d = 0.0;
      value += fit.priors[p].log_density(theta[p], &d);
      if (grad) (*grad)[p] += d;
    }
  }
  return value;
}

Prepared prepare(const GP& gp, const HyperparameterFit& fit) {
  const int P = gp.kernel().num_params() + 1;
  if (gp.size() == 0) throw InputError("fit_hyperparameters: the GP has no data");
  if (fit.starts.empty()) throw InputError("fit_hyperparameters: no starting point");
  if (fit.lower.size() != P || fit.upper.size() != P)
    throw InputError("fit_hyperparameters: bounds must have one value per hyperparameter (" + std::to_string(P) + ")");
  if (!fit.mask.empty() && static_cast<int>(fit.mask.size()) != P)
    throw InputError("fit_hyperparameters: the mask must have one entry per hyperparameter (" + std::to_string(P) + ")");
  Prepared prep{&gp, &fit, {}, {}};
  for (int p = 0; p < P; ++p)
    if (fit.mask.empty() || fit.mask[p]) prep.free.push_back(p);
  for (const Vec& s : fit.starts) {
    if (s.size() != P)
      throw InputError("fit_hyperparameters: a start has " + std::to_string(s.size()) + " entries, expected " +
                       std::to_string(P));
    prep.starts.push_back(s.cwiseMax(fit.lower).cwiseMin(fit.upper));
  }
  // Screen every start by its objective value (no gradient: one Cholesky each), polish the best few.
  const std::size_t count = prep.starts.size();
  if (fit.polish > 0 && static_cast<std::size_t>(fit.polish) < count) {
    std::vector<double> screened(count, kNegInf);
    detail::LmlEvaluator eval(gp.kernel(), gp.X(), gp.targets(), gp.known_noise_targets());
    for (std::size_t s = 0; s < count; ++s) {
      try {
        screened[s] = objective(fit, eval, prep.starts[s], nullptr);
      } catch (const NumericalError&) {
      }
      if (!std::isfinite(screened[s])) screened[s] = kNegInf;
    }
    std::vector<std::size_t> order(count);
    for (std::size_t s = 0; s < count; ++s) order[s] = s;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return screened[a] > screened[b]; });
    std::vector<Vec> kept;
    for (int i = 0; i < fit.polish; ++i) kept.push_back(prep.starts[order[i]]);
    prep.starts = std::move(kept);
  }
  return prep;
}

struct Outcome {
  Vec theta;
  double value = kNegInf;
};

// One capped L-BFGS run from `start`; the best point seen (not necessarily the last) is the outcome.
Outcome polish_run(const Prepared& prep, const Vec& start) {
  const HyperparameterFit& fit = *prep.fit;
  const std::vector<int>& free = prep.free;
  Outcome best{start, kNegInf};
  if (free.empty()) {  // nothing moves: the start is the result
    detail::LmlEvaluator eval(prep.gp->kernel(), prep.gp->X(), prep.gp->targets(), prep.gp->known_noise_targets());
    try {
      best.value = objective(fit, eval, start, nullptr);
    } catch (const NumericalError&) {
    }
    if (!std::isfinite(best.value)) best.value = kNegInf;
    return best;
  }
  std::vector<double> x(free.size()), lo(free.size()), hi(free.size());
  for (std::size_t i = 0; i < free.size(); ++i) x[i] = start[free[i]], lo[i] = fit.lower[free[i]], hi[i] = fit.upper[free[i]];
  detail::LmlEvaluator eval(prep.gp->kernel(), prep.gp->X(), prep.gp->targets(), prep.gp->known_noise_targets());
  struct Ctx {
    const HyperparameterFit* fit;
    detail::LmlEvaluator* eval;
    const std::vector<int>* free;
    Vec theta;
    Vec grad;
    Outcome* best;
  } ctx{&fit, &eval, &free, start, Vec(), &best};
  auto fn = [](unsigned n, const double* xv, double* g, void* data) -> double {
    auto* c = static_cast<Ctx*>(data);
    for (unsigned i = 0; i < n; ++i) c->theta[(*c->free)[i]] = xv[i];
    Vec& grad = c->grad;
    double v;
    try {
      v = objective(*c->fit, *c->eval, c->theta, g ? &grad : nullptr);
    } catch (const NumericalError&) {
      v = kNegInf;
    }
    if (!std::isfinite(v)) {
      if (g) std::fill(g, g + n, 0.0);
      return -1e300;
    }
    if (g)
      for (unsigned i = 0; i < n; ++i) g[i] = std::isfinite(grad[(*c->free)[i]]) ? grad[(*c->free)[i]] : 0.0;
    if (v > c->best->value) c->best->value = v, c->best->theta = c->theta;
    return v;
  };
  nlopt::opt opt(nlopt::LD_LBFGS, static_cast<unsigned>(free.size()));
  opt.set_lower_bounds(lo);
  opt.set_upper_bounds(hi);
  opt.set_max_objective(fn, &ctx);
  opt.set_maxeval(fit.max_evaluations);
  // Looser tolerances were tried: ftol 1e-5 saves only ~20% of the evaluations at n = 50 (the
  // count is set by the path to the optimum, not by the endgame) and moves the LML by 2e-4.
  opt.set_ftol_rel(1e-7);
  opt.set_xtol_rel(1e-5);
  double f = 0.0;
  try {
    opt.optimize(x, f);
  } catch (const std::exception&) {
    // roundoff-limited or forced stop: the best point seen is kept in `best`.
  }
  return best;
}

}  // namespace

std::vector<FitResult> fit_hyperparameters(const std::vector<const GP*>& gps, const std::vector<HyperparameterFit>& fits) {
  if (gps.size() != fits.size()) throw InputError("fit_hyperparameters: one fit per GP expected");
  std::vector<Prepared> problems;
  struct Run {
    std::size_t problem, start;
  };
  std::vector<Run> runs;
  for (std::size_t m = 0; m < gps.size(); ++m) {
    if (!gps[m]) throw InputError("fit_hyperparameters: null GP");
    problems.push_back(prepare(*gps[m], fits[m]));
    for (std::size_t s = 0; s < problems.back().starts.size(); ++s) runs.push_back({m, s});
  }

  std::vector<Outcome> outcomes(runs.size());
  // Every run in kbo's pool, at every n: BLAS stays single-threaded (kbo/core/blas_threads.hpp), so two
  // runs on two cores beat one run on two BLAS threads, which spin against other work. Each run writes
  // its own slot, so the result does not depend on the scheduling.
  parallel_for(static_cast<int>(runs.size()), 0, [&](int j) {
    const Prepared& prep = problems[runs[static_cast<std::size_t>(j)].problem];
    outcomes[static_cast<std::size_t>(j)] = polish_run(prep, prep.starts[runs[static_cast<std::size_t>(j)].start]);
  });

  // Deterministic reduction per problem: the first best in start order.
  std::vector<FitResult> results(problems.size());
  std::vector<const Outcome*> best(problems.size(), nullptr);
  for (std::size_t j = 0; j < runs.size(); ++j) {
    const std::size_t m = runs[j].problem;
    const Outcome& o = outcomes[j];
    results[m].run_values.push_back(std::isfinite(o.value) ? o.value : kNegInf);
    if (std::isfinite(o.value) && (!best[m] || o.value > best[m]->value)) best[m] = &o;
  }
  for (std::size_t m = 0; m < problems.size(); ++m) {
    if (!best[m]) throw NumericalError("hyperparameter fit: the likelihood could not be evaluated at any starting point");
    results[m].theta = best[m]->theta;
    results[m].value = best[m]->value;
  }
  return results;
}

FitResult fit_hyperparameters(const GP& gp, const HyperparameterFit& fit) {
  return fit_hyperparameters(std::vector<const GP*>{&gp}, std::vector<HyperparameterFit>{fit}).front();
}

}  // namespace kbo
