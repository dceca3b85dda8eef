// CMA-ES after N. Hansen, "The CMA Evolution Strategy: A Tutorial" (arXiv:1604.00772, 2016): (μ/μ_w, λ)
// with weighted recombination, cumulative step-size adaptation (CSA) and rank-one + rank-μ covariance
// updates (Table 1 default parameters). It runs in normalised coordinates u = (x - lower)/width, so
// σ0 is a fraction of the box width and one C fits boxes with very different side lengths.
//
// Constraints: every sample is clamped to the box, mapped back to x, passed through `project` (the
// canonical-region projection, e.g. sorting for sets) and evaluated there. The repaired point is what
// enters the update (the search distribution then follows the feasible region), with its Mahalanobis
// step length capped as recommended for injected/repaired solutions (Hansen 2011, "Injecting external
// solutions into CMA-ES", arXiv:1110.4181), so that repairs cannot inflate σ through the evolution path.
#include "kbo/optimize/cmaes.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <vector>

namespace kbo {
OptResult cmaes_maximize(const Objective& f, const Vec& x0, const Box& box, const CmaesOptions& opt) {
  const int n = box.dim();
  if (n < 1) throw InputError("cmaes_maximize: the box must have at least one dimension");
  if (x0.size() != n) throw InputError("cmaes_maximize: x0 has the wrong dimension");
  if (!x0.allFinite()) throw InputError("cmaes_maximize: x0 must be finite");
  if (!(opt.sigma0 > 0.0)) throw InputError("cmaes_maximize: sigma0 must be > 0");
  if (opt.max_evaluations < 1) throw InputError("cmaes_maximize: max_evaluations must be >= 1");
  if (opt.population < 0) throw InputError("cmaes_maximize: population must be >= 0 (0 = default)");

  const Vec width = box.upper - box.lower;
  Rng rng = make_rng(opt.seed);
  std::normal_distribution<double> normal(0.0, 1.0);

  OptResult best;
  // Records the value v at x (already in the box and projected); NaN counts as -inf. Returns the value
  // to rank by.
  auto record = [&](double v, const auto& x) {
    if (std::isnan(v)) v = kNegInf;
    ++best.evaluations;
    if (best.x.size() == 0 || v > best.value) {
      best.value = v;
      best.x = x;
    }
    return v;
  };
  auto evaluate = [&](const Vec& x) { return record(f(x, nullptr), x); };
  // Clamp to the box, project, clamp again (a projection must not leave the box); returns x.
  auto repair = [&](Vec& x) {
    x = x.cwiseMax(box.lower).cwiseMin(box.upper);
    if (opt.project) {
      opt.project(x);
      x = x.cwiseMax(box.lower).cwiseMin(box.upper);
    }
  };
  auto to_u = [&](const Vec& x) -> Vec { return (x - box.lower).cwiseQuotient(width); };

  // ---- strategy parameters (Hansen 2016, Table 1) ----
  const int lambda = opt.population > 0 ? std::max(opt.population, 2) : 4 + static_cast<int>(std::floor(3.0 * std::log(n)));
  const int mu = lambda / 2;
  Vec w(mu);
  for (int i = 0; i < mu; ++i) w[i] = std::log((lambda + 1) / 2.0) - std::log(i + 1.0);
  w /= w.sum();
  const double mueff = 1.0 / w.squaredNorm();
  const double N = n;
  const double cc = (4.0 + mueff / N) / (N + 4.0 + 2.0 * mueff / N);
  const double cs = (mueff + 2.0) / (N + mueff + 5.0);
  const double c1 = 2.0 / ((N + 1.3) * (N + 1.3) + mueff);
  const double cmu = std::min(1.0 - c1, 2.0 * (mueff - 2.0 + 1.0 / mueff) / ((N + 2.0) * (N + 2.0) + mueff));
  const double damps = 1.0 + 2.0 * std::max(0.0, std::sqrt((mueff - 1.0) / (N + 1.0)) - 1.0) + cs;
  const double chiN = std::sqrt(N) * (1.0 - 1.0 / (4.0 * N) + 1.0 / (21.0 * N * N));
  const double max_step = std::sqrt(N) + 2.0 * N / (N + 2.0);  // cap on ||C^{-1/2} y|| of repaired samples
  const int history_len = 10 + static_cast<int>(std::ceil(30.0 * N / lambda));

  // ---- state ----
  Vec xstart = x0;
  repair(xstart);
  evaluate(xstart);
  Vec mean = to_u(xstart);
  double sigma = opt.sigma0;
  Vec pc = Vec::Zero(n), ps = Vec::Zero(n);
  Mat B = Mat::Identity(n, n), C = Mat::Identity(n, n);
  Vec D = Vec::Ones(n);                 // sqrt of the eigenvalues of C
  Mat invsqrtC = Mat::Identity(n, n);
  long long eigen_eval = 0;
  int generation = 0;
  std::deque<double> best_history;      // best value of each recent generation

  Mat Y(n, lambda);                     // steps y_k = (u_k - m)/σ of the repaired samples
  Mat P(lambda, n);                     // the repaired population (rows), in original coordinates
  Vec x(n), u(n), y(n), z(n), values(lambda);
  std::vector<int> order(lambda);

  while (best.evaluations + lambda <= opt.max_evaluations) {
    // Sample and repair the whole population, then evaluate it (in one call if batched).
    for (int k = 0; k < lambda; ++k) {
      for (int i = 0; i < n; ++i) z[i] = normal(rng);
      u = mean + sigma * (B * D.cwiseProduct(z));
      x = box.lower + u.cwiseProduct(width);
      repair(x);
      u = to_u(x);
      y = (u - mean) / sigma;
      const double len = (invsqrtC * y).norm();
      if (len > max_step) y *= max_step / len;
      Y.col(k) = y;
      P.row(k) = x.transpose();
    }
    if (opt.batch_objective) {
      const Vec v = opt.batch_objective(P);
      if (v.size() != lambda) throw InputError("cmaes_maximize: batch_objective returned the wrong number of values");
      for (int k = 0; k < lambda; ++k) values[k] = record(v[k], P.row(k).transpose());
    } else {
      for (int k = 0; k < lambda; ++k) {
        x = P.row(k).transpose();
        values[k] = evaluate(x);
      }
    }
    // Rank (descending; stable so that ties keep sampling order → deterministic).
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[a] > values[b]; });

