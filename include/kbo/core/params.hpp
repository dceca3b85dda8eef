#pragma once
// Named, typed parameters: a search space whose points a user reads as {"lr": 0.003, "layers": 4,
// "optimizer": "adam"} instead of a positional vector.
//
// Every parameter is encoded into zero or more coordinates of the flat point x (DESIGN.md §2: the GP,
// acquisition and optimisers see only x):
//   float  [low, high]        1 coordinate, the value itself            (log: ln v ∈ [ln low, ln high])
//   int    [low, high]        1 coordinate in [low − ½, high + ½], canonical x = the integer
//                             (log: ln v ∈ [ln(low − ½), ln(high + ½)], canonical x = ln of the integer)
//   categorical (k choices)   k coordinates in [0, 1] (one-hot), canonical x = the one-hot of the choice
//   fixed                     no coordinate (the value is attached when a point is decoded)
// canonicalize() rounds every discrete coordinate to its canonical value (the input map T of the
// transformed kernel of Garrido-Merchán & Hernández-Lobato 2020): every point the model sees, stores or
// suggests is canonical, so the GP never models a value that cannot occur. The ±½ margins give every integer
// the same width, so uniform sampling draws them with equal probability. Log parameters are warped by the
// encoding itself, so the unit cube the GP works on is uniform in ln v.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/core/enum_names.hpp"
#include "kbo/core/space.hpp"

namespace kbo {

enum class ParamType { Float, Int, Categorical, Fixed };
template <>
struct EnumNames<ParamType> {
  static constexpr std::array<std::pair<ParamType, const char*>, 4> table{{{ParamType::Float, "float"},
                                                                           {ParamType::Int, "int"},
                                                                           {ParamType::Categorical, "categorical"},
                                                                           {ParamType::Fixed, "fixed"}}};
  static constexpr std::array<std::pair<ParamType, const char*>, 3> aliases{
      {{ParamType::Categorical, "cat"}, {ParamType::Int, "integer"}, {ParamType::Float, "real"}}};
};

/// One parameter. Checked on construction by parse_param/params_from_json (InputError naming it).
struct ParamDef {
  std::string name;
  ParamType type = ParamType::Float;
  double low = 0.0, high = 1.0;             // float, int (int: whole numbers)
  bool log = false;                         // float, int: low > 0 (int: low >= 1)
  std::vector<nlohmann::json> choices;      // categorical: ≥ 1 distinct strings, numbers or booleans
  nlohmann::json value;                     // fixed: a string, number or boolean
  bool operator==(const ParamDef&) const = default;
};

/// The compact text form, as `--param` takes it:
///   NAME=float:LOW:HIGH[:log]   NAME=int:LOW:HIGH[:log]   NAME=cat:A,B,C   NAME=fixed:VALUE
/// ("categorical" for "cat" also works). A choice or fixed value that reads as a number is that number.
ParamDef parse_param(const std::string& text);
/// {"name","type","low","high","log"} | {"name","type":"categorical","choices"} | {"name","type":"fixed","value"}
/// (unknown keys are errors), or a compact string; `name` (if not empty) supplies/overrides the name.
ParamDef param_from_json(const nlohmann::json& j, const std::string& name = "");
nlohmann::json to_json(const ParamDef& p);  // the canonical stored form (always the same keys per type)
/// A parameter list: an array of objects or compact strings, or an object {name: object | compact form
/// without the name | [choices] | scalar (fixed)}. InputError for an empty list, a repeated name, or a list
/// with nothing that varies.
std::vector<ParamDef> params_from_json(const nlohmann::json& j);
/// Text of one parameter for tables: "lr float [1e-05, 0.1] log".
std::string describe(const ParamDef& p);

class ParamsSpace : public Space {
 public:
  explicit ParamsSpace(std::vector<ParamDef> params);  // InputError for a bad list (see params_from_json)
  int dim() const override { return dim_; }
  const Box& bounds() const override { return box_; }
  /// Space::sample; a Sobol design also shows every choice of each categorical parameter (balanced, see .cpp).
  Mat sample(int n, SamplingMethod method, Rng& rng) const override;
  void canonicalize(Vec& x) const override;
  std::string describe() const override;
  std::string kind() const override { return "params"; }
  nlohmann::json named(const Vec& x) const override;
  Vec from_named(const nlohmann::json& values) const override;
  std::vector<bool> discrete_coordinates() const override { return discrete_; }
  std::vector<Vec> discrete_neighbours(const Vec& x) const override;

  const std::vector<ParamDef>& params() const { return params_; }
  /// {"type": "params", "params": [to_json(p)...]}, as stored with a study.
  nlohmann::json to_json() const;
  /// The value of parameter i at the canonical point x (typed: a float, an integer, a choice).
  nlohmann::json value_of(std::size_t i, const Vec& x) const;

 private:
  std::vector<ParamDef> params_;
  std::vector<int> offset_;  // first coordinate of each parameter (its width: 0, 1 or k)
  std::vector<bool> discrete_;
  int dim_ = 0;
  Box box_;
};

/// The stored space {"type": "params", "params": [...]} → ParamsSpace (InputError naming the parameter).
std::shared_ptr<const Space> params_space_from_json(const nlohmann::json& j);

}  // namespace kbo
