// L-BFGS (NLopt LD_LBFGS, bound constrained) and DIRECT (NLopt GN_DIRECT_L) maximisers.
//
// Both record the best finite point they evaluate, so any NLopt exit (success, max evaluations,
// roundoff_limited, generic failure) returns the best point seen rather than losing the run. NaN from
// the objective never escapes: it counts as -inf (worst).
#include <nlopt.hpp>

#include <cmath>
#include <exception>
#include <limits>
#include <vector>

#include "kbo/optimize/optimizer.hpp"

namespace kbo {
namespace {

void check_box(const Box& box, const char* who) {
  if (box.dim() < 1) throw InputError(std::string(who) + ": the box must have at least one dimension");
}

std::vector<double> to_std(const Vec& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

/// Shared state of one NLopt run: the user objective, Eigen scratch buffers (no allocation per call
/// after the first), the best point seen, and an exception thrown by the objective (re-thrown after
/// NLopt returns, since NLopt's C++ wrapper would turn it into a generic "nlopt failure").
struct RunState {
  const Objective* f = nullptr;
  Vec x, grad;
  OptResult best;
  std::exception_ptr error;
  bool stop_on_nan = false;
  double worst_finite = 0.0;
  bool seen_finite = false;

  void record(double v) {
    ++best.evaluations;
    if (std::isfinite(v)) {
      if (!seen_finite || v < worst_finite) worst_finite = v;
      seen_finite = true;
    }
    if (!std::isnan(v) && (best.x.size() == 0 || v > best.value)) {
      best.value = v;
      best.x = x;
    }
  }
};

// Gradient-based objective: a NaN value or gradient stops the run (L-BFGS's line search cannot use
// it); the best point so far is kept.
double lbfgs_callback(unsigned n, const double* xs, double* g, void* data) {
  auto* st = static_cast<RunState*>(data);
  try {
    st->x = Eigen::Map<const Vec>(xs, n);
    double v;
    if (g) {
      v = (*st->f)(st->x, &st->grad);
      if (st->grad.size() != static_cast<Eigen::Index>(n))
        throw InputError("L-BFGS: the objective did not fill a gradient of size " + std::to_string(n) +
                         " (gradient-free objectives need cmaes or direct)");
      Eigen::Map<Vec>(g, n) = st->grad;
      if (!st->grad.allFinite()) v = std::numeric_limits<double>::quiet_NaN();
    } else {
      v = (*st->f)(st->x, nullptr);
    }
    if (std::isnan(v)) {
      st->record(kNegInf);
      throw nlopt::forced_stop();
    }
    st->record(v);
    return v;
  } catch (const nlopt::forced_stop&) {
    throw;
  } catch (...) {
    st->error = std::current_exception();
    throw nlopt::forced_stop();
  }
}

// Gradient-free objective for DIRECT: NaN/±inf are replaced by the worst finite value seen so far, which
// keeps DIRECT's convex-hull arithmetic finite while ranking such points last.
double direct_callback(unsigned n, const double* xs, double* /*g*/, void* data) {
  auto* st = static_cast<RunState*>(data);
  try {
    st->x = Eigen::Map<const Vec>(xs, n);
    double v = (*st->f)(st->x, nullptr);
    if (std::isnan(v)) v = kNegInf;
    st->record(v);
    if (!std::isfinite(v)) return v > 0 ? std::numeric_limits<double>::max() : st->worst_finite;
    return v;
  } catch (...) {
    st->error = std::current_exception();
    throw nlopt::forced_stop();
  }
}

OptResult run(nlopt::opt& opt, RunState& st, std::vector<double> x0) {
  double fval = 0.0;
  try {
    opt.optimize(x0, fval);
  } catch (const nlopt::forced_stop&) {
  } catch (const nlopt::roundoff_limited&) {
  } catch (const std::runtime_error&) {  // NLOPT_FAILURE: keep the best point seen
  }
  if (st.error) std::rethrow_exception(st.error);
  return st.best;
}

}  // namespace

OptResult lbfgs_maximize(const Objective& f, const Vec& x0, const Box& box, const LbfgsOptions& opt) {
  check_box(box, "lbfgs_maximize");
  if (x0.size() != box.dim()) throw InputError("lbfgs_maximize: x0 has the wrong dimension");
  if (opt.max_evaluations < 1) throw InputError("lbfgs_maximize: max_evaluations must be >= 1");
  const unsigned n = static_cast<unsigned>(box.dim());
  nlopt::opt o(nlopt::LD_LBFGS, n);
  o.set_lower_bounds(to_std(box.lower));
  o.set_upper_bounds(to_std(box.upper));
  RunState st;
  st.f = &f;
  o.set_max_objective(lbfgs_callback, &st);
  o.set_maxeval(opt.max_evaluations);
  o.set_ftol_rel(opt.rel_tol);
  o.set_xtol_rel(opt.rel_tol);
  Vec start = box.clamp(x0);
  if (!start.allFinite()) throw InputError("lbfgs_maximize: x0 must be finite");
  OptResult r = run(o, st, to_std(start));
  if (r.x.size() == 0) r.x = start;  // not even x0 could be evaluated: report it as failed (-inf)
  return r;
}

OptResult direct_maximize(const Objective& f, const Box& box, int max_evaluations) {
  check_box(box, "direct_maximize");
  if (max_evaluations < 1) throw InputError("direct_maximize: max_evaluations must be >= 1");
  const unsigned n = static_cast<unsigned>(box.dim());
  nlopt::opt o(nlopt::GN_DIRECT_L, n);
  o.set_lower_bounds(to_std(box.lower));
  o.set_upper_bounds(to_std(box.upper));
  RunState st;
  st.f = &f;
  o.set_max_objective(direct_callback, &st);
  o.set_maxeval(max_evaluations);
  Vec centre = 0.5 * (box.lower + box.upper);
  OptResult r = run(o, st, to_std(centre));
  if (r.x.size() == 0) r.x = centre;
  return r;
}

}  // namespace kbo
