// Study options from a TOML file (include/kbo/study/config_file.hpp): every key of the option table, with
// paths relative to the file.
#include "kbo/study/config_file.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <toml++/toml.h>

#include "kbo/core/error.hpp"
#include "kbo/core/suggest.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo {

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

}  // namespace

namespace {

std::string quote_for_shell(const std::string& s) {
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
      return v.empty() ? v : "cd " + quote_for_shell(dir.string()) + " && " + v;
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

}  // namespace kbo
