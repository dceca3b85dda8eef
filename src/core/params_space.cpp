// The space of named, typed parameters: encoding to flat points and back (see kbo/core/params.hpp).
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/core/params.hpp"
#include "number_text.hpp"

namespace kbo {

namespace {

int width(const ParamDef& p) {
  switch (p.type) {
    case ParamType::Float:
    case ParamType::Int: return 1;
    case ParamType::Categorical: return static_cast<int>(p.choices.size());
    case ParamType::Fixed: return 0;
  }
  return 0;
}

// Coordinate of a numeric value (float or int): the value, or its log.
double encode_number(const ParamDef& p, double v) { return p.log ? std::log(v) : v; }

// The integer an int coordinate stands for: rounded, kept in [low, high].
double int_value(const ParamDef& p, double coord) {
  const double v = std::round(p.log ? std::exp(coord) : coord);
  return std::clamp(v, p.low, p.high);
}

// The choice a one-hot block stands for: its largest coordinate (ties: the first).
int argmax(const Vec& x, int offset, int k) {
  int best = 0;
  for (int c = 1; c < k; ++c)
    if (x[offset + c] > x[offset + best]) best = c;
  return best;
}

using detail::number_text;

}  // namespace

ParamsSpace::ParamsSpace(std::vector<ParamDef> params) : params_(std::move(params)) {
  // Re-check the list as a whole (names, something varies) through its JSON form.
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : params_) list.push_back(kbo::to_json(p));
  params_ = params_from_json(list);
  Vec lo, hi;
  std::vector<double> l, h;
  for (const auto& p : params_) {
    offset_.push_back(dim_);
    switch (p.type) {
      case ParamType::Float:
        l.push_back(encode_number(p, p.low));
        h.push_back(encode_number(p, p.high));
        discrete_.push_back(false);
        break;
      case ParamType::Int:
        // ±½ so that every integer owns a cell of the same width (log: the same width in ln v).
        l.push_back(encode_number(p, p.low - 0.5));
        h.push_back(encode_number(p, p.high + 0.5));
        discrete_.push_back(true);
        break;
      case ParamType::Categorical:
        for (std::size_t c = 0; c < p.choices.size(); ++c) {
          l.push_back(0.0);
          h.push_back(1.0);
          discrete_.push_back(true);
        }
        break;
      case ParamType::Fixed: break;
    }
    dim_ += width(p);
  }
  box_ = Box(Eigen::Map<Vec>(l.data(), dim_), Eigen::Map<Vec>(h.data(), dim_));
}

Mat ParamsSpace::sample(int n, SamplingMethod method, Rng& rng) const {
  Mat X = Space::sample(n, method, rng);
  if (method != SamplingMethod::Sobol) return X;  // uniform draws (random search, fallbacks) stay i.i.d.
  // Sobol + argmax over a one-hot block shows the choices unevenly (5 points can miss one of 4 choices), and a
  // choice the initial design never shows is one the model learns nothing about: a bad first choice can then
  // hold a whole study. Row r takes choice perm[r mod k] of a random permutation, so every choice appears
  // ⌊n/k⌋ or ⌈n/k⌉ times (and n < k rows show n distinct ones).
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (params_[i].type != ParamType::Categorical) continue;
    const int k = static_cast<int>(params_[i].choices.size());
    std::vector<int> perm(k);
    for (int c = 0; c < k; ++c) perm[c] = c;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int r = 0; r < n; ++r) {
      X.row(r).segment(offset_[i], k).setZero();
      X(r, offset_[i] + perm[r % k]) = 1.0;
    }
  }
  return X;
}

void ParamsSpace::canonicalize(Vec& x) const {
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const ParamDef& p = params_[i];
    const int o = offset_[i];
    if (p.type == ParamType::Int) {
      x[o] = encode_number(p, int_value(p, x[o]));
    } else if (p.type == ParamType::Categorical) {
      const int k = static_cast<int>(p.choices.size());
      const int c = argmax(x, o, k);
      x.segment(o, k).setZero();
      x[o + c] = 1.0;
    }
  }
}

nlohmann::json ParamsSpace::value_of(std::size_t i, const Vec& x) const {
  const ParamDef& p = params_[i];
  const int o = offset_[i];
  switch (p.type) {
    case ParamType::Float: return std::clamp(p.log ? std::exp(x[o]) : x[o], p.low, p.high);
    case ParamType::Int: return static_cast<long long>(int_value(p, x[o]));
    case ParamType::Categorical: return p.choices[argmax(x, o, static_cast<int>(p.choices.size()))];
    case ParamType::Fixed: return p.value;
  }
  return nullptr;
}

