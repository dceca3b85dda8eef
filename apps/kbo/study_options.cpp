// Shared study options: CLI flags and TOML keys from one table (see study_options.hpp).
#include "study_options.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include <toml++/toml.h>

#include "kbo/core/error.hpp"
#include "kbo/acquisition/fantasy.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kbo/optimize/multistart.hpp"

namespace kbo::cli {

namespace {

enum class Kind { String, Int, Double, Flag };

using Apply = std::function<void(StudyOptions&, const std::string& value)>;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

long long parse_int(const std::string& flag, const std::string& text, long long lo, long long hi) {
  const std::string t = trim(text);
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
    throw InputError("--" + flag + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "] (got '" + text + "')");
  return v;
}

double parse_double(const std::string& flag, const std::string& text, double lo) {
  const std::string t = trim(text);
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !std::isfinite(v) || v < lo) {
    std::ostringstream msg;
    msg << "--" << flag << " must be a finite number >= " << lo << " (got '" << text << "')";
    throw InputError(msg.str());
  }
  return v;
}

bool parse_bool(const std::string& flag, const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw InputError("'" + flag + "' must be true or false (got '" + text + "')");
}

std::string one_of(const std::string& flag, const std::string& text, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), text) != allowed.end()) return text;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw InputError("--" + flag + ": unknown value '" + text + "' (allowed: " + list + ")");
}

std::string format_double(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

/// TOML value → the text a flag would carry. Arrays are accepted for bounds ([[lo, hi], ...]).
std::string toml_to_text(const std::string& key, const toml::node& node, Kind kind) {
  if (kind == Kind::Flag) {
    if (!node.is_boolean()) throw InputError("config key '" + key + "' must be true or false");
    return *node.value<bool>() ? "true" : "false";
  }
  if (auto s = node.value_exact<std::string>()) return *s;
  if (node.is_integer()) return std::to_string(*node.value<std::int64_t>());
  if (node.is_floating_point()) return format_double(*node.value<double>());
  if (node.is_boolean()) return *node.value<bool>() ? "true" : "false";
  if (key == "bounds" && node.is_array()) {
    std::string text;
    for (const auto& item : *node.as_array()) {
      const auto* pair = item.as_array();
      if (!pair || pair->size() != 2 || !(*pair)[0].is_number() || !(*pair)[1].is_number())
        throw InputError("config key 'bounds' must be \"lo:hi,...\" or an array of [lo, hi] pairs");
      text += (text.empty() ? "" : ",") + format_double(*(*pair)[0].value<double>()) + ":" +
              format_double(*(*pair)[1].value<double>());
    }
    return text;
  }
  throw InputError("config key '" + key + "' has an unsupported type (expected a string or a number)");
}

std::string normalise_key(std::string k) {
  std::replace(k.begin(), k.end(), '_', '-');
  std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return std::tolower(c); });
  return k;
}

}  // namespace

struct StudyOptionParser::Entry {
  std::string name;  // flag name without "--"
  Kind kind;
  unsigned group;
  bool in_toml;      // allowed as a config key
  std::string help;
  Apply apply;
  CLI::Option* option = nullptr;
  std::string text;  // value given on the command line
  bool flag = false;
};

