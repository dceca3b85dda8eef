#pragma once
// One codec per field type: a typed value ⇄ its JSON form, with errors that name the key. Config structs
// declare their fields once in an X-macro list (see strategy/config.hpp); serialisation to the stored study,
// parsing of CLI/TOML/Python values and the option table are all generated from that list, so a field
// cannot be forgotten on one side.
#include <cmath>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "kbo/core/enum_names.hpp"
#include "kbo/core/error.hpp"

namespace kbo {

template <class T>
struct FieldCodec;

// Field lists are X-macros X(type, name, default). These two expand one into members and into the
// visit_fields overload every codec, parser and test uses.
#define KBO_FIELD_MEMBER(type, name, init) type name = init;
#define KBO_FIELD_VISIT(type, name, init) visitor(#name, object.name);
#define KBO_VISIT_FIELDS(Type, LIST)                                      \
  template <class Object, class Visitor>                                  \
    requires std::is_same_v<std::remove_const_t<Object>, Type>            \
  void visit_fields(Object& object, Visitor&& visitor) {                  \
    LIST(KBO_FIELD_VISIT)                                                 \
  }

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires { EnumNames<E>::table; };

namespace fields_detail {
[[noreturn]] inline void fail(std::string_view key, const char* expected, const nlohmann::json& got) {
  throw InputError(std::string(key) + " must be " + expected + " (got " + got.dump() + ")");
}
}  // namespace fields_detail

template <>
struct FieldCodec<bool> {
  static nlohmann::json encode(bool v) { return v; }
  static bool decode(std::string_view key, const nlohmann::json& j) {
    if (!j.is_boolean()) fields_detail::fail(key, "true or false", j);
    return j.get<bool>();
  }
};

template <>
struct FieldCodec<int> {
  static nlohmann::json encode(int v) { return v; }
  static int decode(std::string_view key, const nlohmann::json& j) {
    // Integral doubles (e.g. 5.0 from a TOML float or a Python float) are accepted; 5.5 is not.
    if (j.is_number_integer()) {
      const auto v = j.get<long long>();
      if (v >= INT32_MIN && v <= INT32_MAX) return static_cast<int>(v);
    } else if (j.is_number_float()) {
      const double v = j.get<double>();
      if (std::isfinite(v) && v == std::floor(v) && std::abs(v) <= 2147483647.0) return static_cast<int>(v);
    }
    fields_detail::fail(key, "an integer", j);
  }
};

template <>
struct FieldCodec<std::uint64_t> {
  static nlohmann::json encode(std::uint64_t v) { return v; }
  static std::uint64_t decode(std::string_view key, const nlohmann::json& j) {
    if (j.is_number_unsigned()) return j.get<std::uint64_t>();
    if (j.is_number_integer() && j.get<long long>() >= 0) return static_cast<std::uint64_t>(j.get<long long>());
    fields_detail::fail(key, "an integer >= 0", j);
  }
};

template <>
struct FieldCodec<double> {
  static nlohmann::json encode(double v) { return v; }
  static double decode(std::string_view key, const nlohmann::json& j) {
    if (!j.is_number() || !std::isfinite(j.get<double>())) fields_detail::fail(key, "a finite number", j);
    return j.get<double>();
  }
};

template <>
struct FieldCodec<std::string> {
  static nlohmann::json encode(const std::string& v) { return v; }
  static std::string decode(std::string_view key, const nlohmann::json& j) {
    if (!j.is_string()) fields_detail::fail(key, "a string", j);
    return j.get<std::string>();
  }
};

template <>
struct FieldCodec<std::optional<double>> {
  static nlohmann::json encode(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }
  static std::optional<double> decode(std::string_view key, const nlohmann::json& j) {
    if (j.is_null()) return std::nullopt;
    return FieldCodec<double>::decode(key, j);
  }
};

/// Free-form JSON (module option sections): validated by the section's own parser, not here.
template <>
struct FieldCodec<nlohmann::json> {
  static nlohmann::json encode(const nlohmann::json& v) { return v; }
  static nlohmann::json decode(std::string_view key, const nlohmann::json& j) {
    if (!j.is_object()) fields_detail::fail(key, "a JSON object", j);
    return j;
  }
};

template <NamedEnum E>
struct FieldCodec<E> {
  static nlohmann::json encode(E v) { return enum_name(v); }
  static E decode(std::string_view key, const nlohmann::json& j) {
    if (!j.is_string()) throw InputError(std::string(key) + " must be one of " + enum_allowed<E>() + " (got " + j.dump() + ")");
    return parse_enum<E>(key, j.get<std::string>());
  }
};

/// A struct with a `visit_fields(obj, visitor)` overload is stored as a JSON object of its fields.
template <class T>
concept HasFields = requires(T& t) { visit_fields(t, [](const char*, auto&) {}); };

template <HasFields T>
struct FieldCodec<T> {
  static nlohmann::json encode(const T& v) {
    nlohmann::json j = nlohmann::json::object();
    visit_fields(v, [&](const char* name, const auto& field) {
      j[name] = FieldCodec<std::decay_t<decltype(field)>>::encode(field);
    });
    return j;
  }
  /// Missing keys keep their defaults; unknown keys are an InputError naming the key and the allowed ones.
  static T decode(std::string_view key, const nlohmann::json& j) {
    T v{};
    if (j.is_null()) return v;
    if (!j.is_object()) fields_detail::fail(key, "a JSON object", j);
    std::string allowed;
    visit_fields(v, [&](const char* name, auto&) { allowed += (allowed.empty() ? "" : ", ") + std::string(name); });
    for (const auto& item : j.items()) {
      bool known = false;
      visit_fields(v, [&](const char* name, auto& field) {
        if (item.key() != name) return;
        known = true;
        if (!item.value().is_null() || std::is_same_v<std::decay_t<decltype(field)>, std::optional<double>>)
          field = FieldCodec<std::decay_t<decltype(field)>>::decode(std::string(key) + "." + name, item.value());
      });
      if (!known)
        throw InputError(std::string(key) + ": unknown key '" + item.key() + "' (allowed: " + allowed + ")");
    }
    return v;
  }
};

template <class T>
nlohmann::json encode_field(const T& v) {
  return FieldCodec<T>::encode(v);
}
template <class T>
T decode_field(std::string_view key, const nlohmann::json& j) {
  return FieldCodec<T>::decode(key, j);
}

}  // namespace kbo
