#pragma once
// The study's parameters as the user declared them, for the views: one axis per parameter (not per coordinate
// of the encoded point x), with its type, its bounds in the user's units and the coordinates that encode it.
// A params space (kbo/core/params.hpp) gives one axis per float/int/categorical parameter (a fixed one has no
// coordinate and no axis); a box or set space one float axis per coordinate (x0…, e{i}.x{k}).
//
// Levels are the values a view evaluates the model at along one axis, each as the encoded coordinates it sets:
//   float        `points` values evenly spaced in the encoding (ln v for log=True, so a geometric grid in v)
//   int          every integer when there are at most `points`, else `points` evenly spaced encodings rounded to
//                their integers (duplicates dropped)
//   categorical  every choice (its one-hot)
// Each level carries its weight under the uniform measure on the unit cube (the measure of the variance
// decomposition): equal for float and categorical levels, the width of the integer's cell in the encoding for
// int levels (so a log int weighs small integers more, as sampling draws them).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/space.hpp"

namespace kbo {

struct ParamAxis {
  std::string name;
  std::string type = "float";            // "float" | "int" | "categorical"
  bool log = false;                      // float/int searched on a log scale
  nlohmann::json lower, upper;           // user units (null for a categorical)
  std::vector<nlohmann::json> choices;   // categorical
  std::vector<int> coordinates;          // of the encoded point, in order (one-hot block for a categorical)
  int param_index = -1;                  // index in ParamsSpace::params(), −1 for a box/set coordinate
};

struct AxisLevels {
  std::vector<nlohmann::json> values;    // in user units: numbers (integers for int) or choices
  std::vector<Vec> encoded;              // per level, the values of the axis's coordinates (original encoding)
  std::vector<double> weights;           // sum to 1
};

/// The axes of `space` (as stored: `stored`). `names` are coordinate_names for non-params spaces.
std::vector<ParamAxis> param_axes(const Space& space, const std::vector<std::string>& coordinate_names);

/// The levels of `axis` with at most `points` numeric values (see the header comment).
AxisLevels axis_levels(const ParamAxis& axis, const Space& space, int points);

/// The axis's value at the (canonical) point x in user units: a number, an integer or a choice.
nlohmann::json axis_value(const ParamAxis& axis, const Space& space, const Vec& x);

/// {name, type, log, lower, upper, choices (categorical), coordinates}.
nlohmann::json to_json(const ParamAxis& axis);

}  // namespace kbo
