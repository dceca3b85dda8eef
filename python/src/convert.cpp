// numpy <-> Eigen and JSON <-> Python conversions (see common.hpp).
#include <sstream>

#include "common.hpp"

namespace kbo::python {

namespace {

std::string shape_of(const py::array& a) {
  std::ostringstream s;
  s << "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s << (i ? ", " : "") << a.shape(i);
  s << (a.ndim() == 1 ? ",)" : ")");
  return s.str();
}

Array as_array(const py::handle& obj, const std::string& name, const std::string& expected) {
  if (obj.is_none()) throw py::value_error(name + " must be an array of shape " + expected + " (got None)");
  Array a = Array::ensure(obj);
  if (!a) {
    PyErr_Clear();
    throw py::value_error(name + " must be an array of numbers of shape " + expected + " (got " +
                          std::string(py::str(py::type::of(obj).attr("__name__"))) + ")");
  }
  return a;
}

}  // namespace

Mat to_mat(const py::handle& obj, const std::string& name, Eigen::Index cols) {
  const std::string expected = cols < 0 ? "(n, D)" : "(n, " + std::to_string(cols) + ")";
  Array a = as_array(obj, name, expected);
  if (a.ndim() != 2 || (cols >= 0 && a.shape(1) != cols))
    throw py::value_error(name + " must have shape " + expected + " (got " + shape_of(a) + ")");
  Mat m(a.shape(0), a.shape(1));
  m = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data(), a.shape(0),
                                                                                                 a.shape(1));
  return m;
}

Vec to_vec(const py::handle& obj, const std::string& name, Eigen::Index size) {
  const std::string expected = size < 0 ? "(n,)" : "(" + std::to_string(size) + ",)";
  Array a = as_array(obj, name, expected);
  if (a.ndim() != 1 || (size >= 0 && a.shape(0) != size))
    throw py::value_error(name + " must have shape " + expected + " (got " + shape_of(a) + ")");
  return Eigen::Map<const Vec>(a.data(), a.shape(0));
}

Array from_mat(const Mat& m) {
  Array a({m.rows(), m.cols()});
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.mutable_data(), m.rows(),
                                                                                      m.cols()) = m;
  return a;
}

Array from_vec(const Vec& v) {
  Array a(v.size());
  Eigen::Map<Vec>(a.mutable_data(), v.size()) = v;
  return a;
}

// Through the json module: exact for doubles (both sides print/parse shortest round-trip forms) and
// no hand-written type walk; numpy scalars/arrays are turned into lists first by the default hook.
nlohmann::json json_from_py(const py::handle& obj) {
  py::module_ json = py::module_::import("json");
  py::object to_list = py::module_::import("kbo._util").attr("json_default");
  const std::string text = py::str(json.attr("dumps")(obj, py::arg("default") = to_list));
  return nlohmann::json::parse(text);
}

py::object json_to_py(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

Mat kernel_input(const PyKernel& k, const py::handle& X, const std::string& name) {
  return to_mat(X, name, k.dim);
}

}  // namespace kbo::python
