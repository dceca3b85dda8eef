// The study option table (see include/kbo/study/options.hpp).
#include "kbo/study/options.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>

#include "kbo/acquisition/registry.hpp"
#include "kbo/core/error.hpp"
#include "kbo/core/params.hpp"
#include "kbo/strategy/registry.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/study.hpp"

namespace kbo {

namespace {

// "name: help" of every registered strategy, for the --strategy help text (states A-GP-UCB's constants).
std::string strategy_helps() {
  std::string out;
  for (const auto& name : strategies().names()) out += (out.empty() ? "" : "; ") + name + ": " + strategies().get(name).help;
  return out;
}


std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::string normalise(std::string_view name) {
  std::string k(name);
  std::replace(k.begin(), k.end(), '_', '-');
  std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return std::tolower(c); });
  return k;
}

std::string format_double(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// Typed readers of an option's value: the key is the option's name, as every edge shows it.
long long int_in(const std::string& key, const nlohmann::json& v, long long lo, long long hi) {
  long long x = 0;
  if (v.is_number_integer()) x = v.get<long long>();
  else if (v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>()) &&
           std::abs(v.get<double>()) < 9e18)
    x = static_cast<long long>(v.get<double>());
  else
    throw InputError(key + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
                     v.dump() + ")");
  if (x < lo || x > hi)
    throw InputError(key + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
                     std::to_string(x) + ")");
  return x;
}

double number_at_least(const std::string& key, const nlohmann::json& v, double lo) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo)
    throw InputError(key + " must be a finite number >= " + format_double(lo) + " (got " + v.dump() + ")");
  return v.get<double>();
}

std::string text(const std::string& key, const nlohmann::json& v) {
  if (!v.is_string()) throw InputError(key + " must be a string (got " + v.dump() + ")");
  return trim(v.get<std::string>());
}

bool flag(const std::string& key, const nlohmann::json& v) { return decode_field<bool>(key, v); }

template <class E>
E one_of(const std::string& key, const nlohmann::json& v) {
  return parse_enum<E>(key, text(key, v));
}

/// bounds: "lo:hi,..." or an array of [lo, hi] pairs (config files, Python), kept as exact text.
std::string bounds_text(const nlohmann::json& v) {
  if (v.is_string()) return trim(v.get<std::string>());
  if (!v.is_array()) throw InputError("bounds must be \"lo:hi,...\" or an array of [lo, hi] pairs");
  std::string out;
  for (const auto& pair : v) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number())
      throw InputError("bounds must be \"lo:hi,...\" or an array of [lo, hi] pairs");
    out += (out.empty() ? "" : ",") + format_double(pair[0].get<double>()) + ":" + format_double(pair[1].get<double>());
  }
  return out;
}

/// The invariance groups the registered kernel structure accepts (registered by the invariance module).
std::string group_list() {
  std::string list;
  for (const auto& name : kernel_structures().names())
    if (!kernel_structures().get(name).help.empty()) list += (list.empty() ? "" : ", ") + kernel_structures().get(name).help;
  return list.empty() ? "(no invariance module registered)" : list;
}

