// kbo bench moo: multi-objective problems (BraninCurrin, ZDT1-3, DTLZ2, VehicleSafety), kbo against Optuna's
// NSGA-II, GPSampler and random search by hypervolume. The runner is bench/moo/run.py (Optuna is a Python
// library); this command starts it with the Python module of this
// build on the path, so `kbo bench moo` measures this very build.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "command.hpp"

namespace {

int run_bench_moo(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string script = std::string(KBO_SOURCE_DIR) + "/bench/moo/run.py";
  if (!fs::exists(script)) throw kbo::InputError("kbo bench moo needs the source tree's " + script);
  // The Python module built next to this executable (build/python), ahead of any installed one.
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::string module_dir = (self.parent_path() / "python").string();
    const char* old = std::getenv("PYTHONPATH");
    setenv("PYTHONPATH", old && *old ? (module_dir + ":" + old).c_str() : module_dir.c_str(), 1);
  }
  std::vector<std::string> args{"/usr/bin/python3", script};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  execv(cargs[0], cargs.data());
  throw std::runtime_error("cannot run /usr/bin/python3 (install python3): " + std::string(std::strerror(errno)));
}

KBO_COMMAND("bench moo", "multi-objective: kbo vs Optuna NSGA-II, GPSampler and random by hypervolume (bench/moo/run.py --help)", run_bench_moo);

}  // namespace
