#pragma once
// Options shared by `kbo optimize`, `kbo ask`, `kbo tell` and `kbo show`: one table of options gives
// the CLI flags AND the keys of the TOML config file (same names, '-' or '_'), so the config file holds
// everything the flags hold. Values from --config are applied first, flags override them.
#include <memory>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kbo/optimize/problems.hpp"
#include "kbo/study/study.hpp"

namespace kbo::cli {

struct StudyOptions {
  // where
  std::string storage = "memory";  // memory | sqlite:PATH
  std::string study = "default";
  // what: a built-in problem or an external command over a box (or a set space)
  std::string problem;
  int dim = 0;                     // 0 ⇒ the problem's default
  std::string objective;           // shell command
  std::string bounds;              // "lo:hi,lo:hi,..."
  std::string space = "box";       // box | set
  int set_size = 0;                // m (set spaces)
  int element_dim = 0;             // d (set spaces; default: number of --bounds entries)
  bool minimize = true;
  // how long / how
  int iters = 50;
  double eval_timeout = 0.0;       // seconds, 0 ⇒ none
  int workers = 1;                 // optimize: local `kbo worker` processes (1: evaluate in-process)
  double stale_after = 60.0;       // optimize --workers: seconds without heartbeat before a trial is re-offered
  bool json = false;
  StrategyConfig strategy;
  // tell
  std::optional<int> trial;
  std::optional<double> value;
  std::optional<std::string> failed;

  bool has_space_source() const { return !problem.empty() || !objective.empty() || !bounds.empty(); }
};

/// Which options a command accepts on its command line (the TOML file may hold all of them).
enum OptionGroup : unsigned {
  kWhere = 1,     // --storage --study --config
  kWhat = 2,      // --problem --dim --objective --bounds --space --set-size --element-dim --minimize --maximize
  kRun = 4,       // --iters --eval-timeout
  kOutput = 8,    // --json
  kStrategy = 16, // --strategy --kernel --ard/--no-ard --acq --beta --beta-schedule --init --init-method
                  // --fit-restarts --seed --acq-optimizer --invariance --invariant-kernel --space-related kernels
  kTell = 32,     // --trial --value --failed
  kWorkers = 64,  // --workers --stale-after
};

class StudyOptionParser {
 public:
  /// Registers the flags of `groups` on `app`.
  StudyOptionParser(CLI::App& app, unsigned groups);
  /// After app.parse: applies --config (TOML) then the given flags; InputError for unknown keys and
  /// bad values (one line naming the key/flag and what is allowed).
  /// `base` supplies the values nothing overrides (e.g. the config stored with an existing study).
  StudyOptions resolve(const StudyOptions& base = StudyOptions()) const;
  /// True if the flag `name` (without "--") was given on the command line.
  bool given(const std::string& name) const;

 private:
  struct Entry;
  CLI::App& app_;
  unsigned groups_;
  std::string config_path_;
  std::vector<std::shared_ptr<Entry>> entries_;
};

/// The study's space (as stored) from the options: the problem's box, the --bounds box, or a set space.
/// `problem` is filled for --problem. InputError for missing/contradictory/bad space options.
nlohmann::json resolve_space(const StudyOptions& o, std::optional<Problem>* problem);

/// Human-readable table of a study (the object of Study::to_json): one row per trial, best marked.
void print_study_table(std::ostream& out, const nlohmann::json& study);

/// InputError unless the storage URL is persistent (ask/tell/show run in separate processes).
void require_persistent_storage(const StudyOptions& o, const std::string& command);

/// Parses "lo:hi,lo:hi,..." (InputError naming the bad entry; lo < hi, finite).
Box parse_bounds(const std::string& text);

/// The StudyRecord `kbo optimize`/`kbo ask` create or reopen.
StudyRecord make_study_record(const StudyOptions& o, const nlohmann::json& space);

}  // namespace kbo::cli
