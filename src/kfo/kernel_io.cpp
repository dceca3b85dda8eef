#include "kbo/kfo/kernel_io.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "kbo/core/error.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/kfo/experiment.hpp"
#include "kbo/kfo/flip_kernel.hpp"

namespace kbo::kfo {

namespace {
std::vector<double> to_std(const Vec& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

const nlohmann::json& field(const nlohmann::json& j, const char* name) {
  if (!j.contains(name)) throw InputError(std::string("kernel JSON: missing field '") + name + "'");
  return j.at(name);
}
double number(const nlohmann::json& j, const char* name) {
  const auto& f = field(j, name);
  if (!f.is_number()) throw InputError(std::string("kernel JSON: field '") + name + "' must be a number");
  return f.get<double>();
}
Vec vector_field(const nlohmann::json& j, const char* name) {
  const auto& f = field(j, name);
  if (!f.is_array()) throw InputError(std::string("kernel JSON: field '") + name + "' must be an array of numbers");
  Vec v(static_cast<Eigen::Index>(f.size()));
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!f[i].is_number()) throw InputError(std::string("kernel JSON: field '") + name + "' must be an array of numbers");
    v(static_cast<Eigen::Index>(i)) = f[i].get<double>();
  }
  if (!v.allFinite()) throw InputError(std::string("kernel JSON: field '") + name + "' has a non-finite value");
  return v;
}
}  // namespace

Mat InputScaling::apply(const Mat& X) const {
  if (X.cols() != lower.size())
    throw InputError("input scaling: data has " + std::to_string(X.cols()) + " features, the kernel was fitted on " +
                     std::to_string(lower.size()));
  Mat out(X.rows(), X.cols());
  // Same arithmetic as minmax_scale ((x − lo) / span), so scaled inputs are bit-identical to the training ones.
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    const double span = upper(j) - lower(j);
    if (span > 0.0) out.col(j) = (X.col(j).array() - lower(j)) / span;
    else out.col(j).setZero();
  }
  return out;
}

InputScaling fit_input_scaling(const Mat& fit) {
  InputScaling s;
  s.lower = fit.colwise().minCoeff().transpose();
  s.upper = fit.colwise().maxCoeff().transpose();
  return s;
}

ScaledInputKernel::ScaledInputKernel(KernelPtr inner, InputScaling scaling) : inner_(std::move(inner)), s_(std::move(scaling)) {
  if (!inner_) throw InputError("ScaledInputKernel: no inner kernel");
  if (s_.lower.size() != s_.upper.size() || s_.lower.size() == 0)
    throw InputError("input scaling: 'lower' and 'upper' must have the same non-zero length");
  factor_.resize(s_.lower.size());
  for (Eigen::Index j = 0; j < factor_.size(); ++j) {
    const double span = s_.upper(j) - s_.lower(j);
    if (span < 0.0) throw InputError("input scaling: upper < lower in column " + std::to_string(j + 1));
    factor_(j) = span > 0.0 ? 1.0 / span : 0.0;
  }
}

std::string ScaledInputKernel::describe() const { return "scaled_inputs(" + inner_->describe() + ")"; }

Mat ScaledInputKernel::cross_grad_x(const Vec& x, const Mat& X) const {
  const Vec sx = s_.apply(x.transpose()).transpose();
  return factor_.asDiagonal() * inner_->cross_grad_x(sx, s_.apply(X));
}

Vec ScaledInputKernel::diag_grad_x(const Vec& x) const {
  const Vec sx = s_.apply(x.transpose()).transpose();
  return factor_.cwiseProduct(inner_->diag_grad_x(sx));
}