// Built at first use, after register_builtin_modules(): the help texts list what is registered.
std::vector<OptionSpec> build_table() {
  std::vector<OptionSpec> t;
  using K = OptionKind;
  auto add = [&](std::string name, K kind, unsigned group, std::string field, std::string help,
                 std::function<void(StudyOptions&, const nlohmann::json&)> apply, bool in_config = true) {
    t.push_back({std::move(name), kind, group, in_config, std::move(field), std::move(help), std::move(apply)});
  };
  // ---- where
  add("storage", K::String, kWhere, "",
      storage_url_forms() + ", or a file path such as study.db (sqlite); default memory. In a config file a "
      "relative path is relative to the file",
      [](StudyOptions& o, const nlohmann::json& v) { o.storage = normalize_storage_url(text("storage", v)); });
  t.back().path = PathKind::Storage;
  add("study", K::String, kWhere, "", "study name (default 'default')", [](StudyOptions& o, const nlohmann::json& v) {
    o.study = text("study", v);
    if (o.study.empty()) throw InputError("study must not be empty");
  });
  // ---- what
  std::string problems;
  for (const auto& n : problem_names()) problems += (problems.empty() ? "" : ", ") + n;
  add("problem", K::String, kWhat, "", "built-in problem: " + problems + ", bbob:F:I (BBOB function F = 1-24, instance I >= 1, --dim D >= 2; docs/bench/bbob.md)",
      [](StudyOptions& o, const nlohmann::json& v) { o.problem = text("problem", v); });
  add("dim", K::Int, kWhat, "", "dimension of a problem that has a variable dimension",
      [](StudyOptions& o, const nlohmann::json& v) { o.dim = static_cast<int>(int_in("dim", v, 1, 100000)); });
  add("objective", K::String, kWhat, "",
      "shell command: reads {\"trial\":id,\"x\":[...]} on stdin, prints the value last. From a config file it runs "
      "in the file's directory",
      [](StudyOptions& o, const nlohmann::json& v) {
        if (!v.is_string()) throw InputError("objective must be a string (a shell command)");
        o.objective = v.get<std::string>();
      });
  t.back().path = PathKind::Command;
  add("bounds", K::String, kWhat, "", "lo:hi,lo:hi,... (one per coordinate; per element coordinate for space set)",
      [](StudyOptions& o, const nlohmann::json& v) { o.bounds = bounds_text(v); });
  add("param", K::String, kWhat, "",
      "a named parameter (repeat the flag for several): NAME=float:LOW:HIGH[:log], NAME=int:LOW:HIGH[:log], "
      "NAME=cat:A,B,C, NAME=fixed:VALUE; the objective then receives {\"trial\", \"params\": {NAME: value}, \"x\"} "
      "(docs/spaces.md)",
      [](StudyOptions& o, const nlohmann::json& v) {
        // CLI: one flag per parameter (joined by newlines); config files: a string or a list of strings.
        std::vector<std::string> items;
        if (v.is_string()) {
          std::stringstream ss(v.get<std::string>());
          for (std::string line; std::getline(ss, line);)
            if (!trim(line).empty()) items.push_back(line);
        } else if (v.is_array()) {
          for (const auto& item : v) {
            if (!item.is_string()) throw InputError("param must be NAME=TYPE:... text or a list of such texts");
            items.push_back(item.get<std::string>());
          }
        } else {
          throw InputError("param must be NAME=TYPE:... text or a list of such texts");
        }
        for (const auto& item : items) o.params.push_back(to_json(parse_param(item)));
      });
  t.back().repeatable = true;
  add("params", K::Json, kWhat, "",
      "named parameters as JSON: a list of {\"name\", \"type\": float|int|categorical|fixed, \"low\", \"high\", "
      "\"log\", \"choices\", \"value\"} (or NAME=TYPE:... texts), or an object {NAME: spec}; in a config file "
      "[[params]] tables",
      [](StudyOptions& o, const nlohmann::json& v) {
        for (const auto& p : params_from_json(v)) o.params.push_back(to_json(p));
      });
  add("space", K::String, kWhat, "", "box | set (default box; --param/--params make a params space)", [](StudyOptions& o, const nlohmann::json& v) {
    o.space = text("space", v);
    if (o.space != "box" && o.space != "set")
      throw InputError("space: unknown value '" + o.space + "' (allowed: box, set)");
  });
  add("set-size", K::Int, kWhat, "", "number of elements m of a set (space set)",
      [](StudyOptions& o, const nlohmann::json& v) { o.set_size = static_cast<int>(int_in("set_size", v, 1, 100000)); });
  add("element-dim", K::Int, kWhat, "", "dimension d of each set element (space set; default: number of bounds)",
      [](StudyOptions& o, const nlohmann::json& v) { o.element_dim = static_cast<int>(int_in("element_dim", v, 1, 100000)); });
  add("minimize", K::Flag, kWhat, "", "minimise the objective (default)",
      [](StudyOptions& o, const nlohmann::json& v) { o.minimize = flag("minimize", v); });
  add("maximize", K::Flag, kWhat, "", "maximise the objective",
      [](StudyOptions& o, const nlohmann::json& v) { o.minimize = !flag("maximize", v); });
  add("directions", K::String, kWhat, "",
      "several objectives: minimize|maximize per objective, comma separated (e.g. minimize,maximize); the "
      "objective then reports {\"values\": [v1, v2, ...]}",
      [](StudyOptions& o, const nlohmann::json& v) {
        std::vector<std::string> words;
        if (v.is_string()) {
          std::stringstream ss(v.get<std::string>());
          for (std::string w; std::getline(ss, w, ',');) words.push_back(trim(w));
        } else if (v.is_array()) {
          for (const auto& w : v) {
            if (!w.is_string()) throw InputError("directions must be a list of 'minimize' or 'maximize'");
            words.push_back(trim(w.get<std::string>()));
          }
        } else {
          throw InputError("directions must be 'minimize,maximize,...' text or a list");
        }
        if (words.empty()) throw InputError("directions: give one 'minimize' or 'maximize' per objective");
        for (const auto& w : words)
          if (w != "minimize" && w != "maximize")
            throw InputError("directions: unknown direction '" + w + "' (allowed: minimize, maximize)");
        o.minimize = words.front() == "minimize";
        o.directions = words.size() > 1 ? words : std::vector<std::string>();
      });
  add("ref-point", K::String, kWhat, "",
      "several objectives: the hypervolume's reference point r1,r2,... in the objectives' own terms (default: "
      "inferred from the Pareto front as BoTorch does)",
      [](StudyOptions& o, const nlohmann::json& v) {
        std::vector<double> r;
        if (v.is_string()) {
          std::stringstream ss(v.get<std::string>());
          for (std::string w; std::getline(ss, w, ',');) {
            const nlohmann::json x = nlohmann::json::parse(trim(w), nullptr, false);
            if (!x.is_number()) throw InputError("ref-point: '" + trim(w) + "' is not a number");
            r.push_back(x.get<double>());
          }
        } else if (v.is_array()) {
          for (const auto& x : v) {
            if (!x.is_number()) throw InputError("ref-point must be a list of numbers");
            r.push_back(x.get<double>());
          }
        } else {
          throw InputError("ref-point must be 'r1,r2,...' text or a list of numbers");
        }
        for (double x : r)
          if (!std::isfinite(x)) throw InputError("ref-point must be finite numbers");
        if (!o.strategy.module_options.is_object()) o.strategy.module_options = nlohmann::json::object();
        o.strategy.module_options["moo"]["ref_point"] = r;
      });
  // ---- run
  add("iters", K::Int, kRun, "", "BO iterations after the initial design (default 50)",
      [](StudyOptions& o, const nlohmann::json& v) { o.iters = static_cast<int>(int_in("iters", v, 0, 1000000)); });
  add("eval-timeout", K::Double, kRun, "", "seconds per objective evaluation, 0 = no limit (default 0)",
      [](StudyOptions& o, const nlohmann::json& v) { o.eval_timeout = number_at_least("eval_timeout", v, 0.0); });
  add("workers", K::Int, kWorkers, "",
      "evaluate with N local `kbo worker` processes sharing the study (default 1: in this process); needs "
      "storage sqlite:PATH or postgresql://…",
      [](StudyOptions& o, const nlohmann::json& v) { o.workers = static_cast<int>(int_in("workers", v, 1, 4096)); });
  add("stale-after", K::Double, kWorkers, "",
      "with workers > 1: seconds without heartbeat before a running trial is re-offered (default 60)",
      [](StudyOptions& o, const nlohmann::json& v) { o.stale_after = number_at_least("stale_after", v, 0.0); });
  add("json", K::Flag, kOutput, "", "print one JSON object instead of a table",
      [](StudyOptions& o, const nlohmann::json& v) { o.json = flag("json", v); });
  // ---- strategy (each sets one StrategyConfig field; check_study_options rejects what the strategy ignores)
  add("strategy", K::String, kStrategy, "strategy", strategies().allowed() + " (default gpucb). " + strategy_helps(),
      [](StudyOptions& o, const nlohmann::json& v) {
        const std::string name = text("strategy", v);
        strategies().get(name);
        o.strategy.strategy = strategies().canonical(name);
      });
  add("kernel", K::String, kStrategy, "kernel", model_kernels().allowed() + " (default matern52)",
      [](StudyOptions& o, const nlohmann::json& v) {
        const std::string name = text("kernel", v);
        model_kernels().get(name);
        o.strategy.kernel = model_kernels().canonical(name);
      });
  add("ard", K::Flag, kStrategy, "ard", "one lengthscale per coordinate (default)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.ard = flag("ard", v); });
  add("no-ard", K::Flag, kStrategy, "ard", "one lengthscale for all coordinates",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.ard = !flag("no_ard", v); });
  add("acq", K::String, kStrategy, "acquisition", acquisitions().allowed() + " (default ucb)",
      [](StudyOptions& o, const nlohmann::json& v) {
        const std::string name = text("acq", v);
        acquisitions().get(name);
        o.strategy.acquisition = acquisitions().canonical(name);
      });
  add("beta", K::Double, kStrategy, "beta", "UCB beta with beta_schedule constant: mu + sqrt(beta) sigma (default 4)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.beta = number_at_least("beta", v, 0.0); });
  add("beta-schedule", K::String, kStrategy, "beta_schedule", "constant | srinivas | chowdhury (default constant; acq ucb)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.beta_schedule = one_of<BetaSchedule>("beta_schedule", v); });
  add("init", K::Int, kStrategy, "n_init", "initial design points (default 5)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.n_init = static_cast<int>(int_in("init", v, 1, 1000000)); });
  add("init-method", K::String, kStrategy, "init_method", "sobol | uniform (default sobol)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.init_method = one_of<SamplingMethod>("init_method", v); });
  add("fit-restarts", K::Int, kStrategy, "fit_restarts",
      "random restarts of the hyperparameter fit besides the warm start (default 2)",
      [](StudyOptions& o, const nlohmann::json& v) {
        o.strategy.fit_restarts = static_cast<int>(int_in("fit_restarts", v, 0, 1000));
      });
  add("seed", K::Int, kStrategy, "seed", "random seed (default 0); same seed => same trials",
      [](StudyOptions& o, const nlohmann::json& v) {
        o.strategy.seed = static_cast<std::uint64_t>(int_in("seed", v, 0, std::numeric_limits<long long>::max()));
      });
  add("acq-optimizer", K::String, kStrategy, "acq_optimizer", "multistart | cmaes | direct (default multistart)",
      [](StudyOptions& o, const nlohmann::json& v) {
        o.strategy.acq_optimizer.type = one_of<AcqOptimizerType>("acq_optimizer", v);
      });
  add("invariance", K::String, kStrategy, "invariance",
      "group the objective is invariant under, acting about the box centre (0.5 on the unit cube of the bounds) or "
      "about --options '{\"invariance\": {\"center\": [c1, ...]}}' (the space's coordinates): none, " +
          group_list() + " (default none; `kbo options` describes each)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.invariance = text("invariance", v); });
  add("invariant-kernel", K::String, kStrategy, "invariant_kernel",
      "max | average | auto (default auto; with invariance): auto fits the max kernel and the plain ARD kernel "
      "on the flat vector at every refit and models with the higher log marginal likelihood (a wrong declared "
      "symmetry then costs little)",
      [](StudyOptions& o, const nlohmann::json& v) {
        o.strategy.invariant_kernel = one_of<InvariantKernelType>("invariant_kernel", v);
      });
  add("set-kernel", K::String, kStrategy, "set_kernel",
      "full | approx | normalized | normalized-approx | max | average | sorted | sliced | aligned | auto (default auto; space "
      "set): mean-pair set kernel exact/approximate, the same normalised to constant prior variance, max over "
      "element orderings, the normalised mean over element orderings (m! terms: for sets of more than 6 "
      "elements it is built as normalized, and trial info says so), the plain ARD kernel on the flat vector of the sorted elements, the plain kernel on the "
      "sorted projections of the elements onto the axes and diagonals (sliced), the plain ARD kernel on the flat "
      "vector of each set's elements paired with the incumbent's (aligned: the fastest), or auto = average, "
      "sliced (for elements of at most 8 coordinates) and sorted, the highest log marginal likelihood models at "
      "every refit; with auto, UCB and at most 12 coordinates the first 10 BO steps explore with beta 16 "
      "(options.bo.early_steps, early_beta) and no BO step suggests two coincident elements unless the best set "
      "has them (options.bo.avoid_coincident)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.set_kernel = one_of<SetKernelType>("set_kernel", v); });
  add("set-L", K::Int, kStrategy, "set_L", "subset size L of the approximate set kernel (0 = m)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.set_L = static_cast<int>(int_in("set_L", v, 0, 1000000)); });
  add("fantasy", K::String, kStrategy, "fantasy",
      "value pending trials are believed to have while others are suggested: " + enum_allowed<FantasyMode>() +
          " (default kriging_believer)",
      [](StudyOptions& o, const nlohmann::json& v) { o.strategy.fantasy = one_of<FantasyMode>("fantasy", v); });
  add("options", K::Json, kStrategy, "module_options",
      "module options as a JSON object of sections: {\"bo\": {...}, \"invariance\": {...}, \"agpucb\": {...}, "
      "\"rkhs_bound\": B}; bo keys: `kbo options` lists them with their defaults, e.g. {\"bo\": {\"prior_mean\": \"gls\", \"alt_kernel\": \"none\"}}; "
      "in a config file also as tables ([options.bo] prior_mean = \"gls\")",
      [](StudyOptions& o, const nlohmann::json& v) {
        // A table (config file [options.bo], Python dict) or the same object as JSON text.
        const nlohmann::json j =
            v.is_string() ? nlohmann::json::parse(v.get<std::string>(), nullptr, /*allow_exceptions=*/false) : v;
        if (!j.is_object())
          throw InputError("options must be a JSON object or a table (e.g. {\"agpucb\": {\"lambda\": 0.1}}, or "
                           "[options.agpucb] in a config file)");
        o.strategy.module_options = j;
      });
  // ---- tell (per invocation, not config keys)
  add("trial", K::Int, kTell, "", "trial id",
      [](StudyOptions& o, const nlohmann::json& v) { o.trial = static_cast<int>(int_in("trial", v, 0, 1 << 30)); }, false);
  add("value", K::Double, kTell, "", "objective value of the trial",
      [](StudyOptions& o, const nlohmann::json& v) {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
          throw InputError("value must be a finite number (got " + v.dump() + "; report a failure with --failed REASON)");
        o.value = v.get<double>();
      }, false);
  add("values", K::String, kTell, "", "the objective values v1,v2,... of the trial (a study with several objectives)",
      [](StudyOptions& o, const nlohmann::json& v) {
        std::vector<double> r;
        if (v.is_string()) {
          std::stringstream ss(v.get<std::string>());
          for (std::string w; std::getline(ss, w, ',');) {
            const nlohmann::json x = nlohmann::json::parse(trim(w), nullptr, false);
            if (!x.is_number() || !std::isfinite(x.get<double>()))
              throw InputError("values: '" + trim(w) + "' is not a finite number");
            r.push_back(x.get<double>());
          }
        } else {
          throw InputError("values must be 'v1,v2,...' text");
        }
        if (r.empty()) throw InputError("values: give one number per objective");
        o.values = r;
      }, false);
  add("failed", K::String, kTell, "", "mark the trial failed with this reason",
      [](StudyOptions& o, const nlohmann::json& v) {
        const std::string reason = v.is_string() ? v.get<std::string>() : "";
        o.failed = reason.empty() ? std::string("failed") : reason;
      }, false);
  return t;
}

std::string config_name(const std::string& option) {
  std::string k = option;
  std::replace(k.begin(), k.end(), '-', '_');
  return k;
}

std::string join(const std::set<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool lists(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

const std::vector<OptionSpec>& study_option_table() {
  static const std::vector<OptionSpec> table = build_table();
  return table;
}

const OptionSpec* find_study_option(std::string_view name) {
  const std::string key = normalise(name);
  for (const auto& spec : study_option_table())
    if (normalise(spec.name) == key) return &spec;
  return nullptr;
}

void set_study_option(StudyOptions& o, const OptionSpec& spec, const nlohmann::json& value) {
  spec.apply(o, value);
  o.given.insert(spec.name);
}

nlohmann::json option_value_from_text(const OptionSpec& spec, const std::string& raw) {
  const std::string t = trim(raw);
  switch (spec.kind) {
    case OptionKind::Flag:
      if (t == "true") return true;
      if (t == "false") return false;
      throw InputError("--" + spec.name + " must be true or false (got '" + raw + "')");
    case OptionKind::Int: {
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(t.c_str(), &end, 10);
      if (t.empty() || *end != '\0' || errno != 0)
        throw InputError("--" + spec.name + " must be an integer (got '" + raw + "')");
      return v;
    }
    case OptionKind::Double: {
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(t.c_str(), &end);
      if (t.empty() || *end != '\0' || !std::isfinite(v))
        throw InputError("--" + spec.name + " must be a finite number (got '" + raw + "')");
      // Underflow: strtod returns 0 or a subnormal that keeps only some digits; refuse rather than store
      // another number than the one written.
      if (errno == ERANGE && std::abs(v) < std::numeric_limits<double>::min())
        throw InputError("--" + spec.name + " " + raw + " is too small in magnitude for a double (it would be stored as " +
                         format_double(v) + "; the smallest normal magnitude is 2.2250738585072014e-308)");
      return v;
    }
    case OptionKind::String: return raw;
    case OptionKind::Json: {
      nlohmann::json j = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded())
        throw InputError("--" + spec.name + ": not valid JSON (expected an object such as {\"agpucb\": {\"lambda\": 0.1}})");
      return j;
    }
  }
  return raw;
}

Box parse_bounds(const std::string& text_in) {
  std::vector<double> lo, hi;
  std::stringstream ss(text_in);
  std::string item;
  int index = 0;
  while (std::getline(ss, item, ',')) {
    const std::string t = trim(item);
    const auto colon = t.find(':');
    char* e1 = nullptr;
    char* e2 = nullptr;
    double a = 0, b = 0;
    bool ok = colon != std::string::npos;
    if (ok) {
      const std::string sa = trim(t.substr(0, colon)), sb = trim(t.substr(colon + 1));
      a = std::strtod(sa.c_str(), &e1);
      b = std::strtod(sb.c_str(), &e2);
      ok = !sa.empty() && !sb.empty() && *e1 == '\0' && *e2 == '\0' && std::isfinite(a) && std::isfinite(b);
    }
    if (!ok)
      throw InputError("bounds entry " + std::to_string(index + 1) + " '" + t +
                       "' is not lo:hi with finite numbers (expected lo:hi,lo:hi,...)");
    if (!(a < b))
      throw InputError("bounds entry " + std::to_string(index + 1) + " '" + t + "' has lo >= hi (need lo < hi)");
    // Points are lo + u·(hi − lo) for u in [0, 1]: the width must be a finite double, and wide enough
    // against the magnitudes that the interval holds more than a handful of distinct doubles.
    if (!std::isfinite(b - a))
      throw InputError("bounds entry " + std::to_string(index + 1) + " '" + t +
                       "' is too wide: hi - lo overflows a double (keep hi - lo below 1.7e308, e.g. -1e307:1e307, "
                       "or rescale the parameter)");
    if (b - a < 1e-12 * std::max(std::abs(a), std::abs(b)))
      throw InputError("bounds entry " + std::to_string(index + 1) + " '" + t +
                       "' is too narrow for its magnitude (hi - lo must be at least 1e-12 of max(|lo|, |hi|); "
                       "shift or rescale the parameter)");
    lo.push_back(a);
    hi.push_back(b);
    ++index;
  }
  if (lo.empty()) throw InputError("bounds is empty (expected lo:hi,lo:hi,...)");
  // getline drops a last empty item: "0:1," would silently be a 1-d box.
  if (trim(text_in).back() == ',')
    throw InputError("bounds entry " + std::to_string(index + 1) + " is empty (trailing comma; expected lo:hi,lo:hi,...)");
  return Box(Eigen::Map<Vec>(lo.data(), static_cast<Eigen::Index>(lo.size())),
             Eigen::Map<Vec>(hi.data(), static_cast<Eigen::Index>(hi.size())));
}

nlohmann::json resolve_space(const StudyOptions& o, std::optional<Problem>* problem) {
  if (!o.problem.empty() && !o.objective.empty())
    throw InputError("problem and objective are mutually exclusive (a built-in problem or your command)");
  if (!o.problem.empty()) {
    if (!o.bounds.empty()) throw InputError("bounds are only for an objective (a problem has its own bounds)");
    if (!o.params.empty()) throw InputError("param/params are only for an objective (a problem has its own bounds)");
    if (o.space != "box") throw InputError("space set needs an objective (built-in problems are boxes)");
    Problem p = make_problem(o.problem, o.dim);
    nlohmann::json space = box_space_json(p.bounds);
    if (problem) *problem = std::move(p);
    return space;
  }
  if (o.dim != 0) throw InputError("dim is only for a problem (the dimension of an objective comes from its bounds)");
  if (!o.params.empty()) {
    if (!o.bounds.empty()) throw InputError("bounds and param/params are mutually exclusive (give one kind of space)");
    if (o.space != "box" || o.set_size != 0 || o.element_dim != 0)
      throw InputError("space set and param/params are mutually exclusive (a params space has named parameters)");
    return ParamsSpace(params_from_json(o.params)).to_json();
  }
  if (o.bounds.empty())
    throw InputError(o.objective.empty() ? "no objective: give --problem NAME, --objective CMD --bounds lo:hi,..., or --config FILE"
                                         : "--objective needs --bounds lo:hi,lo:hi,...");
  const Box box = parse_bounds(o.bounds);
  if (o.space == "box") {
    if (o.set_size != 0 || o.element_dim != 0) throw InputError("set_size/element_dim need space set");
    return box_space_json(box);
  }
  // Set space: bounds is the box of ONE element (d entries); a point is m·d coordinates.
  if (o.set_size < 1) throw InputError("space set needs set_size M (number of elements, >= 1)");
  if (o.element_dim != 0 && o.element_dim != box.dim())
    throw InputError("element_dim " + std::to_string(o.element_dim) + " does not match the " +
                     std::to_string(box.dim()) + " entries of bounds (one lo:hi per element coordinate)");
  nlohmann::json space = box_space_json(box);
  space["type"] = "set";
  space["set_size"] = o.set_size;
  space["element_dim"] = box.dim();
  return space;
}

void check_study_options(const StudyOptions& o, const nlohmann::json& space_json) {
  const StrategyConfig& c = o.strategy;
  const std::shared_ptr<const Space> space = space_from_json(space_json);
  validate(c, space->dim());
  const StrategyEntry& strategy = strategies().get(c.strategy);
  const std::set<std::string> uses(strategy.honours.begin(), strategy.honours.end());

  // Keys owned by an acquisition, a kernel structure or a space kind are used only while that owner is.
  std::map<std::string, std::string> why_unused;  // field → who does not use it
  const AcquisitionEntry& acquisition = acquisitions().get(c.acquisition);
  for (const auto& name : acquisitions().names())
    for (const auto& key : acquisitions().get(name).honours)
      if (!uses.count("acquisition") || !lists(acquisition.honours, key))
        why_unused[key] = "acquisition '" + c.acquisition + "'";
  if (uses.count("acquisition") && lists(acquisition.honours, "beta") && c.beta_schedule != BetaSchedule::Constant)
    why_unused["beta"] = "beta_schedule '" + enum_name(c.beta_schedule) + "' (beta comes from the schedule)";
  for (const auto& name : kernel_structures().names())
    for (const auto& key : kernel_structures().get(name).honours)
      if (c.invariance == "none") why_unused[key] = "a model without invariance";
  const SpaceKindEntry& kind = space_kinds().get(space->kind());
  for (const auto& name : space_kinds().names())
    for (const auto& key : space_kinds().get(name).honours)
      if (!lists(kind.honours, key)) why_unused[key] = "a '" + space->kind() + "' space";

  std::set<std::string> used_options;
  for (const auto& spec : study_option_table())
    if (!spec.field.empty() && uses.count(spec.field)) used_options.insert(config_name(spec.name));
  for (const auto& given : o.given) {
    const OptionSpec* spec = find_study_option(given);
    if (!spec || spec->field.empty() || spec->field == "strategy") continue;
    const std::string name = config_name(spec->name);
    if (!uses.count(spec->field))
      throw InputError("option '" + name + "' is not used by strategy '" + c.strategy + "' (it uses: " +
                       join(used_options) + ")");
    if (auto it = why_unused.find(spec->field); it != why_unused.end())
      throw InputError("option '" + name + "' is not used with " + it->second);
    // Invariant kernels: ARD is honoured by the max kernel fitted on itself (lengthscales tied across the
    // coordinates the group mixes); the average kernel and the fit on the base kernel use one lengthscale.
    if (spec->name == "ard" && c.ard && c.invariance != "none") {
      const nlohmann::json inv = c.module_options.value("invariance", nlohmann::json::object());
      if (c.invariant_kernel == InvariantKernelType::Average)
        throw InputError("option 'ard' is not used with invariant_kernel 'average' (it uses one lengthscale for all "
                         "coordinates; max and auto tie ARD lengthscales across the coordinates the group mixes)");
      if (inv.is_object() && inv.value("fit", std::string("kernel")) == "base")
        throw InputError("option 'ard' is not used with options.invariance.fit 'base' (one lengthscale for all "
                         "coordinates)");
    }
    if (spec->name == "ard" && c.ard && space->kind() == "set" &&
        (c.set_kernel == SetKernelType::Average || c.set_kernel == SetKernelType::Sliced))
      throw InputError("option 'ard' is not used with set_kernel '" + enum_name(c.set_kernel) +
                       "' (it uses one lengthscale; max, normalized, sorted and auto honour ARD)");
  }
  if (o.given.count("options")) {
    const nlohmann::json sections = normalized_module_options(c);
    for (const auto& item : sections.items()) {
      const OptionSectionEntry& section = option_sections().get(item.key());
      const bool used = section.used ? section.used(c) : lists(strategy.sections, item.key());
      if (!used) {
        std::set<std::string> its(strategy.sections.begin(), strategy.sections.end());
        throw InputError("options section '" + item.key() + "' is not used by strategy '" + c.strategy +
                         "' with these options (its sections: " + (its.empty() ? "none" : join(its)) + ")");
      }
    }
  }
}

StudyRecord make_study_record(const StudyOptions& given, const nlohmann::json& space) {
  StudyOptions o = given;
  const std::size_t k = o.directions.size();
  if (k > 1) {
    // Several objectives: the multi-objective strategy unless another one that can take them is named.
    if (!o.given.count("strategy")) o.strategy.strategy = "moo";
    if (o.strategy.strategy != "moo" && o.strategy.strategy != "random")
      throw InputError("strategy '" + o.strategy.strategy + "' optimises one objective; with " + std::to_string(k) +
                       " --directions use moo (the default) or random");
    if (o.given.count("minimize") || o.given.count("maximize"))
      throw InputError("--minimize/--maximize are for one objective; with several give --directions only");
  }
  const nlohmann::json& mo = o.strategy.module_options;
  if (mo.is_object() && mo.contains("moo") && mo["moo"].is_object() && mo["moo"].contains("ref_point")) {
    const std::size_t n = mo["moo"]["ref_point"].is_array() ? mo["moo"]["ref_point"].size() : 0;
    if (k < 2) throw InputError("--ref-point is for studies with several objectives (--directions a,b,...)");
    if (n != k)
      throw InputError("--ref-point has " + std::to_string(n) + " entries; --directions has " + std::to_string(k));
  }
  check_study_options(o, space);
  StudyRecord r;
  r.name = o.study;
  r.minimize = o.minimize;
  r.directions = o.directions;
  r.space = space;
  r.config = to_json(o.strategy);
  return r;
}

std::string strategy_options_table() {
  std::ostringstream out;
  std::vector<std::string> names = strategies().names();
  out << "| option |";
  for (const auto& n : names) out << " " << n << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < names.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& spec : study_option_table()) {
    if (spec.field.empty() || spec.field == "strategy") continue;
    out << "| `" << spec.name << "` |";
    for (const auto& n : names) out << " " << (lists(strategies().get(n).honours, spec.field) ? "yes" : "—") << " |";
    out << "\n";
  }
  return out.str();
}

}  // namespace kbo