StudyOptionParser::StudyOptionParser(CLI::App& app, unsigned groups) : app_(app), groups_(groups) {
  auto add = [&](std::string name, Kind kind, unsigned group, std::string help, Apply apply, bool in_toml = true) {
    auto e = std::make_shared<Entry>();
    e->name = std::move(name);
    e->kind = kind;
    e->group = group;
    e->in_toml = in_toml;
    e->help = std::move(help);
    e->apply = std::move(apply);
    entries_.push_back(e);
  };
  auto& S = add;
  // ---- where
  S("storage", Kind::String, kWhere, "memory | sqlite:PATH | postgresql://USER@HOST:PORT/DB | postgresql:///DB?host=/socket/dir (default memory)",
    [](StudyOptions& o, const std::string& v) { o.storage = trim(v); });
  S("study", Kind::String, kWhere, "study name (default 'default')", [](StudyOptions& o, const std::string& v) {
    if (trim(v).empty()) throw InputError("--study must not be empty");
    o.study = trim(v);
  });
  // ---- what
  S("problem", Kind::String, kWhat, "built-in problem: " + [] {
      std::string s;
      for (const auto& n : problem_names()) s += (s.empty() ? "" : ", ") + n;
      return s;
    }(), [](StudyOptions& o, const std::string& v) { o.problem = trim(v); });
  S("dim", Kind::Int, kWhat, "dimension of a --problem that has a variable dimension",
    [](StudyOptions& o, const std::string& v) { o.dim = static_cast<int>(parse_int("dim", v, 1, 100000)); });
  S("objective", Kind::String, kWhat, "shell command: reads {\"trial\":id,\"x\":[...]} on stdin, prints the value last",
    [](StudyOptions& o, const std::string& v) { o.objective = v; });
  S("bounds", Kind::String, kWhat, "lo:hi,lo:hi,... (one per coordinate; per element coordinate for --space set)",
    [](StudyOptions& o, const std::string& v) { o.bounds = trim(v); });
  S("space", Kind::String, kWhat, "box | set (default box)",
    [](StudyOptions& o, const std::string& v) { o.space = one_of("space", trim(v), {"box", "set"}); });
  S("set-size", Kind::Int, kWhat, "number of elements m of a set (--space set)",
    [](StudyOptions& o, const std::string& v) { o.set_size = static_cast<int>(parse_int("set-size", v, 1, 100000)); });
  S("element-dim", Kind::Int, kWhat, "dimension d of each set element (--space set; default: number of --bounds)",
    [](StudyOptions& o, const std::string& v) {
      o.element_dim = static_cast<int>(parse_int("element-dim", v, 1, 100000));
    });
  S("minimize", Kind::Flag, kWhat, "minimise the objective (default)",
    [](StudyOptions& o, const std::string& v) { o.minimize = parse_bool("minimize", v); });
  S("maximize", Kind::Flag, kWhat, "maximise the objective",
    [](StudyOptions& o, const std::string& v) { o.minimize = !parse_bool("maximize", v); });
  // ---- run
  S("iters", Kind::Int, kRun, "BO iterations after the initial design (default 50)",
    [](StudyOptions& o, const std::string& v) { o.iters = static_cast<int>(parse_int("iters", v, 0, 1000000)); });
  S("eval-timeout", Kind::Double, kRun, "seconds per objective evaluation, 0 = no limit (default 0)",
    [](StudyOptions& o, const std::string& v) { o.eval_timeout = parse_double("eval-timeout", v, 0.0); });
  S("workers", Kind::Int, kWorkers,
    "evaluate with N local `kbo worker` processes sharing the study (default 1: in this process); needs "
    "storage sqlite:PATH or postgresql://…",
    [](StudyOptions& o, const std::string& v) { o.workers = static_cast<int>(parse_int("workers", v, 1, 4096)); });
  S("stale-after", Kind::Double, kWorkers,
    "with workers > 1: seconds without heartbeat before a running trial is re-offered (default 60)",
    [](StudyOptions& o, const std::string& v) { o.stale_after = parse_double("stale-after", v, 0.0); });
  S("json", Kind::Flag, kOutput, "print one JSON object instead of a table",
    [](StudyOptions& o, const std::string& v) { o.json = parse_bool("json", v); });
  // ---- strategy
  S("strategy", Kind::String, kStrategy, "gpucb | agpucb | random (default gpucb)",
    [](StudyOptions& o, const std::string& v) { o.strategy.strategy = one_of("strategy", trim(v), {"gpucb", "agpucb", "random"}); });
  S("kernel", Kind::String, kStrategy, "rbf | matern12 | matern32 | matern52 (default matern52)",
    [](StudyOptions& o, const std::string& v) {
      parse_stationary_type(trim(v));  // validates, InputError lists the kernels
      o.strategy.kernel = trim(v);
    });
  S("ard", Kind::Flag, kStrategy, "one lengthscale per coordinate (default)",
    [](StudyOptions& o, const std::string& v) { o.strategy.ard = parse_bool("ard", v); });
  S("no-ard", Kind::Flag, kStrategy, "one lengthscale for all coordinates",
    [](StudyOptions& o, const std::string& v) { o.strategy.ard = !parse_bool("no-ard", v); });
  S("acq", Kind::String, kStrategy, "ucb | ei | pi (default ucb)",
    [](StudyOptions& o, const std::string& v) { o.strategy.acquisition = one_of("acq", trim(v), {"ucb", "ei", "pi"}); });
  S("beta", Kind::Double, kStrategy, "UCB beta: mu + sqrt(beta) sigma (default 4)",
    [](StudyOptions& o, const std::string& v) { o.strategy.beta = parse_double("beta", v, 0.0); });
  S("beta-schedule", Kind::String, kStrategy, "constant | srinivas | chowdhury (default constant)",
    [](StudyOptions& o, const std::string& v) {
      o.strategy.beta_schedule = one_of("beta-schedule", trim(v), {"constant", "srinivas", "chowdhury"});
    });
  S("init", Kind::Int, kStrategy, "initial design points (default 5)",
    [](StudyOptions& o, const std::string& v) { o.strategy.n_init = static_cast<int>(parse_int("init", v, 1, 1000000)); });
  S("init-method", Kind::String, kStrategy, "sobol | uniform (default sobol)",
    [](StudyOptions& o, const std::string& v) { o.strategy.init_method = parse_sampling_method(trim(v)); });
  S("fit-restarts", Kind::Int, kStrategy, "random restarts of the hyperparameter fit besides the warm start (default 2)",
    [](StudyOptions& o, const std::string& v) {
      o.strategy.fit_restarts = static_cast<int>(parse_int("fit-restarts", v, 0, 1000));
    });
  S("seed", Kind::Int, kStrategy, "random seed (default 0); same seed => same trials",
    [](StudyOptions& o, const std::string& v) {
      o.strategy.seed = static_cast<std::uint64_t>(parse_int("seed", v, 0, std::numeric_limits<long long>::max()));
    });
  S("acq-optimizer", Kind::String, kStrategy, "multistart | cmaes | direct (default multistart)",
    [](StudyOptions& o, const std::string& v) { o.strategy.acq_optimizer.type = parse_acq_optimizer(trim(v)); });
  S("invariance", Kind::String, kStrategy, "group the objective is invariant under (default none)",
    [](StudyOptions& o, const std::string& v) { o.strategy.invariance = trim(v); });
  S("invariant-kernel", Kind::String, kStrategy, "max | average (default max)",
    [](StudyOptions& o, const std::string& v) {
      o.strategy.invariant_kernel = one_of("invariant-kernel", trim(v), {"max", "average"});
    });
  S("set-kernel", Kind::String, kStrategy, "full | approx (default full; --space set)",
    [](StudyOptions& o, const std::string& v) { o.strategy.set_kernel = one_of("set-kernel", trim(v), {"full", "approx"}); });
  S("set-L", Kind::Int, kStrategy, "subset size L of the approximate set kernel (0 = m)",
    [](StudyOptions& o, const std::string& v) { o.strategy.set_L = static_cast<int>(parse_int("set-L", v, 0, 1000000)); });
  S("fantasy", Kind::String, kStrategy,
    std::string("value pending trials are believed to have while others are suggested: ") + fantasy_mode_names() +
        " (default kriging_believer)",
    [](StudyOptions& o, const std::string& v) {
      parse_fantasy_mode(trim(v));  // validates, InputError lists the modes
      o.strategy.fantasy = trim(v);
    });
  S("options", Kind::String, kStrategy,
    "module options as a JSON object: {\"bo\": {...}, \"invariance\": {...}, \"agpucb\": {...}, \"rkhs_bound\": B}; "
    "bo keys are kbo::BOModelOptions', e.g. {\"bo\": {\"prior_mean\": \"gls\", \"alt_kernel\": \"none\"}}",
    [](StudyOptions& o, const std::string& v) {
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(v);
      } catch (const std::exception&) {
        throw InputError("options: not valid JSON (expected an object such as {\"agpucb\": {\"lambda\": 0.1}})");
      }
      if (!j.is_object()) throw InputError("options: must be a JSON object");
      o.strategy.module_options = j;
    });
  // ---- tell (per invocation, not config keys)
  S("trial", Kind::Int, kTell, "trial id",
    [](StudyOptions& o, const std::string& v) { o.trial = static_cast<int>(parse_int("trial", v, 0, 1 << 30)); }, false);
  S("value", Kind::String, kTell, "objective value of the trial",
    [](StudyOptions& o, const std::string& v) {
      const std::string t = trim(v);
      char* end = nullptr;
      const double d = std::strtod(t.c_str(), &end);
      if (t.empty() || *end != '\0' || !std::isfinite(d))
        throw InputError("--value must be a finite number (got '" + v + "'; report a failure with --failed REASON)");
      o.value = d;
    }, false);
  S("failed", Kind::String, kTell, "mark the trial failed with this reason",
    [](StudyOptions& o, const std::string& v) { o.failed = v.empty() ? std::string("failed") : v; }, false);

  if (groups_ & kWhere)
    app_.add_option("--config", config_path_, "TOML file with any of these options (flags override it)");
  for (auto& e : entries_) {
    if (!(e->group & groups_)) continue;
    const std::string flag = "--" + e->name;
    if (e->kind == Kind::Flag) e->option = app_.add_flag(flag, e->flag, e->help);
    else
      e->option = app_.add_option(flag, e->text, e->help)
                      ->type_name(e->kind == Kind::Int ? "INT" : e->kind == Kind::Double ? "FLOAT" : "TEXT");
  }
}

