// Shared study options: CLI flags and TOML keys from one table (see study_options.hpp).
#include "study_options.hpp"

#include "command.hpp"
#include "kbo/storage/stored_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>


#include "kbo/core/error.hpp"
#include "kbo/core/suggest.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo::cli {

namespace {

/// The library names keys ("init must be …"); on the command line the user typed "--init".
std::string as_flag_message(const OptionSpec& spec, const std::string& message) {
  std::string key = spec.name;
  std::replace(key.begin(), key.end(), '-', '_');
  if (message.rfind(key + " ", 0) == 0 || message.rfind(key + ":", 0) == 0)
    return "--" + spec.name + message.substr(key.size());
  return "--" + spec.name + ": " + message;
}

}  // namespace

struct StudyOptionParser::Entry {
  const OptionSpec* spec;
  CLI::Option* option = nullptr;
  std::string text;  // value given on the command line
  bool flag = false;
};

StudyOptionParser::StudyOptionParser(CLI::App& app, unsigned groups) : app_(app), groups_(groups) {
  if (groups_ & kWhere)
    app_.add_option("--config", config_path_, "TOML file with any of these options (flags override it)");
  for (const OptionSpec& spec : study_option_table()) {
    auto e = std::make_shared<Entry>();
    e->spec = &spec;
    entries_.push_back(e);
    if (!(spec.group & groups_)) continue;
    const std::string flag = "--" + spec.name;
    if (spec.kind == OptionKind::Flag) e->option = app_.add_flag(flag, e->flag, spec.help);
    else
      e->option = app_.add_option(flag, e->text, spec.help)
                      ->type_name(spec.kind == OptionKind::Int      ? "INT"
                                  : spec.kind == OptionKind::Double ? "FLOAT"
                                  : spec.kind == OptionKind::Json   ? "JSON"
                                                                    : "TEXT");
    if (spec.repeatable) e->option->multi_option_policy(CLI::MultiOptionPolicy::Join);
    table_options().insert(e->option);
  }
}

void StudyOptionParser::needs_persistent_storage() {
  for (const auto& e : entries_)
    if (e->spec->name == "storage" && e->option)
      e->option->description("required (or from --config): the study's storage, " + storage_url_forms() +
                             ", or a file path such as study.db (sqlite); memory storage ends with each process");
}

bool StudyOptionParser::given(const std::string& name) const {
  for (const auto& e : entries_)
    if (e->spec->name == name && e->option && e->option->count() > 0) return true;
  return false;
}

StudyOptions StudyOptionParser::resolve(const StudyOptions& base) const {
  StudyOptions o = base;
  o.given.clear();
  if (!config_path_.empty()) apply_config_file(o, config_path_);
  // Flags override the file; a flag pair given twice on the command line is contradictory.
  if (given("minimize") && given("maximize")) throw InputError("--minimize and --maximize are mutually exclusive");
  if (given("ard") && given("no-ard")) throw InputError("--ard and --no-ard are mutually exclusive");
  if (given("value") && given("failed")) throw InputError("--value and --failed are mutually exclusive");
  for (const auto& e : entries_) {
    if (!e->option || e->option->count() == 0) continue;
    // An empty value is a mistake (an unset shell variable, say), never "not given".
    if (e->spec->kind != OptionKind::Flag && e->text.find_first_not_of(" \t\r\n") == std::string::npos)
      throw InputError("--" + e->spec->name + " is given an empty value");
    const nlohmann::json value =
        e->spec->kind == OptionKind::Flag ? nlohmann::json(true) : option_value_from_text(*e->spec, e->text);
    try {
      set_study_option(o, *e->spec, value);
    } catch (const InputError& err) {
      throw InputError(as_flag_message(*e->spec, err.what()));
    }
  }
  return o;
}

void say_changed_settings(const std::string& program, const std::string& study, const std::vector<std::string>& changed) {
  if (changed.empty()) return;
  std::string list;
  for (const auto& c : changed) list += (list.empty() ? "" : "; ") + c;
  std::fprintf(stderr, "%s: study '%s' continues with changed settings: %s (its trials so far are kept)\n",
               program.c_str(), terminal_text(study).c_str(), list.c_str());
}

bool say_if_budget_met(const Study& study, int n_init, int iters) {
  int finished = 0, failed = 0;
  for (const auto& t : study.trials()) {
    if (t.state == TrialState::Pending || !counts_toward_budget(t)) continue;
    ++finished;
    failed += t.state == TrialState::Failed;
  }
  const int total = n_init + iters;
  if (finished < total) return false;
  std::fprintf(stderr,
               "kbo optimize: study '%s' has met its budget: %d of %d trials finished (--init %d + --iters %d; %d "
               "failed, and failed trials count too). Nothing to run; to continue, raise --iters, e.g. --iters %d "
               "for 10 more trials\n",
               terminal_text(study.name()).c_str(), finished, total, n_init, iters, failed, finished - n_init + 10);
  return true;
}

void require_persistent_storage(const StudyOptions& o) {
  if (o.storage == "memory")
    throw InputError("--storage is required: this command works on a stored study (--storage sqlite:PATH, a file path "
                     "such as study.db, or postgresql://USER@HOST:PORT/DB; memory storage ends with each process)");
}

}  // namespace kbo::cli
