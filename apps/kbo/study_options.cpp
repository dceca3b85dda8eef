// Shared study options: CLI flags and TOML keys from one table (see study_options.hpp).
#include "study_options.hpp"

#include "command.hpp"
#include "kbo/storage/stored_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>

#include <toml++/toml.h>

#include "kbo/core/error.hpp"
#include "kbo/core/suggest.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo::cli {

namespace {

/// TOML value → the typed value the option table takes (tables become JSON objects, arrays JSON arrays).
nlohmann::json toml_to_json(const toml::node& node) {
  if (auto v = node.value_exact<std::string>()) return *v;
  if (auto v = node.value_exact<bool>()) return *v;
  if (auto v = node.value_exact<std::int64_t>()) return *v;
  if (auto v = node.value_exact<double>()) return *v;
  if (const auto* arr = node.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& item : *arr) j.push_back(toml_to_json(item));
    return j;
  }
  if (const auto* tbl = node.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (auto&& [key, value] : *tbl) j[std::string(key.str())] = toml_to_json(value);
    return j;
  }
  throw InputError("unsupported TOML value (dates and times are not options)");
}

/// The config-file spelling of an option ("eval_timeout" for --eval-timeout).
std::string config_key(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

/// The library names keys ("init must be …"); on the command line the user typed "--init".
std::string as_flag_message(const OptionSpec& spec, const std::string& message) {
  std::string key = spec.name;
  std::replace(key.begin(), key.end(), '-', '_');
  if (message.rfind(key + " ", 0) == 0 || message.rfind(key + ":", 0) == 0)
    return "--" + spec.name + message.substr(key.size());
  return "--" + spec.name + ": " + message;
}

}  // namespace

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A value naming a file, read from a config file in `dir`: relative paths are relative to `dir`.
nlohmann::json relative_to_config(const OptionSpec& spec, const nlohmann::json& value, const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  if (!value.is_string() || spec.path == PathKind::None) return value;
  const std::string v = value.get<std::string>();
  std::error_code ec;
  if (dir.empty() || fs::equivalent(dir, fs::current_path(), ec)) return value;  // already relative to the cwd
  switch (spec.path) {
    case PathKind::Storage: {
      const std::string url = normalize_storage_url(v);  // InputError for a malformed one, naming the shapes
      if (url.rfind("sqlite:", 0) != 0) return url;
      const fs::path file = url.substr(7);
      return file.is_absolute() ? url : "sqlite:" + (dir / file).lexically_normal().string();
    }
    case PathKind::File: {
      const fs::path file = v;
      return v.empty() || file.is_absolute() ? v : (dir / file).lexically_normal().string();
    }
    case PathKind::Command:
      // A shell command: run it in the config file's directory, so that every relative path in it (the
      // script, its data files) means what it meant next to the config file.
      return v.empty() ? v : "cd " + shell_quote(dir.string()) + " && " + v;
    case PathKind::None: break;
  }
  return value;
}

}  // namespace

void apply_config_file(StudyOptions& o, const std::string& path) {
  toml::table tbl;
  try {
    tbl = toml::parse_file(path);
  } catch (const toml::parse_error& err) {
    std::ostringstream msg;
    msg << "--config " << path << ": " << err.description() << " (line " << err.source().begin.line << ")";
    throw InputError(msg.str());
  }
  // Every unknown key at once (a typo rarely comes alone), each with the closest known key.
  std::vector<std::string> keys;
  for (const auto& s : study_option_table())
    if (s.in_config) keys.push_back(config_key(s.name));
  std::string unknown;
  int n_unknown = 0;
  for (auto&& [key, node] : tbl) {
    const std::string k(key.str());
    const OptionSpec* spec = find_study_option(k);
    if (spec && spec->in_config) continue;
    ++n_unknown;
    unknown += (unknown.empty() ? "" : ", ") + ("'" + k + "' (line " + std::to_string(node.source().begin.line) + ")") +
               did_you_mean(k, keys);
  }
  if (n_unknown > 0) {
    std::string allowed;
    for (const auto& k : keys) allowed += (allowed.empty() ? "" : ", ") + k;
    throw InputError("--config " + path + ": unknown key" + (n_unknown > 1 ? "s " : " ") + unknown +
                     "; allowed: " + allowed);
  }
  const std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
  for (auto&& [key, node] : tbl) {
    const std::string k(key.str());
    const OptionSpec* spec = find_study_option(k);
    const auto text = node.value_exact<std::string>();
    if (text && text->find_first_not_of(" \t\r\n") == std::string::npos)
      throw InputError("--config " + path + ": key '" + k + "' (line " + std::to_string(node.source().begin.line) +
                       ") is empty");
    try {
      set_study_option(o, *spec, relative_to_config(*spec, toml_to_json(node), dir));
    } catch (const InputError& err) {
      throw InputError("--config " + path + ": key '" + k + "' (line " + std::to_string(node.source().begin.line) +
                       "): " + err.what());
    }
  }
}

