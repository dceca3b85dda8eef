// JSON (StrategyConfig::module_options) → AgpucbOptions / BaselineOptions, with one-line InputErrors.
#include <cmath>
#include <set>
#include <sstream>
#include <string>

#include "kbo/adaptive/agpucb.hpp"
#include "kbo/core/error.hpp"
#include "kbo/model/kernels/stationary.hpp"

namespace kbo {
namespace {

void check_keys(const nlohmann::json& j, const std::set<std::string>& allowed, const std::string& what) {
  if (j.is_null()) return;
  if (!j.is_object()) throw InputError(what + " options must be a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!allowed.count(it.key())) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw InputError(what + " option '" + it.key() + "' is unknown; allowed: " + list);
    }
  }
}

double get_num(const nlohmann::json& j, const std::string& key, double def, const std::string& what) {
  if (j.is_null() || !j.contains(key)) return def;
  if (!j[key].is_number()) throw InputError(what + " option '" + key + "' must be a number");
  return j[key].get<double>();
}

int get_int(const nlohmann::json& j, const std::string& key, int def, const std::string& what) {
  if (j.is_null() || !j.contains(key)) return def;
  if (!j[key].is_number_integer()) throw InputError(what + " option '" + key + "' must be an integer");
  return j[key].get<int>();
}

std::string get_str(const nlohmann::json& j, const std::string& key, const std::string& def,
                    const std::string& what) {
  if (j.is_null() || !j.contains(key)) return def;
  if (!j[key].is_string()) throw InputError(what + " option '" + key + "' must be a string");
  return j[key].get<std::string>();
}

std::vector<double> get_lengthscales(const nlohmann::json& j, const std::string& key, std::vector<double> def,
                                     int dim, const std::string& what) {
  std::vector<double> v = def;
  if (!j.is_null() && j.contains(key)) {
    const auto& x = j[key];
    v.clear();
    if (x.is_number()) {
      v.push_back(x.get<double>());
    } else if (x.is_array()) {
      for (const auto& e : x) {
        if (!e.is_number()) throw InputError(what + " option '" + key + "' must be a number or an array of numbers");
        v.push_back(e.get<double>());
      }
    } else {
      throw InputError(what + " option '" + key + "' must be a number or an array of numbers");
    }
  }
  if (!(v.size() == 1 || static_cast<int>(v.size()) == dim))
    throw InputError(what + " option '" + key + "' needs 1 or " + std::to_string(dim) + " values, got " +
                     std::to_string(v.size()));
  for (double x : v)
    if (!(x > 0.0) || !std::isfinite(x)) throw InputError(what + " option '" + key + "' must be positive");
  return v;
}

void require(bool ok, const std::string& msg) {
  if (!ok) throw InputError(msg);
}

}  // namespace

AgpucbOptions AgpucbOptions::paper() { return AgpucbOptions{}; }

AgpucbOptions AgpucbOptions::product() {
  // Chosen on the selection seeds of `kbo bench adaptive-suite` (docs/bench/adaptive.md#product-defaults).
  AgpucbOptions o;
  o.preset = AgpucbPreset::Product;
  o.normalize = true;
  o.kernel = "matern52";
  o.estimator = RegretEstimator::OneStep;  // eq. 15 stays inactive for t < ~130 (docs/bench/adaptive.md)
  o.combine = MapCombination::None;
  o.theta0 = {0.5};
  o.B0 = 1.0;
  // p(t) = 12 √t: the reference grows at the rate of GP-UCB's own regret bound O(√(t β_t γ_t)) (up to
  // logs), so h grows only while the regret estimate falls behind what a well-specified GP-UCB pays; the
  // scale front-loads the expansion (the first step must reach p(1) = 12). With t^0.9 the reference kept
  // demanding exploration after the optimum was found (docs/bench/adaptive.md, over-exploration).
  o.p_scale = 12.0;
  o.p_exponent = 0.5;
  o.p_counts_design = false;
  o.noise_std = 0.01;
  return o;
}

