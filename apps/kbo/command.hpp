#pragma once
// Subcommand registry: each apps/kbo/cmd_*.cpp registers itself with a static KBO_COMMAND, so adding
// a command touches no other file. A command gets argv *after* its name (argv[0] = "kbo <name>").
// Throw kbo::InputError (or CLI11 parse errors) for bad input: main prints one line and exits 2.
#include <functional>
#include <map>
#include <string>
#include <vector>
#include <iostream>

#include <CLI/CLI.hpp>

#include "kbo/core/error.hpp"

namespace kbo::cli {

/// Thrown after --help was printed; main exits 0.
struct HelpShown {};

/// Parses argv with CLI11: prints help for --help (throws HelpShown), turns parse errors (unknown flag,
/// bad value) into InputError so main prints one line and exits 2.
inline void parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    throw HelpShown{};
  } catch (const CLI::ParseError& e) {
    throw InputError(e.what());
  }
}

using CommandFn = std::function<int(int argc, char** argv)>;

struct CommandInfo {
  std::string summary;
  CommandFn run;
};

std::map<std::string, CommandInfo>& registry();

struct Registrar {
  Registrar(const std::string& name, const std::string& summary, CommandFn fn) {
    registry()[name] = {summary, std::move(fn)};
  }
};

}  // namespace kbo::cli

#define KBO_CONCAT_INNER(a, b) a##b
#define KBO_CONCAT(a, b) KBO_CONCAT_INNER(a, b)
/// KBO_COMMAND("gp", "fit a GP on CSV data", run_gp);  "bench invariance" style names are allowed.
#define KBO_COMMAND(name, summary, fn) \
  static const ::kbo::cli::Registrar KBO_CONCAT(kbo_registrar_, __LINE__)(name, summary, fn)
