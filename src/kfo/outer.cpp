#include "kbo/kfo/outer.hpp"

#include <cmath>
#include <limits>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/error.hpp"
#include "kbo/model/gp.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/multistart.hpp"
#include "kbo/core/space.hpp"

namespace kbo::kfo {

OuterResult tune_hyperkernel(const HyperObjective& gamma, const OuterOptions& o) {
  if (o.n_init < 1 || o.iterations < 0) throw InputError("outer BO: need n_init >= 1 and iterations >= 0");
  if (!(o.lambda_lo > 0.0 && o.lambda_lo < o.lambda_hi && o.lambda_hi < 1.0))
    throw InputError("outer BO: need 0 < lambda_lo < lambda_hi < 1");
  if (!(o.l_lo > 0.0 && o.l_lo < o.l_hi)) throw InputError("outer BO: need 0 < l_lo < l_hi");
  // The GP works on the unit square: u0 ↦ λh linearly, u1 ↦ l on a log scale (l spans two decades).
  auto theta_of = [&](const Vec& u) {
    return HyperkernelParams{o.lambda_lo + u(0) * (o.lambda_hi - o.lambda_lo),
                             std::exp(std::log(o.l_lo) + u(1) * (std::log(o.l_hi) - std::log(o.l_lo)))};
  };
  OuterResult res;
  res.best_value = -std::numeric_limits<double>::infinity();
  Mat U(0, 2);
  Vec Y(0);
  auto evaluate = [&](const Vec& u) {
    const HyperkernelParams th = theta_of(u);
    const double value = gamma(th);
    // A failed inner search enters the outer GP's data as the worst value so far, but is never the best.
    const double v = std::isfinite(value) ? value : (Y.size() ? Y.minCoeff() : 0.0);
    U.conservativeResize(U.rows() + 1, 2);
    U.row(U.rows() - 1) = u.transpose();
    Y.conservativeResize(Y.size() + 1);
    Y(Y.size() - 1) = v;
    res.thetas.push_back(th);
    res.values.push_back(v);
    if (std::isfinite(value) && v > res.best_value) {
      res.best_value = v;
      res.best = th;
      res.best_index = static_cast<int>(res.values.size()) - 1;
    }
  };
  Sobol sobol(2, o.seed + 1);
  for (int i = 0; i < o.n_init; ++i) evaluate(sobol.next());
  Rng rng = make_rng(o.seed);
  for (int it = 0; it < o.iterations; ++it) {
    GP gp(std::make_unique<StationaryKernel>(StationaryType::RBF, 2, true, 0.3), 1e-4, true, true);
    gp.set_data(U, Y);
    FitOptions fo;
    fo.restarts = 2;
    fo.seed = rng();
    try {
      gp.fit(fo);
    } catch (const NumericalError&) {
    }
    LogExpectedImprovement ei(gp, Y.maxCoeff());
    BoxSpace space(Box::unit(2));
    AcqOptimizerOptions ao;
    ao.raw_samples = 256;
    ao.num_starts = 4;
    ao.threads = 1;
    ao.seed = rng();
    evaluate(maximize_acquisition(ei, space, ao).x);
  }
  return res;
}

}  // namespace kbo::kfo
