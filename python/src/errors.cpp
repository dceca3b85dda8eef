// kbo errors as Python exceptions: kbo::InputError -> kbo.InputError (a ValueError), kbo::NumericalError ->
// kbo.NumericalError (a RuntimeError), kbo::StorageError -> kbo.StorageError (an OSError); any other C++ exception becomes RuntimeError (pybind11's default).
// The message is the library's one-line message, unchanged.
#include "common.hpp"
#include "kbo/core/error.hpp"

namespace kbo::python {

void init_errors(py::module_& m) {
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<NumericalError> numerical_error(m, "NumericalError", PyExc_RuntimeError);
  static py::exception<StorageError> storage_error(m, "StorageError", PyExc_OSError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      input_error(e.what());
    } catch (const NumericalError& e) {
      numerical_error(e.what());
    } catch (const StorageError& e) {
      storage_error(e.what());
    }
  });
  input_error.doc() = "Bad input (a value, shape, option or file kbo cannot use). Subclass of ValueError.";
  numerical_error.doc() = "A numerical failure kbo could not repair (e.g. Cholesky after every jitter level).";
  storage_error.doc() = "The study's storage failed (disk full, I/O error, database server unreachable for longer "
                        "than kbo waits). Committed trials are kept. Subclass of OSError.";
}

}  // namespace kbo::python
