// Parameter specifications: the compact text form, the JSON form and their checks (see kbo/core/params.hpp).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/core/params.hpp"
#include "number_text.hpp"

namespace kbo {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

using detail::number_text;

[[noreturn]] void bad(const std::string& name, const std::string& what) {
  throw InputError("param '" + name + "': " + what);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

/// A number if the whole (trimmed) text is one, else nullopt.
std::optional<double> as_number(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// A choice or fixed value from text: the number it reads as (an integer stays one), else the string.
nlohmann::json scalar_from_text(const std::string& text) {
  const std::string t = trim(text);
  if (auto v = as_number(t)) {
    if (*v == std::floor(*v) && std::abs(*v) < 9e15 && t.find_first_of(".eE") == std::string::npos)
      return static_cast<long long>(*v);
    return *v;
  }
  return t;
}

double number_in(const std::string& name, const std::string& key, const std::string& text) {
  auto v = as_number(text);
  if (!v) bad(name, key + " must be a finite number (got '" + trim(text) + "')");
  return *v;
}

bool is_scalar(const nlohmann::json& v) {
  return v.is_string() || v.is_boolean() || (v.is_number() && std::isfinite(v.get<double>()));
}

void check_name(const std::string& name) {
  if (name.empty()) throw InputError("param: every parameter needs a name (NAME=TYPE:...)");
  for (char c : name)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '=' || c == ',' || c == ':' || c == ';' || c == '"')
      throw InputError("param '" + name + "': a name may not contain spaces or any of = , : ; \"");
}

/// The checks every construction path shares.
void check(ParamDef& p) {
  check_name(p.name);
  switch (p.type) {
    case ParamType::Float:
    case ParamType::Int: {
      if (!std::isfinite(p.low) || !std::isfinite(p.high)) bad(p.name, "low and high must be finite numbers");
      if (p.type == ParamType::Int && (p.low != std::floor(p.low) || p.high != std::floor(p.high)))
        bad(p.name, "an int parameter needs whole-number low and high (got " + number_text(p.low) + ", " + number_text(p.high) + ")");
      if (p.type == ParamType::Int && (std::abs(p.low) > 9e15 || std::abs(p.high) > 9e15))
        bad(p.name, "int bounds must be within ±9e15");
      if (!(p.low < p.high))
        bad(p.name, "needs low < high (got low " + number_text(p.low) + ", high " + number_text(p.high) + ")");
      if (p.log && p.type == ParamType::Float && !(p.low > 0.0))
        bad(p.name, "log scale needs low > 0 (got " + number_text(p.low) + ")");
      if (p.log && p.type == ParamType::Int && !(p.low >= 1.0))
        bad(p.name, "log scale needs low >= 1 for an int (got " + number_text(p.low) + ")");
      break;
    }
    case ParamType::Categorical: {
      if (p.choices.empty()) bad(p.name, "a categorical parameter needs at least one choice");
      for (std::size_t i = 0; i < p.choices.size(); ++i) {
        if (!is_scalar(p.choices[i])) bad(p.name, "choices must be strings, finite numbers or booleans (got " + p.choices[i].dump() + ")");
        for (std::size_t j = 0; j < i; ++j)
          if (p.choices[j] == p.choices[i]) bad(p.name, "choice " + p.choices[i].dump() + " is listed twice");
      }
      break;
    }
    case ParamType::Fixed:
      if (!is_scalar(p.value)) bad(p.name, "a fixed value must be a string, a finite number or a boolean (got " + p.value.dump() + ")");
      break;
  }
}

ParamType type_of(const std::string& name, const std::string& text) {
  try {
    return parse_enum<ParamType>("type", trim(text));
  } catch (const InputError&) {
    bad(name, "unknown type '" + trim(text) + "' (allowed: float, int, categorical (or cat), fixed)");
  }
}

/// "TYPE:ARGS" for a parameter called name.
ParamDef parse_body(const std::string& name, const std::string& body) {
  ParamDef p;
  p.name = name;
  const auto colon = body.find(':');
  p.type = type_of(name, body.substr(0, colon));
  const std::string args = colon == std::string::npos ? "" : body.substr(colon + 1);
  switch (p.type) {
    case ParamType::Float:
    case ParamType::Int: {
      const auto parts = split(args, ':');
      if (colon == std::string::npos || parts.size() < 2 || parts.size() > 3 ||
          (parts.size() == 3 && trim(parts[2]) != "log" && trim(parts[2]) != "linear"))
        bad(name, "expected " + enum_name(p.type) + ":LOW:HIGH or " + enum_name(p.type) + ":LOW:HIGH:log (got '" +
                      body + "')");
      p.low = number_in(name, "low", parts[0]);
      p.high = number_in(name, "high", parts[1]);
      p.log = parts.size() == 3 && trim(parts[2]) == "log";
      break;
    }
    case ParamType::Categorical:
      if (trim(args).empty()) bad(name, "a categorical parameter needs at least one choice (cat:A,B,...)");
      for (const auto& c : split(args, ',')) {
        if (trim(c).empty()) bad(name, "empty choice in '" + args + "'");
        p.choices.push_back(scalar_from_text(c));
      }
      break;
    case ParamType::Fixed:
      if (colon == std::string::npos || trim(args).empty()) bad(name, "expected fixed:VALUE");
      p.value = scalar_from_text(args);
      break;
  }
  check(p);
  return p;
}

double number_field(const std::string& name, const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) bad(name, std::string("needs '") + key + "'");
  const auto& v = j[key];
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    bad(name, std::string(key) + " must be a finite number (got " + v.dump() + ")");
  return v.get<double>();
}

}  // namespace

