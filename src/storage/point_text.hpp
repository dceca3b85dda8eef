#pragma once
// A trial's point as the SQL backends store it: a JSON array of numbers.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/linalg.hpp"

namespace kbo::detail {

inline Vec parse_x(const std::string& text) {
  const auto j = nlohmann::json::parse(text);
  Vec x(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i) x(static_cast<Eigen::Index>(i)) = j[i].get<double>();
  return x;
}

inline std::string dump_x(const Vec& x) {
  return nlohmann::json(std::vector<double>(x.data(), x.data() + x.size())).dump();
}

}  // namespace kbo::detail
