#pragma once
// The CLI adapter over the library's study option table (kbo/study/options.hpp): each table entry becomes a
// CLI11 flag, and a TOML config file (--config) may hold any of them (same names, '-' or '_'). Values from
// --config are applied first, flags override them.
#include <memory>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kbo/study/config_file.hpp"
#include "kbo/study/options.hpp"
#include "kbo/study/study.hpp"

namespace kbo::cli {

using kbo::StudyOptions;
using kbo::OptionGroup;
using kbo::kWhere;
using kbo::kWhat;
using kbo::kRun;
using kbo::kOutput;
using kbo::kStrategy;
using kbo::kTell;
using kbo::kWorkers;

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
  /// For commands that work on a stored study (ask, tell, show): --help says which storage they need
  /// instead of "default memory".
  void needs_persistent_storage();

 private:
  struct Entry;
  CLI::App& app_;
  unsigned groups_;
  std::string config_path_;
  std::vector<std::shared_ptr<Entry>> entries_;
};

using kbo::apply_config_file;

using kbo::resolve_space;
using kbo::parse_bounds;
using kbo::make_study_record;

/// On stderr, when a resumed study's stored settings were replaced by this command's (Study::create_or_open):
/// "kbo optimize: study 's' continues with changed settings: kernel rbf -> matern52; …".
void say_changed_settings(const std::string& program, const std::string& study, const std::vector<std::string>& changed);

/// On stderr, when `kbo optimize` finds the budget already met: that nothing runs, and how to extend it.
/// Returns true if the budget is met (finished = complete or failed trials that count toward it).
bool say_if_budget_met(const Study& study, int n_init, int iters);

/// InputError unless the storage URL is persistent (ask/tell/show run in separate processes).
void require_persistent_storage(const StudyOptions& o);

}  // namespace kbo::cli
