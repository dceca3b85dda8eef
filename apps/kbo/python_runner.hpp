#pragma once
// Benchmarks whose peers are Python libraries (Optuna) run as Python scripts of the source tree; the
// `kbo bench` command that starts one puts this build's Python module first on the path, so the script
// measures this very build.
namespace kbo::cli {

/// Replaces this process by `/usr/bin/python3 KBO_SOURCE_DIR/<script> argv[1:]` with build/python first on
/// PYTHONPATH. Returns only by throwing (InputError when the script is not in the source tree).
[[noreturn]] void exec_python_runner(const char* command, const char* script, int argc, char** argv);

}  // namespace kbo::cli
