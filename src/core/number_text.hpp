#pragma once
// A number as the parameter errors and descriptions print it: 12 significant digits, no trailing zeros.
#include <sstream>
#include <string>

namespace kbo::detail {

inline std::string number_text(double v) {
  std::ostringstream o;
  o.precision(12);
  o << v;
  return o.str();
}

}  // namespace kbo::detail