    // Recombination.
    Vec yw = Vec::Zero(n);
    for (int i = 0; i < mu; ++i) yw += w[i] * Y.col(order[i]);
    mean += sigma * yw;
    mean = mean.cwiseMax(0.0).cwiseMin(1.0);

    // Step-size path (CSA) and covariance path with the h_σ stall.
    ps = (1.0 - cs) * ps + std::sqrt(cs * (2.0 - cs) * mueff) * (invsqrtC * yw);
    ++generation;
    const double ps_norm = ps.norm();
    const bool hsig =
        ps_norm / std::sqrt(1.0 - std::pow(1.0 - cs, 2.0 * generation)) / chiN < 1.4 + 2.0 / (N + 1.0);
    pc = (1.0 - cc) * pc + (hsig ? std::sqrt(cc * (2.0 - cc) * mueff) : 0.0) * yw;

    // Rank-one + rank-μ update.
    Mat rank_mu = Mat::Zero(n, n);
    for (int i = 0; i < mu; ++i) {
      const auto yi = Y.col(order[i]);
      rank_mu.noalias() += w[i] * yi * yi.transpose();
    }
    const double c_adj = (1.0 - hsig) * cc * (2.0 - cc);  // compensates the stalled path
    C = (1.0 - c1 - cmu) * C + c1 * (pc * pc.transpose() + c_adj * C) + cmu * rank_mu;

    // Step size.
    sigma *= std::exp((cs / damps) * (ps_norm / chiN - 1.0));
    sigma = std::min(sigma, 10.0);  // the box has unit width: larger steps are meaningless

    // Eigendecomposition every few generations (O(n^3) amortised over ~n/10 generations).
    if (best.evaluations - eigen_eval > lambda / (c1 + cmu) / N / 10.0) {
      eigen_eval = best.evaluations;
      C = 0.5 * (C + C.transpose());
      Eigen::SelfAdjointEigenSolver<Mat> es(C);
      if (es.info() != Eigen::Success || !es.eigenvalues().allFinite()) break;
      Vec ev = es.eigenvalues().cwiseMax(1e-300);
      B = es.eigenvectors();
      D = ev.cwiseSqrt();
      invsqrtC = B * D.cwiseInverse().asDiagonal() * B.transpose();
      if (ev.maxCoeff() > 1e14 * ev.minCoeff()) break;  // ill-conditioned: nothing more to learn
    }

    // Stopping: no progress of the generation-best over the history, or a collapsed distribution.
    best_history.push_back(values[order[0]]);
    if (static_cast<int>(best_history.size()) > history_len) best_history.pop_front();
    const double gen_range = values[order[0]] - values[order[lambda - 1]];
    if (static_cast<int>(best_history.size()) == history_len && std::isfinite(gen_range)) {
      const auto [lo, hi] = std::minmax_element(best_history.begin(), best_history.end());
      if (std::isfinite(*lo) && std::isfinite(*hi) && *hi - *lo < opt.tol_fun && gen_range < opt.tol_fun) break;
    }
    if (sigma * std::sqrt(C.diagonal().maxCoeff()) < opt.tol_x) break;
    if (!std::isfinite(sigma) || !mean.allFinite()) break;
  }
  return best;
}

}  // namespace kbo
