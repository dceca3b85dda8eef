#pragma once
// Shared pieces of the Python bindings: numpy <-> Eigen conversion with shape checks, JSON <-> Python,
// and the per-area init functions called by module.cpp. Everything here runs with the GIL held.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "kbo/model/kernel.hpp"
#include "kbo/core/linalg.hpp"

namespace kbo::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A 2-d float array as a matrix (points are rows). ValueError naming `name` and the expected shape
/// "(n, cols)" otherwise; cols < 0 accepts any number of columns.
Mat to_mat(const py::handle& obj, const std::string& name, Eigen::Index cols = -1);
/// A 1-d float array; size < 0 accepts any length. ValueError naming the expected shape otherwise.
Vec to_vec(const py::handle& obj, const std::string& name, Eigen::Index size = -1);
Array from_mat(const Mat& m);
Array from_vec(const Vec& v);

nlohmann::json json_from_py(const py::handle& obj);
py::object json_to_py(const nlohmann::json& j);

/// A kernel as Python sees it: the C++ kernel (shared: a GP clones it) and its input dimension
/// (-1: any, e.g. KFO kernels depend only on distances). The dimension is tracked here because the
/// C++ interface has no dim() and Eigen does not check sizes in Release builds.
struct PyKernel {
  virtual ~PyKernel() = default;  // polymorphic: pybind11 returns the most derived Python class
  std::shared_ptr<Kernel> kernel;
  int dim = -1;
  std::string kind;  // "stationary", "set", "invariant", "functional", "sum", "product", "scale"
};
/// Checks that X has the kernel's number of columns (ValueError naming the shape).
Mat kernel_input(const PyKernel& k, const py::handle& X, const std::string& name);

void init_errors(py::module_& m);
void init_kernels(py::module_& m);
void init_gp(py::module_& m);
void init_problems(py::module_& m);
void init_studies(py::module_& m);
void init_kfo(py::module_& m);

}  // namespace kbo::python
