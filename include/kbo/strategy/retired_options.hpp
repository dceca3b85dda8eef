#pragma once
// options.bo keys the model no longer has. A stored study or a config may still carry one: at a value that
// means something today it is translated (or accepted as the fixed value it names); any other value is a
// one-line InputError naming what replaced the key.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbo {

struct RetiredOption {
  std::string key;
  // A value the key may still have, and the options it means today ({}: the value is now fixed).
  std::vector<std::pair<double, nlohmann::json>> accepted;
  std::string replacement;  // what the error names for any other value
};

/// The retired keys of options.bo.
const std::vector<RetiredOption>& retired_bo_options();

/// `bo` without its retired keys, their translations merged in (a key given explicitly wins).
/// InputError for a retired key at a value with no meaning today.
nlohmann::json without_retired_bo_options(const nlohmann::json& bo);

}  // namespace kbo
