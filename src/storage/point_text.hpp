#pragma once
// A trial's point as the SQL backends store it: a JSON array of numbers.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/linalg.hpp"

namespace kbo::detail {

/// The stored point; std::runtime_error unless it is a JSON array of finite numbers (a row edited outside kbo
/// must be reported, not read as zeros).
inline Vec parse_x(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const std::string shown = text.size() > 60 ? text.substr(0, 60) + "..." : text;
  if (!j.is_array()) throw std::runtime_error("x is not a list of numbers ('" + shown + "')");
  Vec x(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number() || !std::isfinite(j[i].get<double>()))
      throw std::runtime_error("coordinate " + std::to_string(i) + " of x is not a finite number ('" + shown + "')");
    x(static_cast<Eigen::Index>(i)) = j[i].get<double>();
  }
  return x;
}

inline std::string dump_x(const Vec& x) {
  return nlohmann::json(std::vector<double>(x.data(), x.data() + x.size())).dump();
}

}  // namespace kbo::detail
