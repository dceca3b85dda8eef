#include "kbo/model/hmc.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kbo/core/error.hpp"

namespace kbo {
namespace {

// log π and gradient, with NumericalError (e.g. a GP Cholesky failing far in the tails) mapped to −inf
// so that the proposal is simply rejected.
double safe_eval(const LogDensityFn& f, const Vec& q, Vec& grad) {
  try {
    const double v = f(q, &grad);
    if (!std::isfinite(v) || !grad.allFinite()) return kNegInf;
    return v;
  } catch (const NumericalError&) {
    return kNegInf;
  }
}

// Dual averaging of log ε (Hoffman & Gelman 2014, Algorithm 5 with γ = 0.05, t0 = 10, κ = 0.75).
struct DualAveraging {
  double mu = 0.0, hbar = 0.0, log_eps_bar = 0.0;
  int m = 0;
  void restart(double eps) {
    mu = std::log(10.0 * eps);
    hbar = 0.0;
    log_eps_bar = std::log(eps);
    m = 0;
  }
  double update(double accept_prob, double target) {
    ++m;
    const double w = 1.0 / (m + 10.0);
    hbar = (1.0 - w) * hbar + w * (target - accept_prob);
    const double log_eps = mu - std::sqrt(static_cast<double>(m)) / 0.05 * hbar;
    const double eta = std::pow(static_cast<double>(m), -0.75);
    log_eps_bar = eta * log_eps + (1.0 - eta) * log_eps_bar;
    return std::exp(log_eps);
  }
  double final_step() const { return std::exp(log_eps_bar); }
};

}  // namespace

HmcResult hmc_sample(const LogDensityFn& log_density, const Vec& q0, const HmcOptions& o, Rng& rng) {
  const int d = static_cast<int>(q0.size());
  if (d == 0) throw InputError("hmc_sample: the initial point is empty; need dimension >= 1");
  if (!q0.allFinite()) throw InputError("hmc_sample: the initial point has NaN/inf entries");
  if (o.num_warmup < 0 || o.num_samples < 1 || o.thin < 1 || o.num_leapfrog < 1 || !(o.step_size > 0.0) ||
      !(o.target_accept > 0.0 && o.target_accept < 1.0))
    throw InputError(
        "hmc_sample: need num_warmup >= 0, num_samples >= 1, thin >= 1, num_leapfrog >= 1, step_size > 0 and "
        "target_accept in (0, 1)");
  Vec inv_mass = o.inverse_mass.size() == d ? o.inverse_mass : Vec::Ones(d);
  if ((inv_mass.array() <= 0.0).any() || !inv_mass.allFinite())
    throw InputError("hmc_sample: inverse_mass must have positive finite entries (one per dimension)");

  Vec q = q0, grad(d);
  double logp = safe_eval(log_density, q, grad);
  if (logp == kNegInf) throw InputError("hmc_sample: log density at the initial point is -inf/NaN");

  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  double eps = o.step_size;
  DualAveraging da;
  da.restart(eps);

  // Warm-up windows: [0, w1) step size only, [w1, w2) also collects draws for the mass matrix,
  // [w2, num_warmup) step size only (re-tuned for the new mass matrix).
  const bool adapt_mass = o.adapt_mass && o.num_warmup >= 50;
  const int w1 = adapt_mass ? static_cast<int>(0.15 * o.num_warmup) : o.num_warmup;
  const int w2 = adapt_mass ? static_cast<int>(0.85 * o.num_warmup) : o.num_warmup;
  Vec sum = Vec::Zero(d), sumsq = Vec::Zero(d);
  int nwin = 0;

  const int total = o.num_warmup + o.num_samples;
  HmcResult res;
  res.samples.resize(o.num_samples / o.thin, d);
  res.log_density.resize(o.num_samples / o.thin);
  double accept_sum = 0.0;
  int kept = 0;

  Vec p(d), qn(d), gn(d);
  for (int it = 0; it < total; ++it) {
    const bool warm = it < o.num_warmup;
    int L = o.num_leapfrog;
    if (o.jitter_steps && L > 1) {
      const int lo = std::max(1, (L + 1) / 2), hi = L + L / 2;
      L = lo + static_cast<int>(unif(rng) * (hi - lo + 1));
      L = std::min(L, hi);
    }
    // Momentum p ~ N(0, M), M = diag(1 / inv_mass); kinetic energy ½ pᵀ M⁻¹ p.
    for (int i = 0; i < d; ++i) p(i) = normal(rng) / std::sqrt(inv_mass(i));
    const double h0 = -logp + 0.5 * (p.array().square() * inv_mass.array()).sum();

    qn = q;
    gn = grad;
    double logp_new = logp;
    p += 0.5 * eps * gn;
    for (int s = 0; s < L; ++s) {
      qn += eps * (inv_mass.array() * p.array()).matrix();
      logp_new = safe_eval(log_density, qn, gn);
      if (logp_new == kNegInf) break;
      p += (s + 1 < L ? 1.0 : 0.5) * eps * gn;
    }
    double accept_prob = 0.0;
    if (logp_new != kNegInf) {
      const double h1 = -logp_new + 0.5 * (p.array().square() * inv_mass.array()).sum();
      const double dh = h0 - h1;
      accept_prob = std::isfinite(dh) ? std::min(1.0, std::exp(dh)) : 0.0;
      if (!warm && -dh > 1000.0) ++res.divergences;
    } else if (!warm) {
      ++res.divergences;
    }
    if (unif(rng) < accept_prob) {
      q = qn;
      grad = gn;
      logp = logp_new;
    }

    if (warm) {
      if (o.adapt_step_size) eps = da.update(accept_prob, o.target_accept);
      if (adapt_mass && it >= w1 && it < w2) {
        sum += q;
        sumsq += q.array().square().matrix();
        ++nwin;
      }
      if (adapt_mass && it + 1 == w2 && nwin >= 10) {
        // Regularised sample variance, shrunk towards 1e-3 like Stan, as the new M⁻¹.
        const Vec mean = sum / nwin;
        Vec var = (sumsq / nwin - mean.array().square().matrix()) * (nwin / (nwin - 1.0));
        var = var.cwiseMax(0.0);
        inv_mass = (nwin / (nwin + 5.0)) * var.array() + 1e-3 * (5.0 / (nwin + 5.0));
        if (o.adapt_step_size) da.restart(eps);
      }
      if (it + 1 == o.num_warmup && o.adapt_step_size) eps = da.final_step();
      continue;
    }
    accept_sum += accept_prob;
    const int k = it - o.num_warmup;
    if ((k + 1) % o.thin == 0 && kept < res.samples.rows()) {
      res.samples.row(kept) = q.transpose();
      res.log_density(kept) = logp;
      ++kept;
    }
  }
  res.acceptance_rate = accept_sum / o.num_samples;
  res.step_size = eps;
  res.inverse_mass = inv_mass;
  return res;
}

HmcResult hmc_sample_carried(const LogDensityFn& log_density, const Vec& q0, int num_warmup, int num_samples,
                             int num_leapfrog, HmcCarry& carry, Rng& rng) {
  HmcOptions o;
  o.num_warmup = num_warmup;
  o.num_samples = num_samples;
  o.num_leapfrog = num_leapfrog;
  o.step_size = carry.step_size;
  o.adapt_mass = num_warmup >= 50;
  if (carry.inverse_mass.size() == q0.size()) o.inverse_mass = carry.inverse_mass;
  HmcResult r = hmc_sample(log_density, q0, o, rng);
  carry.step_size = r.step_size;
  carry.inverse_mass = r.inverse_mass;
  return r;
}

double effective_sample_size(const Vec& chain) {
  const int n = static_cast<int>(chain.size());
  if (n < 4) return n;
  const Vec c = chain.array() - chain.mean();
  const double var = c.squaredNorm() / n;
  if (var <= 0.0) return n;
  auto rho = [&](int lag) { return c.head(n - lag).dot(c.tail(n - lag)) / (n * var); };
  // Geyer: sum pairs Γ_k = ρ_{2k} + ρ_{2k+1} while positive, forced monotone non-increasing.
  double sum = 0.0, prev = std::numeric_limits<double>::infinity();
  for (int k = 0; 2 * k + 1 < n; ++k) {
    double g = rho(2 * k) + rho(2 * k + 1);
    if (g <= 0.0) break;
    g = std::min(g, prev);
    prev = g;
    sum += g;
  }
  const double tau = std::max(2.0 * sum - 1.0, 1.0 / n);
  return n / tau;
}

}  // namespace kbo