std::string AgpucbOptions::product_summary() {
  const AgpucbOptions o = product();
  std::ostringstream s;
  s << "agpucb defaults (preset \"product\"): targets robust-scaled and standardised, kernel " << o.kernel
    << ", estimator " << to_string(o.estimator) << ", combine " << to_string(o.combine) << ", theta0 " << o.theta0[0]
    << " (unit cube), B0 " << o.B0 << ", noise_std " << o.noise_std << " (standardised units), delta " << o.delta
    << ", lambda " << o.lambda << ", p(t) = " << o.p_scale << " t^" << o.p_exponent
    << "; set any of them with --options '{\"agpucb\": {...}}'; {\"agpucb\": {\"preset\": \"paper\"}} gives the "
       "paper's constants (raw targets, rbf, theta0 1, B0 2, estimator bound, p(t) = t^0.9)";
  return s.str();
}

AgpucbOptions AgpucbOptions::from_json(const nlohmann::json& j, int dim) {
  const std::string w = "agpucb";
  check_keys(j,
             {"preset", "theta0", "B0", "delta", "lambda", "p_exponent", "p_scale", "noise_std", "kernel", "estimator",
              "combine", "prior_shape", "prior_rate", "map_restarts", "kappa", "h_max", "line_search_tol",
              "line_search_max_evals", "normalize", "balance_max_candidates", "p_counts_design", "p_random_cap"},
             w);
  const AgpucbPreset preset = parse_enum<AgpucbPreset>("agpucb preset", get_str(j, "preset", "product", w));
  AgpucbOptions o = preset == AgpucbPreset::Paper ? paper() : product();
  o.theta0 = get_lengthscales(j, "theta0", o.theta0, dim, w);
  o.B0 = get_num(j, "B0", o.B0, w);
  o.delta = get_num(j, "delta", o.delta, w);
  o.lambda = get_num(j, "lambda", o.lambda, w);
  o.p_exponent = get_num(j, "p_exponent", o.p_exponent, w);
  o.p_scale = get_num(j, "p_scale", o.p_scale, w);
  o.noise_std = get_num(j, "noise_std", o.noise_std, w);
  o.kernel = get_str(j, "kernel", o.kernel, w);
  parse_stationary_type(o.kernel);  // InputError listing the kernels
  o.estimator = parse_regret_estimator(get_str(j, "estimator", to_string(o.estimator), w));
  o.combine = parse_map_combination(get_str(j, "combine", to_string(o.combine), w));
  o.prior_shape = get_num(j, "prior_shape", o.prior_shape, w);
  o.prior_rate = get_num(j, "prior_rate", o.prior_rate, w);
  o.map_restarts = get_int(j, "map_restarts", o.map_restarts, w);
  o.kappa = get_num(j, "kappa", o.kappa, w);
  o.h_max = get_num(j, "h_max", o.h_max, w);
  o.line_search_tol = get_num(j, "line_search_tol", o.line_search_tol, w);
  o.line_search_max_evals = get_int(j, "line_search_max_evals", o.line_search_max_evals, w);
  o.balance_max_candidates = get_int(j, "balance_max_candidates", o.balance_max_candidates, w);
  if (!j.is_null() && j.contains("p_counts_design")) {
    require(j["p_counts_design"].is_boolean(), "agpucb option 'p_counts_design' must be true or false");
    o.p_counts_design = j["p_counts_design"].get<bool>();
  }
  o.p_random_cap = get_num(j, "p_random_cap", o.p_random_cap, w);
  require(o.p_random_cap >= 0.0 && std::isfinite(o.p_random_cap), "agpucb option 'p_random_cap' must be >= 0");
  if (!j.is_null() && j.contains("normalize")) {
    require(j["normalize"].is_boolean(), "agpucb option 'normalize' must be true or false");
    o.normalize = j["normalize"].get<bool>();
  }
  require(o.B0 > 0.0, "agpucb option 'B0' must be > 0");
  require(o.delta > 0.0 && o.delta < 1.0, "agpucb option 'delta' must be in (0, 1)");
  require(o.lambda >= 0.0 && std::isfinite(o.lambda), "agpucb option 'lambda' must be >= 0");
  require(o.p_exponent > 0.0 && o.p_exponent <= 1.0, "agpucb option 'p_exponent' must be in (0, 1]");
  require(o.p_scale > 0.0, "agpucb option 'p_scale' must be > 0");
  require(o.noise_std > 0.0, "agpucb option 'noise_std' must be > 0");
  require(o.prior_shape > 0.0 && o.prior_rate > 0.0, "agpucb options 'prior_shape' and 'prior_rate' must be > 0");
  require(o.map_restarts >= 0, "agpucb option 'map_restarts' must be >= 0");
  require(o.kappa > 0.0 && o.kappa < 1.0, "agpucb option 'kappa' must be in (0, 1)");
  require(o.h_max >= 1.0, "agpucb option 'h_max' must be >= 1");
  require(o.line_search_tol > 0.0, "agpucb option 'line_search_tol' must be > 0");
  require(o.line_search_max_evals >= 2, "agpucb option 'line_search_max_evals' must be >= 2");
  require(o.balance_max_candidates >= 1 && o.balance_max_candidates <= 60,
          "agpucb option 'balance_max_candidates' must be in [1, 60]");
  return o;
}