struct StudyOptionParser::Entry {
  const OptionSpec* spec;
  CLI::Option* option = nullptr;
  std::string text;  // value given on the command line
  bool flag = false;
};

StudyOptionParser::StudyOptionParser(CLI::App& app, unsigned groups) : app_(app), groups_(groups) {
  if (groups_ & kWhere)
    app_.add_option("--config", config_path_, "TOML file with any of these options (flags override it)");
  for (const OptionSpec& spec : study_option_table()) {
    auto e = std::make_shared<Entry>();
    e->spec = &spec;
    entries_.push_back(e);
    if (!(spec.group & groups_)) continue;
    const std::string flag = "--" + spec.name;
    if (spec.kind == OptionKind::Flag) e->option = app_.add_flag(flag, e->flag, spec.help);
    else
      e->option = app_.add_option(flag, e->text, spec.help)
                      ->type_name(spec.kind == OptionKind::Int      ? "INT"
                                  : spec.kind == OptionKind::Double ? "FLOAT"
                                  : spec.kind == OptionKind::Json   ? "JSON"
                                                                    : "TEXT");
    if (spec.repeatable) e->option->multi_option_policy(CLI::MultiOptionPolicy::Join);
    table_options().insert(e->option);
  }
}

void StudyOptionParser::needs_persistent_storage() {
  for (const auto& e : entries_)
    if (e->spec->name == "storage" && e->option)
      e->option->description("required (or from --config): the study's storage, " + storage_url_forms() +
                             ", or a file path such as study.db (sqlite); memory storage ends with each process");
}

bool StudyOptionParser::given(const std::string& name) const {
  for (const auto& e : entries_)
    if (e->spec->name == name && e->option && e->option->count() > 0) return true;
  return false;
}

StudyOptions StudyOptionParser::resolve(const StudyOptions& base) const {
  StudyOptions o = base;
  o.given.clear();
  if (!config_path_.empty()) apply_config_file(o, config_path_);
  // Flags override the file; a flag pair given twice on the command line is contradictory.
  if (given("minimize") && given("maximize")) throw InputError("--minimize and --maximize are mutually exclusive");
  if (given("ard") && given("no-ard")) throw InputError("--ard and --no-ard are mutually exclusive");
  if (given("value") && given("failed")) throw InputError("--value and --failed are mutually exclusive");
  for (const auto& e : entries_) {
    if (!e->option || e->option->count() == 0) continue;
    // An empty value is a mistake (an unset shell variable, say), never "not given".
    if (e->spec->kind != OptionKind::Flag && e->text.find_first_not_of(" \t\r\n") == std::string::npos)
      throw InputError("--" + e->spec->name + " is given an empty value");
    const nlohmann::json value =
        e->spec->kind == OptionKind::Flag ? nlohmann::json(true) : option_value_from_text(*e->spec, e->text);
    try {
      set_study_option(o, *e->spec, value);
    } catch (const InputError& err) {
      throw InputError(as_flag_message(*e->spec, err.what()));
    }
  }
  return o;
}

void say_changed_settings(const std::string& program, const std::string& study, const std::vector<std::string>& changed) {
  if (changed.empty()) return;
  std::string list;
  for (const auto& c : changed) list += (list.empty() ? "" : "; ") + c;
  std::fprintf(stderr, "%s: study '%s' continues with changed settings: %s (its trials so far are kept)\n",
               program.c_str(), terminal_text(study).c_str(), list.c_str());
}

bool say_if_budget_met(const Study& study, int n_init, int iters) {
  int finished = 0, failed = 0;
  for (const auto& t : study.trials()) {
    if (t.state == TrialState::Pending || !counts_toward_budget(t)) continue;
    ++finished;
    failed += t.state == TrialState::Failed;
  }
  const int total = n_init + iters;
  if (finished < total) return false;
  std::fprintf(stderr,
               "kbo optimize: study '%s' has met its budget: %d of %d trials finished (--init %d + --iters %d; %d "
               "failed, and failed trials count too). Nothing to run; to continue, raise --iters, e.g. --iters %d "
               "for 10 more trials\n",
               terminal_text(study.name()).c_str(), finished, total, n_init, iters, failed, finished - n_init + 10);
  return true;
}

void require_persistent_storage(const StudyOptions& o) {
  if (o.storage == "memory")
    throw InputError("--storage is required: this command works on a stored study (--storage sqlite:PATH, a file path "
                     "such as study.db, or postgresql://USER@HOST:PORT/DB; memory storage ends with each process)");
}

}  // namespace kbo::cli
