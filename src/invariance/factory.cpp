// make_invariant_kernel: the one entry point the study's kernel factory calls.
#include <cmath>
#include <set>

#include "kbo/invariance/kernels.hpp"

namespace kbo {

const Kernel* fit_surrogate(const Kernel& k) {
  const auto* p = dynamic_cast<const FitSurrogateProvider*>(&k);
  return p ? p->fit_surrogate() : nullptr;
}

OrbitPath parse_orbit_path(const std::string& s) { return parse_enum<OrbitPath>("invariant kernel option \"path\"", s); }

InvariantOptions InvariantOptions::from_json(const nlohmann::json& j) {
  InvariantOptions o;
  if (j.is_null()) return o;
  if (!j.is_object()) throw InputError("invariant kernel options must be a JSON object");
  static const std::set<std::string> keys{"path",       "normalize", "projection", "eig_threshold", "fit",
                                          "quadrature", "radius",    "max_factor", "matrices",      "center"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!keys.count(it.key()))
      throw InputError("invariant kernel: unknown option '" + it.key() +
                       "'; allowed: path, normalize, projection, eig_threshold, fit, quadrature, radius, "
                       "max_factor, matrices, center");
  try {
    if (j.contains("path")) o.path = parse_orbit_path(j["path"].get<std::string>());
    if (j.contains("normalize")) o.normalize = j["normalize"].get<bool>();
    if (j.contains("projection"))
      o.projection = parse_enum<MaxProjection>("invariant kernel option \"projection\"", j["projection"].get<std::string>());
    if (j.contains("eig_threshold")) o.eig_threshold = j["eig_threshold"].get<double>();
    if (j.contains("fit")) o.fit = parse_enum<InvariantFit>("invariant kernel option \"fit\"", j["fit"].get<std::string>());
    if (j.contains("quadrature")) o.quadrature = j["quadrature"].get<int>();
    if (j.contains("center")) {
      // The centre the group acts about, in the space's own coordinates (make_invariant_kernel takes it
      // in the kernel's; the invariance module's registration maps it to the unit cube).
      if (!j["center"].is_array() || j["center"].empty())
        throw InputError("invariant kernel option \"center\" must be an array of numbers (one per dimension)");
      for (const auto& v : j["center"])
        if (!v.is_number() || !std::isfinite(v.get<double>()))
          throw InputError("invariant kernel option \"center\" must be an array of finite numbers");
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("invariant kernel options: wrong type: ") + e.what());
  }
  return o;
}

KernelPtr make_invariant_kernel(KernelPtr base, const std::string& invariance, const std::string& mode,
                                const Vec& center, const nlohmann::json& options) {
  return make_invariant_kernel(std::move(base), invariance, parse_enum<InvariantKernelType>("invariant_kernel", mode),
                               center, options);
}

KernelPtr make_invariant_kernel(KernelPtr base, const std::string& invariance, InvariantKernelType mode,
                                const Vec& center, const nlohmann::json& options_in, bool tied_ard) {
  const nlohmann::json options = options_in.is_null() ? nlohmann::json::object() : options_in;
  if (!base) throw InputError("invariant kernel: base kernel is null");
  GroupPtr group = make_group(invariance, static_cast<int>(center.size()), options);
  if (!group) return base;  // "none"
  const InvariantOptions o = InvariantOptions::from_json(options);
  const bool quad_given = options.is_object() && options.contains("quadrature");
  const bool fit_on_base = o.fit == InvariantFit::Base;
  if (mode == InvariantKernelType::Auto)
    throw InputError("invariant_kernel auto is a choice between kernels made by the BO strategy; build max or average");
  if (mode == InvariantKernelType::Max) {
    if (o.normalize)
      throw InputError("invariant kernel option \"normalize\" applies to the average kernel only (k_max(x,x) is "
                       "already the base variance)");
    MaxKernel mk(std::move(base), group, center, o.path, fit_on_base, tied_ard);
    const bool project =
        o.projection == MaxProjection::Always || (o.projection == MaxProjection::Auto && !mk.known_psd());
    return std::make_unique<ProjectedKernel>(std::move(mk), o.eig_threshold, project);
  }
  if (tied_ard) throw InputError("tied ARD lengthscales are implemented for the max invariant kernel only");
  // Scaling's factor rule integrates a smooth function of log a: 16 Gauss–Legendre nodes suffice.
  const int quad = quad_given ? o.quadrature : (group->action() == GroupAction::Scalings ? 16 : 64);
  KernelPtr avg = std::make_unique<AveragedKernel>(std::move(base), group, center, quad, fit_on_base);
  if (o.normalize) return std::make_unique<NormalizedKernel>(std::move(avg));
  return avg;
}

}  // namespace kbo
