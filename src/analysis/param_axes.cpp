// The study's parameters as the views show them (kbo/analysis/param_axes.hpp).
#include "kbo/analysis/param_axes.hpp"

#include <algorithm>
#include <cmath>

#include "kbo/core/params.hpp"

namespace kbo {

namespace {

AxisLevels evenly_spaced(double lo, double hi, int points) {
  AxisLevels out;
  for (int g = 0; g < points; ++g) {
    // lo + (g/(points−1))·(hi − lo): the ends are exactly lo and hi.
    const double e = g == points - 1 ? hi : lo + (hi - lo) * static_cast<double>(g) / (points - 1);
    out.encoded.push_back(Vec::Constant(1, e));
    out.values.push_back(e);
    out.weights.push_back(1.0 / points);
  }
  return out;
}

AxisLevels int_levels(const ParamDef& p, const ParamAxis& axis, const Space& space, int points) {
  const auto& params_space = static_cast<const ParamsSpace&>(space);
  const int j = axis.coordinates[0];
  const double lo = space.bounds().lower[j], hi = space.bounds().upper[j];
  std::vector<double> integers;
  if (p.high - p.low + 1 <= points) {
    for (double k = p.low; k <= p.high; k += 1.0) integers.push_back(k);
  } else {
    Vec x = space.bounds().lower;  // only coordinate j matters to value_of
    for (int g = 0; g < points; ++g) {
      x[j] = lo + (hi - lo) * static_cast<double>(g) / (points - 1);
      const double k = params_space.value_of(static_cast<std::size_t>(axis.param_index), x).get<double>();
      if (integers.empty() || k != integers.back()) integers.push_back(k);
    }
  }
  AxisLevels out;
  const auto enc = [&](double v) { return p.log ? std::log(v) : v; };
  double total = 0.0;
  for (size_t i = 0; i < integers.size(); ++i) {
    const double k = integers[i];
    out.encoded.push_back(Vec::Constant(1, enc(k)));
    out.values.push_back(static_cast<long long>(k));
    // The cell of k in the encoding: halfway to its neighbours (the ±½ margins at the ends).
    const double left = i == 0 ? lo : enc(0.5 * (integers[i - 1] + k));
    const double right = i + 1 == integers.size() ? hi : enc(0.5 * (k + integers[i + 1]));
    out.weights.push_back(right - left);
    total += right - left;
  }
  for (double& w : out.weights) w /= total;
  return out;
}

}  // namespace

std::vector<ParamAxis> param_axes(const Space& space, const std::vector<std::string>& coordinate_names) {
  std::vector<ParamAxis> axes;
  const Box& box = space.bounds();
  if (const auto* ps = dynamic_cast<const ParamsSpace*>(&space)) {
    int offset = 0;
    for (size_t i = 0; i < ps->params().size(); ++i) {
      const ParamDef& p = ps->params()[i];
      ParamAxis a;
      a.name = p.name;
      a.param_index = static_cast<int>(i);
      switch (p.type) {
        case ParamType::Fixed: continue;
        case ParamType::Float:
        case ParamType::Int:
          a.type = p.type == ParamType::Float ? "float" : "int";
          a.log = p.log;
          a.lower = p.type == ParamType::Int ? nlohmann::json(static_cast<long long>(p.low)) : nlohmann::json(p.low);
          a.upper = p.type == ParamType::Int ? nlohmann::json(static_cast<long long>(p.high)) : nlohmann::json(p.high);
          a.coordinates = {offset++};
          break;
        case ParamType::Categorical:
          a.type = "categorical";
          a.choices = p.choices;
          for (size_t c = 0; c < p.choices.size(); ++c) a.coordinates.push_back(offset++);
          break;
      }
      axes.push_back(std::move(a));
    }
    return axes;
  }
  for (int j = 0; j < space.dim(); ++j) {
    ParamAxis a;
    a.name = j < static_cast<int>(coordinate_names.size()) ? coordinate_names[j] : "x" + std::to_string(j);
    a.lower = box.lower[j];
    a.upper = box.upper[j];
    a.coordinates = {j};
    axes.push_back(std::move(a));
  }
  return axes;
}

AxisLevels axis_levels(const ParamAxis& axis, const Space& space, int points) {
  const Box& box = space.bounds();
  if (axis.param_index < 0) {
    const int j = axis.coordinates[0];
    return evenly_spaced(box.lower[j], box.upper[j], points);
  }
  const ParamDef& p = static_cast<const ParamsSpace&>(space).params()[axis.param_index];
  if (p.type == ParamType::Int) return int_levels(p, axis, space, points);
  if (p.type == ParamType::Categorical) {
    AxisLevels out;
    const int k = static_cast<int>(p.choices.size());
    for (int c = 0; c < k; ++c) {
      Vec onehot = Vec::Zero(k);
      onehot[c] = 1.0;
      out.encoded.push_back(onehot);
      out.values.push_back(p.choices[c]);
      out.weights.push_back(1.0 / k);
    }
    return out;
  }
  const int j = axis.coordinates[0];
  AxisLevels out = evenly_spaced(box.lower[j], box.upper[j], points);
  if (p.log)  // user units: e^e, kept inside [low, high] against rounding at the ends
    for (size_t g = 0; g < out.values.size(); ++g)
      out.values[g] = std::clamp(std::exp(out.encoded[g][0]), p.low, p.high);
  return out;
}

nlohmann::json axis_value(const ParamAxis& axis, const Space& space, const Vec& x) {
  if (axis.param_index < 0) return x[axis.coordinates[0]];
  return static_cast<const ParamsSpace&>(space).value_of(static_cast<std::size_t>(axis.param_index), x);
}

nlohmann::json to_json(const ParamAxis& axis) {
  nlohmann::json j = {{"name", axis.name}, {"type", axis.type}, {"log", axis.log}, {"lower", axis.lower},
                      {"upper", axis.upper}, {"coordinates", axis.coordinates}};
  if (axis.type == "categorical") j["choices"] = axis.choices;
  return j;
}

}  // namespace kbo
