// Acquisition maximisation: scrambled-Sobol candidates scored in one batch, the best few (plus the
// caller's extra starts) polished by L-BFGS or CMA-ES in parallel, or DIRECT over the whole box.
//
// Determinism: every start has its own seed (derived from options.seed and the start's index) and its
// own result slot; the reduction scans the slots in index order (ties keep the lower index). The result
// therefore does not depend on the number of threads or on scheduling.
#include "kbo/optimize/multistart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "kbo/core/parallel.hpp"
#include "kbo/core/random.hpp"
#include "kbo/optimize/mixed_search.hpp"

namespace kbo {
namespace {

double nan_to_worst(double v) { return std::isnan(v) ? kNegInf : v; }

void validate(const Space& space, const AcqOptimizerOptions& o, const Mat& extra) {
  if (space.dim() < 1) throw InputError("acquisition optimiser: the space must have at least one dimension");
  if (o.raw_samples < 0) throw InputError("acquisition optimiser: raw_samples must be >= 0");
  if (o.num_starts < 0) throw InputError("acquisition optimiser: num_starts must be >= 0");
  if (o.max_evaluations < 1) throw InputError("acquisition optimiser: max_evaluations must be >= 1");
  if (o.threads < 0) throw InputError("acquisition optimiser: threads must be >= 0 (0 = all cores)");
  if (extra.size() > 0 && extra.cols() != space.dim())
    throw InputError("acquisition optimiser: extra starts have " + std::to_string(extra.cols()) +
                     " columns, the space has " + std::to_string(space.dim()));
  if (o.type != AcqOptimizerType::Direct && (o.raw_samples == 0 || o.num_starts == 0) && extra.rows() == 0)
    throw InputError("acquisition optimiser: needs raw_samples >= 1 and num_starts >= 1, or extra starts");
}

/// Scores the rows of C in fixed chunks of kChunk rows spread over the threads. The chunk boundaries do
/// not depend on the thread count, so neither do the (floating-point) values.
template <class ScoreBatch>
Vec score_parallel(ScoreBatch& score_batch, const Mat& C, int threads) {
  constexpr Eigen::Index kChunk = 128;
  const Eigen::Index n = C.rows();
  const int chunks = static_cast<int>((n + kChunk - 1) / kChunk);
  Vec v(n);
  parallel_for(chunks, threads, [&](int c) {
    const Eigen::Index start = c * kChunk, m = std::min(kChunk, n - start);
    v.segment(start, m) = score_batch(C.middleRows(start, m));
  });
  return v;
}

/// Canonicalises then clamps (canonicalisation of a point in the box stays in the box for the spaces
/// kbo has, but the clamp makes that a guarantee).
void canonical(const Space& space, Vec& x) {
  space.canonicalize(x);
  x = space.bounds().clamp(x);
}

/// The shared driver. `score_batch` scores the rows of a matrix (one batched call for acquisitions).
/// `batched` says whether score_batch is genuinely batched (then CMA-ES evaluates whole generations
/// through it).
template <class ScoreBatch>
OptResult maximize_impl(const Objective& f, ScoreBatch&& score_batch, bool batched, const Space& space,
                        const AcqOptimizerOptions& o, const Mat& extra, const Admissible& admissible = {}) {
  validate(space, o, extra);
  const Box& box = space.bounds();
  const int D = space.dim();
  const int threads = o.threads > 0 ? o.threads : hardware_threads();

  // Extra starts (always kept), canonicalised.
  Mat starts_extra(extra.rows(), D);
  for (Eigen::Index i = 0; i < extra.rows(); ++i) {
    Vec x = extra.row(i).transpose();
    if (!x.allFinite()) throw InputError("acquisition optimiser: extra starts must be finite");
    canonical(space, x);
    starts_extra.row(i) = x.transpose();
  }

  if (o.type == AcqOptimizerType::Direct) {
    OptResult r = direct_maximize(f, box, o.max_evaluations);
    canonical(space, r.x);
    r.value = nan_to_worst(f(r.x, nullptr));
    ++r.evaluations;
    // An extra start replaces DIRECT's point when it scores higher, or when it is admissible and the point not.
    bool ok = !admissible || admissible(r.x);
    r.inadmissible = !ok;
    if (starts_extra.rows() > 0) {
      const Vec v = score_batch(starts_extra);
      r.evaluations += static_cast<int>(v.size());
      for (Eigen::Index i = 0; i < v.size(); ++i) {
        const Vec xi = starts_extra.row(i).transpose();
        const bool ok_i = !admissible || admissible(xi);
        if ((ok_i && !ok) || (ok_i == ok && nan_to_worst(v[i]) > r.value)) {
          r.value = v[i];
          r.x = xi;
          ok = ok_i;
        }
      }
    }
    return r;
  }

  // Raw candidates: scrambled Sobol in the box, canonicalised, scored in one batch.
  int evaluations = 0;
  std::vector<Vec> starts;
  if (o.raw_samples > 0 && o.num_starts > 0) {
    Sobol sobol(D, splitmix64(o.seed) | 1ULL);  // non-zero shift ⇒ scrambled for every seed
    Mat cand = sobol.next(o.raw_samples);
    Vec x(D);
    for (int i = 0; i < o.raw_samples; ++i) {
      x = box.lower + cand.row(i).transpose().cwiseProduct(box.upper - box.lower);
      canonical(space, x);
      cand.row(i) = x.transpose();
    }
    const Vec v = score_parallel(score_batch, cand, threads);
    evaluations += o.raw_samples;
    std::vector<int> idx(o.raw_samples);
    std::iota(idx.begin(), idx.end(), 0);
    const int keep = std::min(o.num_starts, o.raw_samples);
    std::partial_sort(idx.begin(), idx.begin() + keep, idx.end(), [&](int a, int b) {
      const double va = nan_to_worst(v[a]), vb = nan_to_worst(v[b]);
      return va > vb || (va == vb && a < b);
    });
    for (int i = 0; i < keep; ++i) starts.push_back(cand.row(idx[i]).transpose());
  }
  for (Eigen::Index i = 0; i < starts_extra.rows(); ++i) starts.push_back(starts_extra.row(i).transpose());

  // Local runs, one slot per start.
  const int S = static_cast<int>(starts.size());
  std::vector<OptResult> results(S);
  auto run_one = [&](int s) {
    OptResult r;
    if (o.type == AcqOptimizerType::MultiStart) {
      r = lbfgs_maximize(f, starts[s], box, LbfgsOptions{o.max_evaluations, 1e-9});
    } else {
      CmaesOptions co;
      co.sigma0 = o.cmaes_sigma0;
      co.max_evaluations = o.max_evaluations;
      co.project = [&space](Vec& x) { space.canonicalize(x); };
      co.seed = splitmix64(o.seed ^ splitmix64(static_cast<std::uint64_t>(s) + 1));
      if (batched) co.batch_objective = [&score_batch](const Mat& X) -> Vec { return score_batch(X); };
      r = cmaes_maximize(f, starts[s], box, co);
    }
    // The polished point must be canonical; re-evaluate only if canonicalisation moved it.
    Vec xc = r.x;
    canonical(space, xc);
    if (xc != r.x) {
      r.x = xc;
      r.value = f(r.x, nullptr);
      ++r.evaluations;
    }
    r.value = nan_to_worst(r.value);
    results[s] = std::move(r);
  };

  parallel_for(S, threads, run_one);  // an exception of start s is rethrown after all starts ran (lowest s)

  // Fixed-order reduction: the lowest start among the best values wins, an admissible one before any other.
  // The winner is moved out whole (no element-wise copy into a growing result, which GCC 12 misreads as a use
  // after free).
  int winner = -1, refused = 0;
  bool winner_ok = false;
  for (int s = 0; s < S; ++s) {
    evaluations += results[s].evaluations;
    const bool ok = !admissible || admissible(results[s].x);
    refused += !ok;
    if (winner < 0 || (ok && !winner_ok) || (ok == winner_ok && results[s].value > results[winner].value)) {
      winner = s;
      winner_ok = ok;
    }
  }
  if (winner >= 0 && !winner_ok) {
    // Every start climbed into the refused region: the best admissible start as it was before polishing.
    int back = -1;
    double back_value = kNegInf;
    for (int s = 0; s < S; ++s) {
      if (!admissible(starts[s])) continue;
      const double v = nan_to_worst(f(starts[s], nullptr));
      ++evaluations;
      if (back < 0 || v > back_value) {
        back = s;
        back_value = v;
      }
    }
    if (back >= 0) {
      results[winner].x = starts[back];
      results[winner].value = back_value;
    }
  }
  OptResult best = winner >= 0 ? std::move(results[winner]) : OptResult{};
  best.evaluations = evaluations;
  best.inadmissible = refused;
  return best;
}

}  // namespace

AcqOptimizerType parse_acq_optimizer(const std::string& name) {
  return parse_enum<AcqOptimizerType>("acq_optimizer", name);
}

OptResult maximize_acquisition(const Acquisition& acq, const Space& space, const AcqOptimizerOptions& options,
                               const Mat& extra_starts, const Admissible& admissible) {
  const std::vector<bool> discrete = space.discrete_coordinates();
  if (std::find(discrete.begin(), discrete.end(), true) == discrete.end()) {
    const Objective f = [&acq](const Vec& x, Vec* grad) {
      return grad ? acq.value_and_gradient(x, *grad) : acq.value(x);
    };
    auto score = [&acq](const Mat& X) { return acq.values(X); };
    return maximize_impl(f, score, true, space, options, extra_starts, admissible);
  }
  // Mixed space (kbo/optimize/mixed_search.hpp): the acquisition read through the space's rounding, flat
  // (zero gradient) along discrete coordinates, then a local search over discrete neighbours.
  const Objective f = [&acq, &space, &discrete](const Vec& x, Vec* grad) {
    Vec xc = x;
    canonical(space, xc);
    const double v = grad ? acq.value_and_gradient(xc, *grad) : acq.value(xc);
    if (grad)
      for (std::size_t i = 0; i < discrete.size(); ++i)
        if (discrete[i]) (*grad)[static_cast<Eigen::Index>(i)] = 0.0;
    return v;
  };
  std::function<Vec(const Mat&)> score = [&acq, &space](const Mat& X) {
    Mat C = X;
    Vec x(X.cols());
    for (Eigen::Index i = 0; i < C.rows(); ++i) {
      x = C.row(i).transpose();
      canonical(space, x);
      C.row(i) = x.transpose();
    }
    return acq.values(C);
  };
  OptResult best = maximize_impl(f, score, true, space, options, extra_starts, admissible);
  if (!best.x.allFinite() || !std::isfinite(best.value)) return best;
  return discrete_local_search(f, score, space, std::move(best), options.max_evaluations);
}

OptResult maximize_objective(const Objective& f, const Space& space, const AcqOptimizerOptions& options,
                             const Mat& extra_starts) {
  auto score = [&f](const Mat& X) {
    Vec v(X.rows());
    Vec x(X.cols());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      x = X.row(i).transpose();
      v[i] = f(x, nullptr);
    }
    return v;
  };
  return maximize_impl(f, score, false, space, options, extra_starts);
}

}  // namespace kbo