bool StudyOptionParser::given(const std::string& name) const {
  for (const auto& e : entries_)
    if (e->name == name && e->option && e->option->count() > 0) return true;
  return false;
}

StudyOptions StudyOptionParser::resolve(const StudyOptions& base) const {
  StudyOptions o = base;
  if (!config_path_.empty()) {
    toml::table tbl;
    try {
      tbl = toml::parse_file(config_path_);
    } catch (const toml::parse_error& err) {
      std::ostringstream msg;
      msg << "--config " << config_path_ << ": " << err.description() << " (line " << err.source().begin.line << ")";
      throw InputError(msg.str());
    }
    for (auto&& [key, node] : tbl) {
      const std::string k(key.str());
      const std::string nk = normalise_key(k);
      auto it = std::find_if(entries_.begin(), entries_.end(),
                             [&](const auto& e) { return e->in_toml && normalise_key(e->name) == nk; });
      if (it == entries_.end()) {
        std::string allowed;
        for (const auto& e : entries_)
          if (e->in_toml) allowed += (allowed.empty() ? "" : ", ") + e->name;
        throw InputError("--config " + config_path_ + ": unknown key '" + k + "' (allowed: " + allowed + ")");
      }
      (*it)->apply(o, toml_to_text(k, node, (*it)->kind));
    }
  }
  // Flags override the file; a flag pair given twice on the command line is contradictory.
  if (given("minimize") && given("maximize")) throw InputError("--minimize and --maximize are mutually exclusive");
  if (given("ard") && given("no-ard")) throw InputError("--ard and --no-ard are mutually exclusive");
  if (given("value") && given("failed")) throw InputError("--value and --failed are mutually exclusive");
  for (const auto& e : entries_) {
    if (!e->option || e->option->count() == 0) continue;
    e->apply(o, e->kind == Kind::Flag ? std::string("true") : e->text);
  }
  return o;
}