nlohmann::json kernel_to_json(const Kernel& kernel, const std::string& base_name, const std::optional<InputScaling>& scaling,
                              std::optional<double> noise_variance) {
  const FunctionalKernel* f = dynamic_cast<const FunctionalKernel*>(&kernel);
  const SpectrumFlipKernel* flip = dynamic_cast<const SpectrumFlipKernel*>(&kernel);
  double variance = 1.0;
  if (flip) {
    f = dynamic_cast<const FunctionalKernel*>(&flip->inner());
    variance = flip->variance();
  }
  if (!f) throw InputError("kernel JSON: only KFO functional kernels can be saved (got " + kernel.describe() + ")");
  variance *= f->variance();
  Vec weights = f->weights();
  if (!f->base()) {
    // Reparametrise so that the functional part is 1 at r = 0: K = (v·c)·(Σ (w/c) κ), c = profile(0) > 0.
    const double c = f->profile(0.0);
    if (c > 1e-300 && std::isfinite(c)) {
      weights /= c;
      variance *= c;
    }
  }
  nlohmann::json base = nullptr;
  if (f->base()) {
    if (base_name.empty()) throw InputError("kernel JSON: the functional has a base kernel but no baseline name was given");
    if (!scaling) throw InputError("kernel JSON: a functional with a base kernel needs the input scaling (its dimension)");
    base = {{"baseline", base_name}, {"dim", scaling->lower.size()}, {"log_params", to_std(f->base()->log_params())}};
  }
  nlohmann::json j = {{"type", "kfo_functional"},
                      {"version", 1},
                      {"lambda_h", f->hyper().lambda_h},
                      {"lengthscale", f->hyper().lengthscale},
                      {"psd", f->psd() == FunctionalPsd::AlphaClip ? "alpha-clip" : "none"},
                      {"variance", variance},
                      {"distances", to_std(f->distances())},
                      {"weights", to_std(weights)},
                      {"functional_input_scales", f->input_scales().size() ? nlohmann::json(to_std(f->input_scales()))
                                                                          : nlohmann::json(nullptr)},
                      {"base", base},
                      {"flip", flip ? nlohmann::json{{"rel_tol", flip->rel_tol()}} : nlohmann::json(nullptr)},
                      {"input_scaling", scaling ? nlohmann::json{{"lower", to_std(scaling->lower)}, {"upper", to_std(scaling->upper)}}
                                                : nlohmann::json(nullptr)}};
  if (noise_variance) j["noise_variance"] = *noise_variance;
  return j;
}

KernelPtr kernel_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("kernel JSON: expected an object");
  if (!j.contains("type") || j.at("type") != "kfo_functional")
    throw InputError("kernel JSON: field 'type' must be \"kfo_functional\"");
  HyperkernelParams hyper{number(j, "lambda_h"), number(j, "lengthscale")};
  validate(hyper);
  const auto& psd_f = field(j, "psd");
  if (!psd_f.is_string() || (psd_f != "alpha-clip" && psd_f != "none"))
    throw InputError("kernel JSON: field 'psd' must be \"alpha-clip\" or \"none\"");
  const FunctionalPsd psd = psd_f == "alpha-clip" ? FunctionalPsd::AlphaClip : FunctionalPsd::None;
  const double variance = number(j, "variance");
  if (!(variance > 0.0) || !std::isfinite(variance)) throw InputError("kernel JSON: 'variance' must be > 0");
  const Vec d = vector_field(j, "distances"), w = vector_field(j, "weights");
  if (d.size() != w.size() || d.size() == 0)
    throw InputError("kernel JSON: 'distances' and 'weights' must have the same non-zero length");

  KernelPtr base;
  if (j.contains("base") && !j.at("base").is_null()) {
    const auto& b = j.at("base");
    const auto& name = field(b, "baseline");
    if (!name.is_string()) throw InputError("kernel JSON: 'base.baseline' must be a string");
    const Vec lp = vector_field(b, "log_params");
    const int dim = static_cast<int>(number(b, "dim"));
    if (dim < 1) throw InputError("kernel JSON: 'base.dim' must be >= 1");
    base = make_gp_baseline(name.get<std::string>(), dim);
    if (lp.size() != base->num_params())
      throw InputError("kernel JSON: 'base.log_params' has " + std::to_string(lp.size()) + " values, the " +
                       name.get<std::string>() + " kernel has " + std::to_string(base->num_params()));
    base->set_log_params(lp);
  }
  const bool flip = j.contains("flip") && !j.at("flip").is_null();
  auto fk = std::make_unique<FunctionalKernel>(d, w, hyper, psd, !flip, flip ? 1.0 : variance, std::move(base));
  // Per-dimension scales of the functional's distance (on [0,1]-scaled features; absent: isotropic).
  if (j.contains("functional_input_scales") && !j.at("functional_input_scales").is_null())
    fk->set_input_scales(vector_field(j, "functional_input_scales"));
  KernelPtr k = std::move(fk);
  if (flip) {
    const double tol = j.at("flip").contains("rel_tol") ? number(j.at("flip"), "rel_tol") : 1e-8;
    k = std::make_unique<SpectrumFlipKernel>(std::move(k), Mat(), variance, true, tol);
  }
  if (j.contains("input_scaling") && !j.at("input_scaling").is_null()) {
    const auto& s = j.at("input_scaling");
    InputScaling sc{vector_field(s, "lower"), vector_field(s, "upper")};
    k = std::make_unique<ScaledInputKernel>(std::move(k), std::move(sc));
  }
  return k;
}

KernelPtr load_kernel_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read kernel file '" + path + "'");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw InputError("kernel file '" + path + "' is not valid JSON: " + e.what());
  }
  try {
    return kernel_from_json(j);
  } catch (const InputError& e) {
    throw InputError("kernel file '" + path + "': " + e.what());
  }
}

}  // namespace kbo::kfo
