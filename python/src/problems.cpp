// kbo.problem(name, dim): the CLI's built-in test problems (`kbo optimize --problem`) as Python callables,
// so that a Python run and a CLI run can optimise the very same function.
#include <pybind11/stl.h>

#include "common.hpp"
#include "kbo/optimize/problems.hpp"

namespace kbo::python {

void init_problems(py::module_& m) {
  py::class_<Problem>(m, "Problem", R"doc(
A built-in test problem (minimised): call it with a 1-d array of length dim. bounds is a (dim, 2) array of
[lower, upper]; optimum the known minimum value, argmins the known minimisers (rows).)doc")
      .def(
          "__call__",
          [](const Problem& p, const py::object& x) { return p.f(to_vec(x, "x", p.bounds.dim())); }, py::arg("x"))
      .def_readonly("name", &Problem::name)
      .def_property_readonly("dim", [](const Problem& p) { return p.bounds.dim(); })
      .def_property_readonly("bounds", [](const Problem& p) {
        Mat b(p.bounds.dim(), 2);
        b.col(0) = p.bounds.lower;
        b.col(1) = p.bounds.upper;
        return from_mat(b);
      })
      .def_readonly("optimum", &Problem::optimum)
      .def_property_readonly("argmins", [](const Problem& p) {
        Mat a(static_cast<Eigen::Index>(p.argmins.size()), p.bounds.dim());
        for (std::size_t i = 0; i < p.argmins.size(); ++i) a.row(static_cast<Eigen::Index>(i)) = p.argmins[i].transpose();
        return from_mat(a);
      })
      .def("__repr__", [](const Problem& p) {
        return "<kbo.Problem " + p.name + " dim=" + std::to_string(p.bounds.dim()) + ">";
      });
  m.def("problem", &make_problem, py::arg("name"), py::arg("dim") = 0,
        "Built-in problem by name (as `kbo optimize --problem NAME --dim D`; dim=0: the problem's default).");
  m.def("problem_names", &problem_names);
}

}  // namespace kbo::python