Box parse_bounds(const std::string& text) {
  std::vector<double> lo, hi;
  std::stringstream ss(text);
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
      throw InputError("--bounds entry " + std::to_string(index + 1) + " '" + t +
                       "' is not lo:hi with finite numbers (expected lo:hi,lo:hi,...)");
    if (!(a < b))
      throw InputError("--bounds entry " + std::to_string(index + 1) + " '" + t + "' has lo >= hi (need lo < hi)");
    lo.push_back(a);
    hi.push_back(b);
    ++index;
  }
  if (lo.empty()) throw InputError("--bounds is empty (expected lo:hi,lo:hi,...)");
  return Box(Eigen::Map<Vec>(lo.data(), static_cast<Eigen::Index>(lo.size())),
             Eigen::Map<Vec>(hi.data(), static_cast<Eigen::Index>(hi.size())));
}

nlohmann::json resolve_space(const StudyOptions& o, std::optional<Problem>* problem) {
  if (!o.problem.empty() && !o.objective.empty())
    throw InputError("--problem and --objective are mutually exclusive (a built-in problem or your command)");
  if (!o.problem.empty()) {
    if (!o.bounds.empty()) throw InputError("--bounds is only for --objective (a --problem has its own bounds)");
    if (o.space != "box") throw InputError("--space set needs --objective (built-in problems are boxes)");
    Problem p = make_problem(o.problem, o.dim);
    nlohmann::json space = box_space_json(p.bounds);
    if (problem) *problem = std::move(p);
    return space;
  }
  if (o.dim != 0) throw InputError("--dim is only for --problem (the dimension of --objective comes from --bounds)");
  if (o.bounds.empty())
    throw InputError(o.objective.empty() ? "no objective: give --problem NAME, --objective CMD --bounds lo:hi,..., or --config FILE"
                                         : "--objective needs --bounds lo:hi,lo:hi,...");
  const Box box = parse_bounds(o.bounds);
  if (o.space == "box") {
    if (o.set_size != 0 || o.element_dim != 0) throw InputError("--set-size/--element-dim need --space set");
    return box_space_json(box);
  }
  // Set space: --bounds is the box of ONE element (d entries); a point is m·d coordinates.
  if (o.set_size < 1) throw InputError("--space set needs --set-size M (number of elements, >= 1)");
  if (o.element_dim != 0 && o.element_dim != box.dim())
    throw InputError("--element-dim " + std::to_string(o.element_dim) + " does not match the " +
                     std::to_string(box.dim()) + " entries of --bounds (one lo:hi per element coordinate)");
  nlohmann::json space = box_space_json(box);
  space["type"] = "set";
  space["set_size"] = o.set_size;
  space["element_dim"] = box.dim();
  return space;
}