ParamDef parse_param(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos)
    throw InputError("param '" + trim(text) + "': expected NAME=TYPE:... (e.g. lr=float:1e-5:1e-1:log, layers=int:1:8, "
                     "opt=cat:adam,sgd, seed=fixed:0)");
  const std::string name = trim(text.substr(0, eq));
  check_name(name);
  return parse_body(name, text.substr(eq + 1));
}

ParamDef param_from_json(const nlohmann::json& j, const std::string& name_in) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    // With a name from the caller (an object keyed by name), the text may leave it out: "float:0:1".
    if (!name_in.empty() && s.find('=') == std::string::npos) return parse_body(name_in, s);
    ParamDef p = parse_param(s);
    if (!name_in.empty() && p.name != name_in) bad(name_in, "its text names another parameter ('" + p.name + "')");
    return p;
  }
  const std::string hint = name_in.empty() && j.is_object() && j.contains("name") && j["name"].is_string()
                               ? j["name"].get<std::string>()
                               : name_in;
  if (!j.is_object()) {
    if (!name_in.empty() && j.is_array()) {  // {"opt": ["adam", "sgd"]}: choices
      ParamDef p;
      p.name = name_in;
      p.type = ParamType::Categorical;
      p.choices.assign(j.begin(), j.end());
      check(p);
      return p;
    }
    if (!name_in.empty() && is_scalar(j)) {  // {"seed": 0}: fixed
      ParamDef p;
      p.name = name_in;
      p.type = ParamType::Fixed;
      p.value = j;
      check(p);
      return p;
    }
    throw InputError("param" + (hint.empty() ? std::string() : " '" + hint + "'") +
                     ": expected an object {\"name\", \"type\", ...} or NAME=TYPE:... text (got " + j.dump() + ")");
  }
  ParamDef p;
  p.name = hint;
  if (j.contains("name") && (!j["name"].is_string() || (!name_in.empty() && j["name"] != name_in)))
    bad(hint, "'name' must be a string" + (name_in.empty() ? std::string() : " equal to its key"));
  check_name(p.name);
  if (!j.contains("type") || !j["type"].is_string())
    bad(p.name, "needs a 'type' (float, int, categorical, fixed)");
  p.type = type_of(p.name, j["type"].get<std::string>());
  std::set<std::string> allowed{"name", "type"};
  switch (p.type) {
    case ParamType::Float:
    case ParamType::Int:
      allowed.insert({"low", "high", "log"});
      p.low = number_field(p.name, j, "low");
      p.high = number_field(p.name, j, "high");
      if (j.contains("log")) {
        if (!j["log"].is_boolean()) bad(p.name, "log must be true or false (got " + j["log"].dump() + ")");
        p.log = j["log"].get<bool>();
      }
      break;
    case ParamType::Categorical:
      allowed.insert("choices");
      if (!j.contains("choices") || !j["choices"].is_array()) bad(p.name, "needs 'choices', a list of values");
      p.choices.assign(j["choices"].begin(), j["choices"].end());
      break;
    case ParamType::Fixed:
      allowed.insert("value");
      if (!j.contains("value")) bad(p.name, "needs 'value'");
      p.value = j["value"];
      break;
  }
  for (const auto& item : j.items())
    if (!allowed.count(item.key())) {
      std::string list;
      for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
      bad(p.name, "unknown key '" + item.key() + "' for a " + enum_name(p.type) + " parameter (allowed: " + list + ")");
    }
  check(p);
  return p;
}

nlohmann::json to_json(const ParamDef& p) {
  nlohmann::json j{{"name", p.name}, {"type", enum_name(p.type)}};
  switch (p.type) {
    case ParamType::Float:
      j["low"] = p.low;
      j["high"] = p.high;
      j["log"] = p.log;
      break;
    case ParamType::Int:
      j["low"] = static_cast<long long>(p.low);
      j["high"] = static_cast<long long>(p.high);
      j["log"] = p.log;
      break;
    case ParamType::Categorical: j["choices"] = p.choices; break;
    case ParamType::Fixed: j["value"] = p.value; break;
  }
  return j;
}

std::vector<ParamDef> params_from_json(const nlohmann::json& j) {
  std::vector<ParamDef> out;
  if (j.is_array()) {
    for (const auto& item : j) out.push_back(param_from_json(item));
  } else if (j.is_object()) {
    for (const auto& item : j.items()) out.push_back(param_from_json(item.value(), item.key()));
  } else if (j.is_string()) {
    out.push_back(param_from_json(j));
  } else {
    throw InputError("params must be a list of parameters or an object {name: spec} (got " + j.dump() + ")");
  }
  if (out.empty()) throw InputError("params: no parameters given");
  std::set<std::string> names;
  bool varies = false;
  for (const auto& p : out) {
    if (!names.insert(p.name).second) bad(p.name, "defined twice");
    varies = varies || p.type != ParamType::Fixed;
  }
  if (!varies) throw InputError("params: every parameter is fixed; at least one must vary");
  return out;
}

std::string describe(const ParamDef& p) {
  switch (p.type) {
    case ParamType::Float:
    case ParamType::Int:
      return p.name + " " + enum_name(p.type) + " [" + number_text(p.low) + ", " + number_text(p.high) + "]" + (p.log ? " log" : "");
    case ParamType::Categorical: {
      std::string s;
      for (const auto& c : p.choices) s += (s.empty() ? "" : ", ") + (c.is_string() ? c.get<std::string>() : c.dump());
      return p.name + " {" + s + "}";
    }
    case ParamType::Fixed:
      return p.name + " = " + (p.value.is_string() ? p.value.get<std::string>() : p.value.dump());
  }
  return p.name;
}

}  // namespace kbo
