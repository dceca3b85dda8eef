// kbo: command-line entry point. Dispatches to registered subcommands ("gp", "optimize", "bench sets"…).
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "command.hpp"
#include "kbo/core/error.hpp"
#include "kbo/storage/stored_text.hpp"
#include "kbo/core/blas_threads.hpp"
#include "kbo/core/suggest.hpp"
#include "kbo/modules.hpp"

namespace kbo::cli {
std::map<std::string, CommandInfo>& registry() {
  static std::map<std::string, CommandInfo> commands;
  return commands;
}
}  // namespace kbo::cli

namespace {
// Two-word commands "bench <runner>" are the experiment runners: `kbo --help` shows them as one entry and
// `kbo bench --help` lists them, so the product's commands are not lost among a dozen runners.
const std::string kBenchPrefix = "bench ";

bool is_bench_runner(const std::string& name) { return name.rfind(kBenchPrefix, 0) == 0; }

void print_entry(std::ostream& out, const std::string& name, const std::string& summary) {
  out << "  " << name << std::string(name.size() < 20 ? 20 - name.size() : 1, ' ') << summary << "\n";
}

void print_usage(std::ostream& out) {
  out << "usage: kbo <command> [options]   (kbo <command> --help for its options; kbo --version)\n\ncommands:\n";
  bool bench_listed = false;
  for (const auto& [name, info] : kbo::cli::registry()) {
    if (!is_bench_runner(name)) {
      print_entry(out, name, info.summary);
    } else if (!bench_listed) {
      print_entry(out, "bench <runner>", "run a benchmark (the figures of docs/bench/); kbo bench --help lists them");
      bench_listed = true;
    }
  }
  out << "\nexit codes: 0 done, 1 error, 2 bad input (one line names it), " << kbo::kExitIOError
      << " storage I/O error (disk full, database server unreachable; re-run to resume)\n";
}

void print_bench_usage(std::ostream& out) {
  out << "usage: kbo bench <runner> [options]   (kbo bench <runner> --help for its options)\n\n"
         "runners (each writes its tables and figures; docs/bench/<runner>.md shows the current ones):\n";
  for (const auto& [name, info] : kbo::cli::registry())
    if (is_bench_runner(name)) print_entry(out, name.substr(kBenchPrefix.size()), info.summary);
}

/// "kbo tell: " + message, unless the message already names the program.
std::string prefixed(const std::string& program, const std::string& message) {
  return message.rfind(program + ":", 0) == 0 || message.rfind(program + " ", 0) == 0 ? message
                                                                                       : program + ": " + message;
}
}  // namespace

int main(int argc, char** argv) {
  // kbo's BLAS thread policy (one OpenBLAS thread, kbo's own threads do the parallel work), whatever
  // OPENBLAS_NUM_THREADS says (kbo/core/blas_threads.hpp).
  kbo::apply_blas_thread_policy();
  // A file-size limit (ulimit -f) then fails the write (a StorageError naming it) instead of killing kbo.
  std::signal(SIGXFSZ, SIG_IGN);
  kbo::register_builtin_modules();

  if (argc == 2 && (std::string(argv[1]) == "--version" || std::string(argv[1]) == "-V")) {
    std::cout << "kbo " << KBO_VERSION << "\n";
    return 0;
  }

  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    print_usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  auto& commands = kbo::cli::registry();
  if (std::string(argv[1]) == "bench" &&
      (argc == 2 || std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h")) {
    print_bench_usage(argc == 2 ? std::cerr : std::cout);
    return argc == 2 ? 2 : 0;
  }
  // Two-word commands ("bench sets") take precedence over one-word ones.
  std::string name = argv[1];
  int consumed = 1;
  if (argc >= 3 && commands.count(name + " " + argv[2])) {
    name += std::string(" ") + argv[2];
    consumed = 2;
  }
  auto it = commands.find(name);
  if (it == commands.end() && name == "bench") {
    std::string allowed;
    std::vector<std::string> runners;
    for (const auto& [n, info] : commands)
      if (is_bench_runner(n)) {
        runners.push_back(n.substr(kBenchPrefix.size()));
        allowed += (allowed.empty() ? "" : ", ") + runners.back();
      }
    std::cerr << "kbo bench: unknown runner '" << argv[2] << "'" << kbo::did_you_mean(argv[2], runners)
              << " (allowed: " << allowed << ")\n";
    return 2;
  }
  if (it == commands.end()) {
    std::string allowed;
    std::vector<std::string> names;
    for (const auto& [n, info] : commands) {
      allowed += (allowed.empty() ? "" : ", ") + n;
      names.push_back(n);
    }
    std::cerr << "kbo: unknown command '" << name << "'" << kbo::did_you_mean(name, names) << " (allowed: " << allowed
              << ")\n";
    return 2;
  }
  std::string program = "kbo " + name;
  std::vector<char*> args;
  args.push_back(program.data());
  for (int i = consumed + 1; i < argc; ++i) args.push_back(argv[i]);
  try {
    return it->second.run(static_cast<int>(args.size()), args.data());
  } catch (const kbo::cli::HelpShown&) {
    return 0;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return 0;  // --help
    std::cerr << kbo::terminal_text(prefixed(program, e.what())) << "\n";
    return 2;
  } catch (const kbo::InputError& e) {
    std::cerr << kbo::terminal_text(prefixed(program, e.what())) << "\n";
    return 2;
  } catch (const kbo::StorageError& e) {
    std::cerr << program << ": I/O error: " << kbo::terminal_text(e.what()) << "\n";
    return kbo::kExitIOError;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << kbo::terminal_text(e.what()) << "\n";
    return 1;
  }
}
