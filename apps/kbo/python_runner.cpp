// Starting a Python benchmark runner of the source tree (python_runner.hpp).
#include "python_runner.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "kbo/core/error.hpp"

namespace kbo::cli {

void exec_python_runner(const char* command, const char* script, int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string path = std::string(KBO_SOURCE_DIR) + "/" + script;
  if (!fs::exists(path)) throw InputError(std::string(command) + " needs the source tree's " + path);
  // The Python module built next to this executable (build/python), ahead of any installed one.
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::string module_dir = (self.parent_path() / "python").string();
    const char* old = std::getenv("PYTHONPATH");
    setenv("PYTHONPATH", old && *old ? (module_dir + ":" + old).c_str() : module_dir.c_str(), 1);
  }
  std::vector<std::string> args{"/usr/bin/python3", path};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  execv(cargs[0], cargs.data());
  throw std::runtime_error("cannot run /usr/bin/python3 (install python3): " + std::string(std::strerror(errno)));
}

}  // namespace kbo::cli
