#pragma once
// The option table of studies: one entry per option, shared by every edge — the CLI (`--beta-schedule`),
// config files (`beta_schedule = ...`) and Python keywords (`beta_schedule=...`). Each edge turns its input
// into a typed JSON value (bool, number, string, object) and calls set_study_option; the CLI (CLI11) and the
// Python module are thin adapters over this table. Options given explicitly are recorded, so that one the
// chosen strategy or space does not use is an error instead of being ignored (check_study_options).
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/optimize/problems.hpp"
#include "kbo/strategy/config.hpp"
#include "kbo/study/trial.hpp"

namespace kbo {

struct StudyOptions {
  // where
  std::string storage = "memory";  // memory | sqlite:PATH | postgresql://…
  std::string study = "default";
  // what: a built-in problem or an external command over a box (or a set space)
  std::string problem;
  int dim = 0;                     // 0 ⇒ the problem's default
  std::string objective;           // shell command
  std::string bounds;              // "lo:hi,lo:hi,..."
  nlohmann::json params = nlohmann::json::array();  // named parameters (kbo/core/params.hpp): a params space
  std::string space = "box";       // box | set
  int set_size = 0;                // m (set spaces)
  int element_dim = 0;             // d (set spaces; default: number of bounds entries)
  bool minimize = true;
  /// "minimize" | "maximize" per objective of a study with several (2 or more entries); empty: one objective.
  std::vector<std::string> directions;
  // how long / how
  int iters = 50;
  double eval_timeout = 0.0;       // seconds, 0 ⇒ none
  int workers = 1;                 // optimize: local `kbo worker` processes (1: evaluate in-process)
  double stale_after = 60.0;       // seconds without heartbeat before a running trial is re-offered
  bool json = false;
  StrategyConfig strategy;
  // tell
  std::optional<int> trial;
  std::optional<double> value;
  std::optional<std::vector<double>> values;  // tell, several objectives
  std::optional<std::string> failed;
  /// Options given explicitly (flag, config key, keyword), by name as in the table ("no-ard", "acq", …).
  std::set<std::string> given;

  bool has_space_source() const {
    return !problem.empty() || !objective.empty() || !bounds.empty() || !params.empty();
  }
};

enum class OptionKind { Flag, Int, Double, String, Json };

/// Which options a command accepts on its command line (config files and Python may hold all of them).
enum OptionGroup : unsigned {
  kWhere = 1,     // storage study (and --config)
  kWhat = 2,      // problem dim objective bounds space set-size element-dim minimize maximize
  kRun = 4,       // iters eval-timeout
  kOutput = 8,    // json
  kStrategy = 16, // every StrategyConfig option
  kTell = 32,     // trial value failed
  kWorkers = 64,  // workers stale-after
};

/// What a value read from a config file names, so that relative paths are relative to the config file's
/// directory (not to where the command runs): a storage URL or file path, a file, or a shell command (run
/// in that directory).
enum class PathKind { None, Storage, File, Command };

struct OptionSpec {
  std::string name;   // the CLI flag without "--"; config keys and Python keywords write '_' for '-'
  OptionKind kind;
  unsigned group;
  bool in_config;     // also a config-file key and a Python keyword
  std::string field;  // the StrategyConfig key it sets ("" for study and run options)
  std::string help;
  std::function<void(StudyOptions&, const nlohmann::json& value)> apply;
  PathKind path = PathKind::None;  // in a config file: relative to its directory
  bool repeatable = false;         // on the command line: may be given several times (values joined by '\n')
};

/// Every option, in help order.
const std::vector<OptionSpec>& study_option_table();
/// The option called `name` ('-' and '_' alike, any case); nullptr if none.
const OptionSpec* find_study_option(std::string_view name);
/// Sets one option from a typed value and records it as given; InputError naming the option.
void set_study_option(StudyOptions& o, const OptionSpec& spec, const nlohmann::json& value);
/// Command-line text → the typed value of spec.kind (InputError naming --flag and the expected form).
nlohmann::json option_value_from_text(const OptionSpec& spec, const std::string& text);

/// The study's space (as stored) from the options: the problem's box, the bounds box, or a set space.
/// `problem` is filled for a built-in problem. InputError for missing/contradictory/bad space options.
nlohmann::json resolve_space(const StudyOptions& o, std::optional<Problem>* problem);
/// Parses "lo:hi,lo:hi,..." (InputError naming the bad entry; lo < hi, finite).
Box parse_bounds(const std::string& text);

/// validate(o.strategy) for `space`, then: every option given explicitly is used by the chosen strategy,
/// its acquisition, the space's kind and the kernel structure (an InputError naming the option and what
/// does not use it otherwise), and so is every section of `options`.
void check_study_options(const StudyOptions& o, const nlohmann::json& space);

/// The StudyRecord `kbo optimize`/`kbo ask`/Python create or reopen (check_study_options first).
StudyRecord make_study_record(const StudyOptions& o, const nlohmann::json& space);

/// A Markdown table: for each registered strategy, which options it honours (for the CLI reference).
std::string strategy_options_table();

}  // namespace kbo
