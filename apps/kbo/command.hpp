#pragma once
// Subcommand registry: each apps/kbo/cmd_*.cpp registers itself with a static KBO_COMMAND, so adding
// a command touches no other file. A command gets argv *after* its name (argv[0] = "kbo <name>").
// Throw kbo::InputError (or CLI11 parse errors) for bad input: main prints one line and exits 2.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>
#include <iostream>

#include <CLI/CLI.hpp>

#include "kbo/core/error.hpp"
#include "kbo/core/suggest.hpp"

namespace kbo::cli {

/// Thrown after --help was printed; main exits 0.
struct HelpShown {};

/// The flags a StudyOptionParser registered: the option table checks their values itself (with its own
/// ranges: a tell --value may be negative), so require_non_negative_numbers leaves them alone.
inline std::set<const CLI::Option*>& table_options() {
  static std::set<const CLI::Option*> options;
  return options;
}

/// One line naming every argument `app` did not expect, with the closest flag for each unknown one.
inline std::string unexpected_arguments(const CLI::App& app) {
  std::vector<std::string> flags;
  for (const CLI::Option* opt : app.get_options())
    for (const auto& name : opt->get_lnames()) flags.push_back("--" + name);
  std::string unknown, others;
  for (const auto& arg : app.remaining()) {
    if (arg.size() > 1 && arg[0] == '-' && !std::isdigit(static_cast<unsigned char>(arg[1])) && arg[1] != '.') {
      const std::string flag = arg.substr(0, arg.find('='));
      unknown += (unknown.empty() ? "" : ", ") + ("'" + flag + "'") + did_you_mean(flag, flags);
    } else {
      others += (others.empty() ? "" : " ") + arg;
    }
  }
  if (unknown.empty()) return "unexpected argument(s): " + others + " (see --help)";
  return "unknown option" + std::string(unknown.find(", '") != std::string::npos ? "s " : " ") + unknown +
         " (see --help)";
}

/// Every numeric flag of kbo's own commands is a count, a size, a seed, a time or a positive scale: a
/// negative, infinite, NaN or underflowing value is an error naming the flag, never wrapped around (a
/// uint64 seed of -1) or silently changed. (Study options are checked by the option table.)
inline void require_non_negative_numbers(CLI::App& app) {
  const CLI::Validator non_negative(
      [](std::string& text) -> std::string {
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return "";  // not a number: CLI11's conversion names it
        if (!std::isfinite(v) || v < 0.0) return "must be a finite number >= 0 (got " + text + ")";
        if (errno == ERANGE && v < 2.2250738585072014e-308)
          return text + " is too small for a double (it would become " + std::to_string(v) + ")";
        return "";
      },
      "", "non-negative");
  for (CLI::Option* opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    if ((type == "INT" || type == "UINT" || type == "FLOAT") && !table_options().count(opt)) opt->check(non_negative);
  }
}

/// A command's flags as `kbo completion` reads them off its CLI11 app: each name ("--study", "-o") and whether
/// it takes a value.
struct CommandShape {
  std::vector<std::pair<std::string, bool>> options;
};
/// Thrown by parse() instead of parsing while shape_request() is set: the command has built its app and
/// nothing else has run.
struct ShapeRecorded {};
/// Set by `kbo completion` around a call of a command: parse() records the app's flags there.
inline CommandShape*& shape_request() {
  static CommandShape* request = nullptr;
  return request;
}

/// Parses argv with CLI11: prints help for --help (throws HelpShown), turns parse errors (unknown flag,
/// bad value) into InputError so main prints one line and exits 2.
inline void parse(CLI::App& app, int argc, char** argv) {
  if (CommandShape* shape = shape_request()) {
    for (const CLI::Option* opt : app.get_options()) {
      const bool takes_value = opt->get_items_expected_max() > 0;  // flags expect none
      for (const auto& name : opt->get_lnames()) shape->options.emplace_back("--" + name, takes_value);
      for (const auto& name : opt->get_snames()) shape->options.emplace_back("-" + name, takes_value);
    }
    throw ShapeRecorded{};
  }
  require_non_negative_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    throw HelpShown{};
  } catch (const CLI::ExtrasError&) {
    throw InputError(unexpected_arguments(app));
  } catch (const CLI::ParseError& e) {
    throw InputError(e.what());
  }
}

using CommandFn = std::function<int(int argc, char** argv)>;

struct CommandInfo {
  std::string summary;
  CommandFn run;
  /// Hands its arguments to another program without parsing them (kbo bench bbob): `kbo completion` must not
  /// run it to read its flags.
  bool forwards_arguments = false;
};

std::map<std::string, CommandInfo>& registry();

struct Registrar {
  Registrar(const std::string& name, const std::string& summary, CommandFn fn, bool forwards_arguments = false) {
    registry()[name] = {summary, std::move(fn), forwards_arguments};
  }
};

}  // namespace kbo::cli

#define KBO_CONCAT_INNER(a, b) a##b
#define KBO_CONCAT(a, b) KBO_CONCAT_INNER(a, b)
/// KBO_COMMAND("gp", "fit a GP on CSV data", run_gp);  "bench invariance" style names are allowed.
/// (__COUNTER__, not __LINE__: a unity build compiles several cmd_*.cpp as one file, where lines repeat.)
#define KBO_COMMAND(name, summary, fn) \
  static const ::kbo::cli::Registrar KBO_CONCAT(kbo_registrar_, __COUNTER__)(name, summary, fn)
/// A command that passes its arguments on to another program (no CLI11 app to read flags from).
#define KBO_FORWARDING_COMMAND(name, summary, fn) \
  static const ::kbo::cli::Registrar KBO_CONCAT(kbo_registrar_, __COUNTER__)(name, summary, fn, true)