nlohmann::json ParamsSpace::named(const Vec& x) const {
  if (x.size() != dim_) throw InputError("params space: a point has " + std::to_string(dim_) + " coordinates");
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t i = 0; i < params_.size(); ++i) out[params_[i].name] = value_of(i, x);
  return out;
}

Vec ParamsSpace::from_named(const nlohmann::json& values) const {
  std::string names;
  for (const auto& p : params_) names += (names.empty() ? "" : ", ") + p.name;
  if (!values.is_object())
    throw InputError("a point of this study is an object {name: value} with the parameters " + names + " (got " +
                     values.dump() + ")");
  for (const auto& item : values.items()) {
    if (std::none_of(params_.begin(), params_.end(), [&](const ParamDef& p) { return p.name == item.key(); }))
      throw InputError("param '" + item.key() + "': not a parameter of this study (parameters: " + names + ")");
  }
  Vec x(dim_);
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const ParamDef& p = params_[i];
    const int o = offset_[i];
    if (!values.contains(p.name)) {
      if (p.type == ParamType::Fixed) continue;
      throw InputError("param '" + p.name + "': missing (a point needs every parameter: " + names + ")");
    }
    const nlohmann::json& v = values[p.name];
    const std::string where = "param '" + p.name + "': ";
    switch (p.type) {
      case ParamType::Float:
      case ParamType::Int: {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
          throw InputError(where + "expected a number (got " + v.dump() + ")");
        const double d = v.get<double>();
        if (p.type == ParamType::Int && d != std::floor(d))
          throw InputError(where + "expected an integer (got " + v.dump() + ")");
        if (d < p.low || d > p.high)
          throw InputError(where + v.dump() + " is outside [" + number_text(p.low) + ", " + number_text(p.high) + "]");
        x[o] = encode_number(p, d);
        break;
      }
      case ParamType::Categorical: {
        const auto it = std::find(p.choices.begin(), p.choices.end(), v);
        if (it == p.choices.end()) {
          std::string list;
          for (const auto& c : p.choices) list += (list.empty() ? "" : ", ") + c.dump();
          throw InputError(where + v.dump() + " is not one of its choices (" + list + ")");
        }
        const int k = static_cast<int>(p.choices.size());
        x.segment(o, k).setZero();
        x[o + static_cast<int>(it - p.choices.begin())] = 1.0;
        break;
      }
      case ParamType::Fixed:
        if (v != p.value) throw InputError(where + "is fixed at " + p.value.dump() + " (got " + v.dump() + ")");
        break;
    }
  }
  canonicalize(x);
  return x;
}

std::vector<Vec> ParamsSpace::discrete_neighbours(const Vec& x) const {
  std::vector<Vec> out;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const ParamDef& p = params_[i];
    const int o = offset_[i];
    if (p.type == ParamType::Int) {
      const double v = int_value(p, x[o]);
      for (double step : {-1.0, 1.0}) {
        if (v + step < p.low || v + step > p.high) continue;
        Vec y = x;
        y[o] = encode_number(p, v + step);
        out.push_back(std::move(y));
      }
    } else if (p.type == ParamType::Categorical) {
      const int k = static_cast<int>(p.choices.size());
      const int current = argmax(x, o, k);
      for (int c = 0; c < k; ++c) {
        if (c == current) continue;
        Vec y = x;
        y.segment(o, k).setZero();
        y[o + c] = 1.0;
        out.push_back(std::move(y));
      }
    }
  }
  return out;
}

std::string ParamsSpace::describe() const {
  std::string s;
  for (const auto& p : params_) s += (s.empty() ? "" : "; ") + kbo::describe(p);
  return "params(" + s + ")";
}

nlohmann::json ParamsSpace::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : params_) list.push_back(kbo::to_json(p));
  return {{"type", "params"}, {"params", list}};
}

std::shared_ptr<const Space> params_space_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("params")) throw InputError("params space: needs 'params', a list of parameters");
  for (const auto& item : j.items())
    if (item.key() != "type" && item.key() != "params")
      throw InputError("params space: unknown key '" + item.key() + "' (allowed: type, params)");
  return std::make_shared<ParamsSpace>(params_from_json(j["params"]));
}

}  // namespace kbo
