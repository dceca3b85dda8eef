#pragma once
// Error types. Every user-facing failure is one of these, with a message that names what is wrong
// and what is allowed; the CLI turns InputError into a one-line message and exit code 2.
#include <stdexcept>
#include <string>

namespace kbo {

/// Bad user input: a file, flag, config key, dimension or value that cannot be used.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A numerical failure that could not be repaired (e.g. Cholesky failed after every jitter level).
struct NumericalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace kbo