nlohmann::json AgpucbOptions::to_json() const {
  return {{"preset", enum_name(preset)},
          {"theta0", theta0},
          {"B0", B0},
          {"delta", delta},
          {"lambda", lambda},
          {"p_exponent", p_exponent},
          {"p_scale", p_scale},
          {"noise_std", noise_std},
          {"kernel", kernel},
          {"estimator", to_string(estimator)},
          {"combine", to_string(combine)},
          {"prior_shape", prior_shape},
          {"prior_rate", prior_rate},
          {"map_restarts", map_restarts},
          {"kappa", kappa},
          {"h_max", h_max},
          {"line_search_tol", line_search_tol},
          {"line_search_max_evals", line_search_max_evals},
          {"normalize", normalize},
          {"balance_max_candidates", balance_max_candidates},
          {"p_counts_design", p_counts_design},
          {"p_random_cap", p_random_cap}};
}

BaselineOptions BaselineOptions::from_json(const nlohmann::json& j, int dim) {
  const std::string w = "baseline gpucb";
  check_keys(j,
             {"mode", "theta", "beta_sqrt", "noise_var", "kernel", "prior_shape", "prior_rate", "map_restarts",
              "hmc_warmup", "hmc_samples", "hmc_keep", "hmc_leapfrog", "theta_lower", "theta_upper"},
             w);
  BaselineOptions o;
  o.mode = parse_enum<HyperMode>("baseline gpucb mode", get_str(j, "mode", enum_name(o.mode), w));
  o.theta = get_lengthscales(j, "theta", o.theta, dim, w);
  o.beta_sqrt = get_num(j, "beta_sqrt", o.beta_sqrt, w);
  o.noise_var = get_num(j, "noise_var", o.noise_var, w);
  o.kernel = get_str(j, "kernel", o.kernel, w);
  parse_stationary_type(o.kernel);
  o.prior_shape = get_num(j, "prior_shape", o.prior_shape, w);
  o.prior_rate = get_num(j, "prior_rate", o.prior_rate, w);
  o.map_restarts = get_int(j, "map_restarts", o.map_restarts, w);
  o.hmc_warmup = get_int(j, "hmc_warmup", o.hmc_warmup, w);
  o.hmc_samples = get_int(j, "hmc_samples", o.hmc_samples, w);
  o.hmc_keep = get_int(j, "hmc_keep", o.hmc_keep, w);
  o.hmc_leapfrog = get_int(j, "hmc_leapfrog", o.hmc_leapfrog, w);
  o.theta_lower = get_num(j, "theta_lower", o.theta_lower, w);
  o.theta_upper = get_num(j, "theta_upper", o.theta_upper, w);
  require(o.beta_sqrt >= 0.0, "baseline option 'beta_sqrt' must be >= 0");
  require(o.noise_var > 0.0, "baseline option 'noise_var' must be > 0");
  require(o.prior_shape > 0.0 && o.prior_rate > 0.0, "baseline options 'prior_shape'/'prior_rate' must be > 0");
  require(o.hmc_warmup >= 0 && o.hmc_samples >= 1 && o.hmc_keep >= 1 && o.hmc_keep <= o.hmc_samples &&
              o.hmc_leapfrog >= 1,
          "baseline HMC options need hmc_warmup >= 0, 1 <= hmc_keep <= hmc_samples, hmc_leapfrog >= 1");
  require(o.theta_lower > 0.0 && o.theta_upper > o.theta_lower,
          "baseline options need 0 < theta_lower < theta_upper");
  return o;
}

}  // namespace kbo
