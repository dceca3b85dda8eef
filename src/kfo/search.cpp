#include "kbo/kfo/search.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/error.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/core/random.hpp"
#include "kbo/core/space.hpp"

namespace kbo::kfo {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

SearchResult search_functional(const FunctionalObjective& f, int dimension, const SearchOptions& o, const Vec& z_start) {
  if (dimension < 1) throw InputError("KFO search: dimension must be >= 1");
  if (o.subspaces < 1 || o.iterations < 0 || o.basis_per_subspace < 1 || o.n_init_per_subspace < 1)
    throw InputError("KFO search: need subspaces >= 1, iterations >= 0, basis_per_subspace >= 1, n_init_per_subspace >= 1");
  if (!(o.lambda_lo >= 0.0 && o.lambda_lo < 1.0)) throw InputError("KFO search: lambda_lo must be in [0, 1)");
  if (z_start.size() != 0 && z_start.size() != dimension) throw InputError("KFO search: z_start has the wrong size");

  const auto t_total = Clock::now();
  Rng rng = make_rng(o.seed);
  std::normal_distribution<double> n01(0.0, 1.0);
  std::uniform_real_distribution<double> ulam(o.lambda_lo, 1.0);
  const int d = o.basis_per_subspace;

  SearchResult res;
  Vec z_sharp = z_start.size() ? z_start : Vec::Zero(dimension);
  res.z_best = z_sharp;
  res.y_best = -std::numeric_limits<double>::infinity();

  double worst = std::numeric_limits<double>::infinity();
  auto evaluate = [&](const Vec& z, int s) {
    const auto t0 = Clock::now();
    const double value = f(z);
    res.seconds_evaluating += seconds_since(t0);
    // A failed evaluation counts as the worst value seen so far in the outer GP's data (keeps its scale
    // sane), but is never the best: before this, a failure as the first evaluation scored 0.0 and could win.
    const double y = std::isfinite(value) ? value : (std::isfinite(worst) ? worst : 0.0);
    worst = std::min(worst, y);
    res.z.push_back(z);
    res.y.push_back(y);
    res.subspace.push_back(s);
    if (std::isfinite(value) && y > res.y_best) {
      res.y_best = y;
      res.z_best = z;
    }
    if (o.on_evaluation) o.on_evaluation(static_cast<int>(res.z.size()), search_evaluations(o), res.y_best);
  };
  if (o.evaluate_start) evaluate(z_sharp, -1);

  std::size_t subspace_begin = 0;  // first index of the data the outer GP uses
  for (int s = 0; s < o.subspaces; ++s) {
    Mat B(dimension, d);
    for (int i = 0; i < dimension; ++i)
      for (int j = 0; j < d; ++j) B(i, j) = n01(rng);
    if (o.reset_gp_per_subspace) subspace_begin = res.z.size();
    auto z_of = [&](const Vec& lam) -> Vec { return z_sharp + B * lam; };

    for (int i = 0; i < o.n_init_per_subspace; ++i) {
      Vec lam(d);
      for (int j = 0; j < d; ++j) lam(j) = ulam(rng);
      evaluate(z_of(lam), s);
    }
    for (int t = 1; t <= o.iterations; ++t) {
      const std::size_t n = res.z.size() - subspace_begin;
      Mat Z(n, dimension);
      Vec Y(n);
      for (std::size_t i = 0; i < n; ++i) {
        Z.row(i) = res.z[subspace_begin + i].transpose();
        Y(i) = res.y[subspace_begin + i];
      }
      // Outer GP: SE kernel on the PCA coordinates (the RKHS distance ||z1 − z2||, eq. 7), near-noiseless.
      GP gp(std::make_unique<StationaryKernel>(StationaryType::RBF, dimension, false), 1e-6, true, false);
      gp.set_data(Z, Y);
      FitOptions fo;
      fo.restarts = o.fit_restarts;
      fo.max_evaluations = 60;
      fo.seed = rng();
      try {
        gp.fit(fo);
      } catch (const NumericalError&) {
        // keep the initial hyperparameters
      }
      const double beta = beta_srinivas(t, d, o.delta);
      UpperConfidenceBound ucb(gp, beta);
      Objective acq = [&](const Vec& lam, Vec* grad) {
        const Vec z = z_of(lam);
        if (grad) {
          Vec gz;
          const double v = ucb.value_and_gradient(z, gz);
          *grad = B.transpose() * gz;
          return v;
        }
        return ucb.value(z);
      };
      BoxSpace space(Box(Vec::Constant(d, o.lambda_lo), Vec::Ones(d)));
      AcqOptimizerOptions ao;
      ao.raw_samples = 64;
      ao.num_starts = 3;
      ao.max_evaluations = 60;
      ao.threads = 1;
      ao.seed = rng();
      OptResult best = maximize_objective(acq, space, ao);
      evaluate(z_of(best.x), s);
    }
    z_sharp = res.z_best;  // bias the next subspace by the best kernel so far
  }
  res.seconds_optimising = std::max(0.0, seconds_since(t_total) - res.seconds_evaluating);
  return res;
}

int search_evaluations(const SearchOptions& o) {
  return (o.evaluate_start ? 1 : 0) + o.subspaces * (o.n_init_per_subspace + o.iterations);
}

}  // namespace kbo::kfo
