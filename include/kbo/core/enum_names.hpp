#pragma once
// Text ⇄ enum in one place. Each enum lists its names once (a specialisation of EnumNames); every edge
// that reads text — CLI flags, TOML keys, Python keywords, stored JSON — parses with parse_enum, whose
// InputError names the key and the allowed values. Below the edges nothing compares strings.
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "kbo/core/error.hpp"

namespace kbo {

/// Specialise with `static constexpr std::array<std::pair<E, const char*>, N> table{{...}};` (canonical
/// names, in declaration order) and optionally `aliases` of the same form (accepted, never printed).
template <class E>
struct EnumNames;

template <class E>
std::string enum_name(E value) {
  for (const auto& [e, name] : EnumNames<E>::table)
    if (e == value) return name;
  return "?";
}

/// "a, b, c": the names of every value, in declaration order (for help texts and errors).
template <class E>
std::string enum_allowed() {
  std::string list;
  for (const auto& entry : EnumNames<E>::table) list += (list.empty() ? "" : ", ") + std::string(entry.second);
  return list;
}

/// The value named `text`; InputError "KEY: unknown value 'TEXT' (allowed: …)" otherwise.
template <class E>
E parse_enum(std::string_view key, std::string_view text) {
  for (const auto& [e, name] : EnumNames<E>::table)
    if (text == name) return e;
  if constexpr (requires { EnumNames<E>::aliases; })
    for (const auto& [e, name] : EnumNames<E>::aliases)
      if (text == name) return e;
  throw InputError(std::string(key) + ": unknown value '" + std::string(text) + "' (allowed: " + enum_allowed<E>() +
                   ")");
}

}  // namespace kbo
