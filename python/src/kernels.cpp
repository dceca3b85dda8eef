// Kernels as Python objects: kbo.kernels.{Kernel, Stationary, Set, Invariant, Functional}. Each wraps the
// library's own kernel classes and factories (make_stationary, make_set_kernel, make_invariant_kernel,
// FunctionalKernel); `+` and `*` build the library's sum/product/scale kernels.
#include <pybind11/stl.h>

#include "kbo/model/kernels/combine.hpp"
#include "kbo/kfo/functional_kernel.hpp"
#include "kbo/invariance/kernels.hpp"
#include "kbo/sets/set_kernel.hpp"
#include "kbo/model/kernels/stationary.hpp"
#include "kernels.hpp"

namespace kbo::python {

namespace {

// Wrapper subclasses only tag the Python type (pybind11 downcasts the polymorphic PyKernel); the state is
// PyKernel's.
struct StationaryWrap : PyKernel {};
struct SetWrap : PyKernel {};
struct InvariantWrap : PyKernel {};
struct FunctionalWrap : PyKernel {};

template <class W>
std::shared_ptr<PyKernel> make_wrap(std::shared_ptr<Kernel> k, int dim, const char* kind) {
  auto w = std::make_shared<W>();
  w->kernel = std::move(k);
  w->dim = dim;
  w->kind = kind;
  return w;
}

template <class K>
const K& as(const PyKernel& k) {
  return dynamic_cast<const K&>(*k.kernel);
}

int combined_dim(const PyKernel& a, const PyKernel& b) {
  if (a.dim >= 0 && b.dim >= 0 && a.dim != b.dim)
    throw py::value_error("cannot combine kernels on " + std::to_string(a.dim) + " and " + std::to_string(b.dim) +
                          " input dimensions");
  return a.dim >= 0 ? a.dim : b.dim;
}

std::shared_ptr<PyKernel> combine(const PyKernel& a, const PyKernel& b, BinaryKernel::Op op) {
  std::shared_ptr<Kernel> k = std::make_shared<BinaryKernel>(op, a.kernel->clone(), b.kernel->clone());
  auto w = make_wrap<PyKernel>(std::move(k), combined_dim(a, b), op == BinaryKernel::Op::Sum ? "sum" : "product");
  return w;
}

std::shared_ptr<PyKernel> scaled(const PyKernel& a, double s) {
  if (!(s > 0.0) || !std::isfinite(s)) throw py::value_error("a kernel can only be scaled by a positive finite number");
  return make_wrap<PyKernel>(std::make_shared<ScaleKernel>(a.kernel->clone(), s), a.dim, "scale");
}

FunctionalPsd parse_psd(const std::string& s) {
  if (s == "alpha-clip") return FunctionalPsd::AlphaClip;
  if (s == "none") return FunctionalPsd::None;
  throw InputError("psd must be 'alpha-clip' or 'none' (got '" + s + "')");
}

}  // namespace

std::shared_ptr<PyKernel> wrap_kernel(std::shared_ptr<Kernel> k, int dim) {
  const Kernel* p = k.get();
  if (dynamic_cast<const StationaryKernel*>(p)) return make_wrap<StationaryWrap>(std::move(k), dim, "stationary");
  if (dynamic_cast<const SetKernel*>(p)) return make_wrap<SetWrap>(std::move(k), dim, "set");
  if (dynamic_cast<const FunctionalKernel*>(p)) return make_wrap<FunctionalWrap>(std::move(k), dim, "functional");
  if (dynamic_cast<const MaxKernel*>(p) || dynamic_cast<const ProjectedKernel*>(p) ||
      dynamic_cast<const AveragedKernel*>(p) || dynamic_cast<const NormalizedKernel*>(p))
    return make_wrap<InvariantWrap>(std::move(k), dim, "invariant");
  if (dynamic_cast<const ScaleKernel*>(p)) return make_wrap<PyKernel>(std::move(k), dim, "scale");
  return make_wrap<PyKernel>(std::move(k), dim, "composite");
}

void init_kernels(py::module_& parent) {
  py::module_ m = parent.def_submodule("kernels", "Kernels (hyperparameters in log space; points are rows)");

  py::class_<PyKernel, std::shared_ptr<PyKernel>>(m, "Kernel", R"doc(
A covariance function. k(X) is the Gram matrix of the rows of X (n x D); k(X, Y) the cross matrix
(n x m); k.diag(X) the diagonal. Hyperparameters are in log space (k.log_params, k.param_names).
Kernels combine with + and * (sum, product) and c * k (scale, c > 0); the result is a new kernel.
A GP copies its kernel: changing a kernel after building a GP does not change the GP.)doc")
      .def(
          "__call__",
          [](const PyKernel& k, const py::object& X, const py::object& Y) {
            const Mat A = kernel_input(k, X, "X");
            if (Y.is_none()) {
              Mat K;
              {
                py::gil_scoped_release nogil;
                K = k.kernel->gram(A);
              }
              return from_mat(K);
            }
            const Mat B = to_mat(Y, "Y", A.cols());
            Mat K;
            {
              py::gil_scoped_release nogil;
              K = k.kernel->cross(A, B);
            }
            return from_mat(K);
          },
          py::arg("X"), py::arg("Y") = py::none(), "Gram matrix k(X) (n x n) or cross matrix k(X, Y) (n x m).")
      .def(
          "diag",
          [](const PyKernel& k, const py::object& X) {
            const Mat A = kernel_input(k, X, "X");
            Vec d;
            {
              py::gil_scoped_release nogil;
              d = k.kernel->diag(A);
            }
            return from_vec(d);
          },
          py::arg("X"), "k(x_i, x_i) for every row x_i of X.")
      .def_property(
          "log_params", [](const PyKernel& k) { return from_vec(k.kernel->log_params()); },
          [](PyKernel& k, const py::object& p) {
            k.kernel->set_log_params(to_vec(p, "log_params", k.kernel->num_params()));
          },
          "Hyperparameters in log space (order: param_names).")
      .def_property_readonly("param_names", [](const PyKernel& k) { return k.kernel->param_names(); })
      .def_property_readonly("num_params", [](const PyKernel& k) { return k.kernel->num_params(); })
      .def_property_readonly(
          "dim", [](const PyKernel& k) -> py::object { return k.dim < 0 ? py::object(py::none()) : py::int_(k.dim); },
          "Input dimension D (None: any, e.g. KFO kernels depend only on distances).")
      .def_property_readonly("kind", [](const PyKernel& k) { return k.kind; })
      .def("describe", [](const PyKernel& k) { return k.kernel->describe(); })
      .def("__repr__", [](const PyKernel& k) { return "<kbo kernel " + k.kernel->describe() + ">"; })
      .def("copy", [](const PyKernel& k) { return wrap_kernel(std::shared_ptr<Kernel>(k.kernel->clone()), k.dim); })
      .def("__add__", [](const PyKernel& a, const PyKernel& b) { return combine(a, b, BinaryKernel::Op::Sum); })
      .def("__mul__", [](const PyKernel& a, const PyKernel& b) { return combine(a, b, BinaryKernel::Op::Product); })
      .def("__mul__", [](const PyKernel& a, double s) { return scaled(a, s); })
      .def("__rmul__", [](const PyKernel& a, double s) { return scaled(a, s); });

  py::class_<StationaryWrap, PyKernel, std::shared_ptr<StationaryWrap>>(m, "Stationary", R"doc(
Stationary kernel variance * phi(||(x - y) / lengthscale||): kernel = "rbf" | "matern12" | "matern32" |
"matern52"; ard=True gives one lengthscale per dimension.)doc")
      .def(py::init([](const std::string& kernel, int dim, bool ard, double lengthscale, double variance) {
             if (dim < 1) throw py::value_error("dim must be >= 1 (got " + std::to_string(dim) + ")");
             auto w = std::make_shared<StationaryWrap>();
             w->kernel = std::shared_ptr<Kernel>(make_stationary(kernel, dim, ard, lengthscale, variance));
             w->dim = dim;
             w->kind = "stationary";
             return w;
           }),
           py::arg("kernel"), py::arg("dim"), py::kw_only(), py::arg("ard") = false, py::arg("lengthscale") = 1.0,
           py::arg("variance") = 1.0)
      .def_property_readonly("type", [](const PyKernel& k) { return to_string(as<StationaryKernel>(k).type()); })
      .def_property_readonly("ard", [](const PyKernel& k) { return as<StationaryKernel>(k).ard(); })
      .def_property_readonly("lengthscales", [](const PyKernel& k) { return from_vec(as<StationaryKernel>(k).lengthscales()); })
      .def_property_readonly("variance", [](const PyKernel& k) { return as<StationaryKernel>(k).variance(); });

  py::class_<SetWrap, PyKernel, std::shared_ptr<SetWrap>>(m, "Set", R"doc(
Set kernel (Kim et al. 2021): a point is a set of set_size elements of R^element_dim, flattened row-major
(length set_size * element_dim). mode="full": mean of the base kernel over all element pairs;
mode="approx": the approximate set kernel on L-element subsets chosen by one random draw (seed).)doc")
      .def(py::init([](const std::string& base, int set_size, int element_dim, bool ard, const std::string& mode, int L,
                       std::uint64_t seed) {
             auto w = std::make_shared<SetWrap>();
             w->kernel = std::shared_ptr<Kernel>(make_set_kernel(base, set_size, element_dim, ard, mode, L, seed));
             w->dim = set_size * element_dim;
             w->kind = "set";
             return w;
           }),
           py::arg("base"), py::arg("set_size"), py::arg("element_dim"), py::kw_only(), py::arg("ard") = false,
           py::arg("mode") = "full", py::arg("L") = 0, py::arg("seed") = 0)
      .def_property_readonly("set_size", [](const PyKernel& k) { return as<SetKernel>(k).set_size(); })
      .def_property_readonly("element_dim", [](const PyKernel& k) { return as<SetKernel>(k).element_dim(); })
      .def_property_readonly("subset_size", [](const PyKernel& k) { return as<SetKernel>(k).subset_size(); })
      .def_property_readonly("mode", [](const PyKernel& k) {
        return as<SetKernel>(k).mode() == SetKernelMode::Full ? "full" : "approx";
      });

  py::class_<InvariantWrap, PyKernel, std::shared_ptr<InvariantWrap>>(m, "Invariant", R"doc(
Group-invariant kernel (Bardou et al. 2026) on a base kernel: group = "permutation" | "signflip" |
"hyperoctahedral" | "blocks:K" | "cyclic" | "rotation" | "scaling" | "custom"; mode = "max" (PSD-projected
max kernel; it needs training inputs, which a GP supplies) | "average" (orbit average). The group acts around
`center` (default 0.5 in every coordinate: the unit cube BO works in). `options` as the study's
{"invariance": {...}} options (path, projection, normalize, eig_threshold, fit, quadrature, matrices...).)doc")
      .def(py::init([](const PyKernel& base, const std::string& group, const std::string& mode,
                       const py::object& center, const py::object& options) {
             Vec c;
             if (center.is_none()) {
               if (base.dim < 0) throw py::value_error("center is needed when the base kernel has no fixed dimension");
               c = Vec::Constant(base.dim, 0.5);
             } else {
               c = to_vec(center, "center", base.dim);
             }
             const nlohmann::json opt = options.is_none() ? nlohmann::json::object() : json_from_py(options);
             auto k = make_invariant_kernel(base.kernel->clone(), group, mode, c, opt);
             auto w = std::make_shared<InvariantWrap>();
             w->kernel = std::shared_ptr<Kernel>(std::move(k));
             w->dim = static_cast<int>(c.size());
             w->kind = "invariant";
             return w;
           }),
           py::arg("base"), py::arg("group"), py::arg("mode") = "max", py::kw_only(), py::arg("center") = py::none(),
           py::arg("options") = py::none());

  py::class_<FunctionalWrap, PyKernel, std::shared_ptr<FunctionalWrap>>(m, "Functional", R"doc(
Kernel learned by Kernel Functional Optimisation (kbo.kfo.learn): K(x, x') = variance * sum_u weights_u *
kappa(||x - x'||, distances_u) with the Matern harmonic hyperkernel kappa of parameters (lambda_h,
lengthscale). The arguments are those `kbo kfo --save-kernel` writes (Functional.from_json reads that file's
object). psd="alpha-clip" clips negative weights (PSD kernel), "none" keeps them. input_scales s (optional):
the functional acts on ||s * (x - x')|| (KFO over ARD-scaled inputs, kbo.kfo.learn's default).)doc")
      .def(py::init([](const py::object& distances, const py::object& weights, double lambda_h, double lengthscale,
                       const std::string& psd, double variance, bool learn_variance, const py::object& input_scales) {
             const Vec d = to_vec(distances, "distances");
             const Vec a = to_vec(weights, "weights", d.size());
             auto w = std::make_shared<FunctionalWrap>();
             auto f = std::make_shared<FunctionalKernel>(d, a, kfo::HyperkernelParams{lambda_h, lengthscale},
                                                         parse_psd(psd), learn_variance, variance);
             if (!input_scales.is_none()) f->set_input_scales(to_vec(input_scales, "input_scales"));
             w->kernel = f;
             w->dim = -1;
             w->kind = "functional";
             return w;
           }),
           py::arg("distances"), py::arg("weights"), py::kw_only(), py::arg("lambda_h"), py::arg("lengthscale"),
           py::arg("psd") = "alpha-clip", py::arg("variance") = 1.0, py::arg("learn_variance") = true,
           py::arg("input_scales") = py::none())
      .def_property_readonly("input_scales", [](const PyKernel& k) { return from_vec(as<FunctionalKernel>(k).input_scales()); },
                             "per-dimension scales of the functional's distance (empty: isotropic)")
      .def_property_readonly("distances", [](const PyKernel& k) { return from_vec(as<FunctionalKernel>(k).distances()); })
      .def_property_readonly("weights", [](const PyKernel& k) { return from_vec(as<FunctionalKernel>(k).weights()); })
      .def_property_readonly("variance", [](const PyKernel& k) { return as<FunctionalKernel>(k).variance(); })
      .def_property_readonly("lambda_h", [](const PyKernel& k) { return as<FunctionalKernel>(k).hyper().lambda_h; })
      .def_property_readonly("lengthscale", [](const PyKernel& k) { return as<FunctionalKernel>(k).hyper().lengthscale; })
      .def_property_readonly("psd", [](const PyKernel& k) {
        return as<FunctionalKernel>(k).psd() == FunctionalPsd::AlphaClip ? "alpha-clip" : "none";
      })
      .def(
          "profile",
          [](const PyKernel& k, const py::object& r) {
            const Vec rv = to_vec(r, "r");
            Vec out(rv.size());
            for (Eigen::Index i = 0; i < rv.size(); ++i) out[i] = as<FunctionalKernel>(k).profile(rv[i]);
            return from_vec(out);
          },
          py::arg("r"), "The functional part sum_u weights_u kappa(r, distances_u) at pair distances r (no variance).");
}

}  // namespace kbo::python
