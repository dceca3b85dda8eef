// JSON forms of strategy configs and spaces, as stored with every study.
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/sets/set_space.hpp"
#include "kbo/study/study.hpp"

namespace kbo {

namespace {

std::string acq_optimizer_name(AcqOptimizerType t) {
  switch (t) {
    case AcqOptimizerType::MultiStart: return "multistart";
    case AcqOptimizerType::Cmaes: return "cmaes";
    case AcqOptimizerType::Direct: return "direct";
  }
  return "multistart";
}

Vec vec_from_json(const nlohmann::json& j, const char* what) {
  if (!j.is_array()) throw InputError(std::string("stored space: '") + what + "' is not an array");
  Vec v(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) v(static_cast<Eigen::Index>(i)) = j[i].get<double>();
  return v;
}

}  // namespace

nlohmann::json to_json(const StrategyConfig& c) {
  nlohmann::json j;
  j["strategy"] = c.strategy;
  j["kernel"] = c.kernel;
  j["ard"] = c.ard;
  j["acquisition"] = c.acquisition;
  j["beta_schedule"] = c.beta_schedule;
  j["beta"] = c.beta;
  j["n_init"] = c.n_init;
  j["init_method"] = c.init_method == SamplingMethod::Sobol ? "sobol" : "uniform";
  j["fit_restarts"] = c.fit_restarts;
  j["map"] = c.map;
  j["fixed_noise"] = c.fixed_noise ? nlohmann::json(*c.fixed_noise) : nlohmann::json(nullptr);
  j["acq_optimizer"] = {{"type", acq_optimizer_name(c.acq_optimizer.type)},
                        {"raw_samples", c.acq_optimizer.raw_samples},
                        {"num_starts", c.acq_optimizer.num_starts},
                        {"max_evaluations", c.acq_optimizer.max_evaluations}};
  j["invariance"] = c.invariance;
  j["invariant_kernel"] = c.invariant_kernel;
  j["set_kernel"] = c.set_kernel;
  j["set_L"] = c.set_L;
  j["fantasy"] = c.fantasy;
  j["module_options"] = c.module_options;
  j["seed"] = c.seed;
  return j;
}

StrategyConfig strategy_config_from_json(const nlohmann::json& j) {
  StrategyConfig c;
  if (!j.is_object()) return c;
  auto get = [&](const char* key, auto& field) {
    if (j.contains(key) && !j[key].is_null()) field = j[key].get<std::decay_t<decltype(field)>>();
  };
  get("strategy", c.strategy);
  get("kernel", c.kernel);
  get("ard", c.ard);
  get("acquisition", c.acquisition);
  get("beta_schedule", c.beta_schedule);
  get("beta", c.beta);
  get("n_init", c.n_init);
  if (j.contains("init_method")) c.init_method = parse_sampling_method(j["init_method"].get<std::string>());
  get("fit_restarts", c.fit_restarts);
  get("map", c.map);
  if (j.contains("fixed_noise") && j["fixed_noise"].is_number()) c.fixed_noise = j["fixed_noise"].get<double>();
  if (j.contains("acq_optimizer") && j["acq_optimizer"].is_object()) {
    const auto& a = j["acq_optimizer"];
    if (a.contains("type")) c.acq_optimizer.type = parse_acq_optimizer(a["type"].get<std::string>());
    if (a.contains("raw_samples")) c.acq_optimizer.raw_samples = a["raw_samples"].get<int>();
    if (a.contains("num_starts")) c.acq_optimizer.num_starts = a["num_starts"].get<int>();
    if (a.contains("max_evaluations")) c.acq_optimizer.max_evaluations = a["max_evaluations"].get<int>();
  }
  get("invariance", c.invariance);
  get("invariant_kernel", c.invariant_kernel);
  get("set_kernel", c.set_kernel);
  get("set_L", c.set_L);
  get("fantasy", c.fantasy);  // absent in studies created before fantasies were selectable: the default
  if (j.contains("module_options")) c.module_options = j["module_options"];
  get("seed", c.seed);
  return c;
}

nlohmann::json box_space_json(const Box& box) {
  return {{"type", "box"},
          {"lower", std::vector<double>(box.lower.data(), box.lower.data() + box.lower.size())},
          {"upper", std::vector<double>(box.upper.data(), box.upper.data() + box.upper.size())}};
}

std::shared_ptr<const Space> space_from_json(const nlohmann::json& j) {
  const std::string type = j.is_object() ? j.value("type", "") : "";
  if (type == "box") return std::make_shared<BoxSpace>(Box(vec_from_json(j.at("lower"), "lower"),
                                                           vec_from_json(j.at("upper"), "upper")));
  if (type == "set") {
    // lower/upper are the box of one element; a point is set_size x element_dim coordinates.
    return std::make_shared<SetSpace>(j.at("set_size").get<int>(), Box(vec_from_json(j.at("lower"), "lower"),
                                                                       vec_from_json(j.at("upper"), "upper")));
  }
  throw InputError("unknown space type '" + type + "' (allowed: box, set)");
}

std::string describe_space_json(const nlohmann::json& j) {
  std::ostringstream out;
  out << (j.is_object() ? j.value("type", "?") : "?");
  if (j.is_object() && j.contains("set_size")) out << " of " << j["set_size"] << " elements of dim " << j.value("element_dim", 0);
  if (j.is_object() && j.contains("lower") && j.contains("upper") && j["lower"].size() == j["upper"].size()) {
    out << " ";
    for (std::size_t i = 0; i < j["lower"].size(); ++i)
      out << (i ? " x " : "") << "[" << j["lower"][i].get<double>() << ", " << j["upper"][i].get<double>() << "]";
  }
  return out.str();
}

}  // namespace kbo
