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

/// The library names keys ("init must be …"); on the command line the user typed "--init".
std::string as_flag_message(const OptionSpec& spec, const std::string& message) {
  std::string key = spec.name;
  std::replace(key.begin(), key.end(), '-', '_');
  if (message.rfind(key + " ", 0) == 0 || message.rfind(key + ":", 0) == 0)
    return "--" + spec.name + message.substr(key.size());
  return "--" + spec.name + ": " + message;
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
  for (auto&& [key, node] : tbl) {
    const std::string k(key.str());
    const OptionSpec* spec = find_study_option(k);
    if (!spec || !spec->in_config) {
      std::string allowed;
      for (const auto& s : study_option_table())
        if (s.in_config) allowed += (allowed.empty() ? "" : ", ") + s.name;
      throw InputError("--config " + path + ": unknown key '" + k + "' (line " +
                       std::to_string(node.source().begin.line) + "; allowed: " + allowed + ")");
    }
    try {
      set_study_option(o, *spec, toml_to_json(node));
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
  }
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

void require_persistent_storage(const StudyOptions& o, const std::string& command) {
  if (o.storage == "memory")
    throw InputError(command + " needs a persistent study: --storage sqlite:PATH or postgresql://USER@HOST:PORT/DB (memory storage ends with each process)");
}

}  // namespace kbo::cli
