// kbo.GP: exact GP regression (kbo::GP) with numpy in and out. Heavy work runs without the GIL.
#include <cmath>

#include <pybind11/stl.h>

#include "kbo/model/gp.hpp"
#include "kernels.hpp"

namespace kbo::python {

namespace {

// The GP and its kernel's input dimension (for shape checks).
struct PyGP {
  GP gp;
  int dim;
};

// Kernels without a fixed dimension (KFO) take the dimension of the training data once there is some.
int input_dim(const PyGP& g) { return g.dim >= 0 ? g.dim : (g.gp.size() > 0 ? g.gp.input_dim() : -1); }
Mat gp_input(const PyGP& g, const py::object& X, const std::string& name) { return to_mat(X, name, input_dim(g)); }

}  // namespace

void init_gp(py::module_& m) {
  py::class_<PyGP>(m, "GP", R"doc(
Exact Gaussian-process regression, the same code `kbo gp` runs.

GP(kernel, noise=1e-2, normalize=True, learn_noise=True): the kernel is copied. With normalize=True the
targets are standardised (noise in standardised units); predictions are always in the original units.
theta (hyperparameters) = [kernel log params..., log noise variance].)doc")
      .def(py::init([](const PyKernel& kernel, double noise, bool normalize, bool learn_noise) {
             if (!(noise > 0.0) || !std::isfinite(noise)) throw py::value_error("noise must be a positive number");
             return PyGP{GP(kernel.kernel->clone(), noise, normalize, learn_noise), kernel.dim};
           }),
           py::arg("kernel"), py::arg("noise") = 1e-2, py::arg("normalize") = true, py::arg("learn_noise") = true)
      .def(
          "set_data",
          [](PyGP& g, const py::object& X, const py::object& y) {
            const Mat A = gp_input(g, X, "X");
            const Vec b = to_vec(y, "y", A.rows());
            py::gil_scoped_release nogil;
            g.gp.set_data(A, b);
          },
          py::arg("X"), py::arg("y"), "Sets the training data (X: (n, D), y: (n,)) and factorises.")
      .def(
          "fit",
          [](PyGP& g, const py::object& X, const py::object& y, int restarts, int polish, bool map, std::uint64_t seed,
             int max_evaluations, const py::object& fit_mask) {
            if (!X.is_none()) {
              const Mat A = gp_input(g, X, "X");
              const Vec b = to_vec(y, "y", A.rows());
              py::gil_scoped_release nogil;
              g.gp.set_data(A, b);
            }
            if (g.gp.size() == 0) throw py::value_error("fit needs data: fit(X, y) or set_data(X, y) first");
            if (restarts < 0) throw py::value_error("restarts must be >= 0");
            if (polish < 0) throw py::value_error("polish must be >= 0");
            FitOptions o;
            o.restarts = restarts;
            o.polish = polish;
            o.map = map;
            o.seed = seed;
            o.max_evaluations = max_evaluations;
            if (!fit_mask.is_none()) {
              o.fit_mask = fit_mask.cast<std::vector<bool>>();
              const auto P = static_cast<std::size_t>(g.gp.hyperparameters().size());
              if (o.fit_mask.size() != P)
                throw py::value_error("fit_mask must have " + std::to_string(P) + " entries (one per hyperparameter: " +
                                      std::to_string(P - 1) + " kernel + noise)");
            }
            py::gil_scoped_release nogil;
            return g.gp.fit(o);
          },
          py::arg("X") = py::none(), py::arg("y") = py::none(), py::kw_only(), py::arg("restarts") = 5,
          py::arg("polish") = 0, py::arg("map") = true, py::arg("seed") = 0, py::arg("max_evaluations") = 100,
          py::arg("fit_mask") = py::none(),
          R"doc(Fits the hyperparameters (MAP with the default priors, or ML-II with map=False) by multi-restart L-BFGS, as `kbo gp`
(same defaults: restarts=5, polish=0 = automatic, seed=0). With X, y the data is set first. fit_mask:
which theta entries are fitted (default all). Returns the best objective (LML, or LML + log prior).)doc")
      .def(
          "predict",
          [](const PyGP& g, const py::object& Xs, bool return_std, bool return_cov) -> py::object {
            if (g.gp.size() == 0) throw py::value_error("predict needs data: fit(X, y) or set_data(X, y) first");
            if (return_std && return_cov) throw py::value_error("return_std and return_cov are exclusive");
            const Mat A = gp_input(g, Xs, "X");
            GP::Prediction p;
            Mat cov;
            {
              py::gil_scoped_release nogil;
              if (return_cov) cov = g.gp.posterior_covariance(A);
              p = g.gp.predict(A);
            }
            if (return_cov) return py::make_tuple(from_vec(p.mean), from_mat(cov));
            if (return_std) return py::make_tuple(from_vec(p.mean), from_vec(p.variance.cwiseMax(0.0).cwiseSqrt()));
            return from_vec(p.mean);
          },
          py::arg("X"), py::arg("return_std") = false, py::arg("return_cov") = false,
          "Posterior mean of the latent f at the rows of X (original units); with return_std=True also its\n"
          "standard deviation, with return_cov=True its covariance matrix (noise excluded).")
      .def(
          "log_marginal_likelihood",
          [](const PyGP& g, const py::object& theta, bool eval_gradient) -> py::object {
            if (g.gp.size() == 0) throw py::value_error("log_marginal_likelihood needs data");
            const auto P = g.gp.hyperparameters().size();
            if (theta.is_none() && !eval_gradient) return py::float_(g.gp.log_marginal_likelihood());
            const Vec t = theta.is_none() ? g.gp.hyperparameters() : to_vec(theta, "theta", P);
            Vec grad;
            double v;
            {
              py::gil_scoped_release nogil;
              v = g.gp.log_marginal_likelihood_at(t, eval_gradient ? &grad : nullptr);
            }
            if (eval_gradient) return py::make_tuple(v, from_vec(grad));
            return py::float_(v);
          },
          py::arg("theta") = py::none(), py::arg("eval_gradient") = false,
          "Log marginal likelihood of the (standardised) targets at the current theta, or at `theta`;\n"
          "with eval_gradient=True also its gradient wrt theta.")
      .def(
          "add_observation",
          [](PyGP& g, const py::object& x, double y) {
            if (g.gp.size() == 0) throw py::value_error("add_observation needs data: set_data(X, y) first");
            g.gp.add_observation(to_vec(x, "x", input_dim(g)), y);
          },
          py::arg("x"), py::arg("y"), "Adds one point with unchanged hyperparameters (O(n^2) factor update).")
      .def_property(
          "theta", [](const PyGP& g) { return from_vec(g.gp.hyperparameters()); },
          [](PyGP& g, const py::object& t) {
            g.gp.set_hyperparameters(to_vec(t, "theta", g.gp.hyperparameters().size()));
          },
          "Hyperparameters in log space: kernel log params, then log noise variance.")
      .def_property_readonly("theta_names", [](const PyGP& g) { return g.gp.hyperparameter_names(); })
      .def_property_readonly("noise_variance", [](const PyGP& g) { return g.gp.noise_variance(); })
      .def_property_readonly("kernel", [](const PyGP& g) {
        return wrap_kernel(std::shared_ptr<Kernel>(g.gp.kernel().clone()), g.dim);
      }, "A copy of the kernel with the current hyperparameters.")
      .def_property_readonly("X", [](const PyGP& g) { return from_mat(g.gp.X()); })
      .def_property_readonly("y", [](const PyGP& g) { return from_vec(g.gp.y()); })
      .def_property_readonly("n", [](const PyGP& g) { return g.gp.size(); })
      .def("information_gain", [](const PyGP& g) { return g.gp.information_gain(); })
      .def("__repr__", [](const PyGP& g) {
        return "<kbo.GP n=" + std::to_string(g.gp.size()) + " kernel=" + g.gp.kernel().describe() + ">";
      });
}

}  // namespace kbo::python