void require_persistent_storage(const StudyOptions& o, const std::string& command) {
  if (o.storage == "memory")
    throw InputError(command + " needs a persistent study: --storage sqlite:PATH or postgresql://USER@HOST:PORT/DB (memory storage ends with each process)");
}

namespace {
std::string fmt_value(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  std::ostringstream out;
  out.precision(8);
  out << v.get<double>();
  return out.str();
}
std::string fmt_x(const nlohmann::json& x) {
  std::ostringstream out;
  out.precision(6);
  out << "[";
  for (std::size_t i = 0; i < x.size(); ++i) out << (i ? ", " : "") << x[i].get<double>();
  out << "]";
  return out.str();
}
}  // namespace

void print_study_table(std::ostream& out, const nlohmann::json& s) {
  out << "study '" << s["study"].get<std::string>() << "' in " << s["storage"].get<std::string>() << " ("
      << s["direction"].get<std::string>() << ", " << describe_space_json(s["space"]) << ")\n";
  char line[256];
  std::snprintf(line, sizeof line, "%6s  %-9s %16s  %s\n", "trial", "state", "value", "x");
  out << line;
  const nlohmann::json best_id = s["best_trial"];
  for (const auto& t : s["trials"]) {
    const bool is_best = !best_id.is_null() && t["id"] == best_id;
    std::snprintf(line, sizeof line, "%5d%s  %-9s %16s  ", t["id"].get<int>(), is_best ? "*" : " ",
                  t["state"].get<std::string>().c_str(), fmt_value(t["value"]).c_str());
    out << line << fmt_x(t["x"]);
    if (t.contains("reason")) out << "  (" << t["reason"].get<std::string>() << ")";
    out << "\n";
  }
  out << s["n_trials"].get<int>() << " trials: " << s["n_complete"].get<int>() << " complete, "
      << s["n_failed"].get<int>() << " failed, " << s["n_pending"].get<int>() << " pending\n";
  if (best_id.is_null()) out << "no complete trial yet\n";
  else out << "best: trial " << best_id.get<int>() << ", value " << fmt_value(s["best_value"]) << " at x = "
           << fmt_x(s["best_x"]) << "\n";
}

StudyRecord make_study_record(const StudyOptions& o, const nlohmann::json& space) {
  StudyRecord r;
  r.name = o.study;
  r.minimize = o.minimize;
  r.space = space;
  r.config = to_json(o.strategy);
  return r;
}

}  // namespace kbo::cli
