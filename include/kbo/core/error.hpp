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

/// The storage failed underneath kbo: a full disk, an I/O error, or a database server that stayed
/// unreachable longer than kbo waits for it. Nothing committed is lost; re-running resumes. The CLI prints
/// one line and exits kExitIOError.
struct StorageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Exit code of the CLI for a StorageError: EX_IOERR of <sysexits.h>.
inline constexpr int kExitIOError = 74;

}  // namespace kbo
