// kbo studies: the studies of a storage, one line each (name, direction, trials, best value, last update).
#include <cstdio>
#include <ctime>
#include <iostream>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/study.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

/// The latest time anything happened to the study: a trial created, finished or heartbeating, else its creation.
double study_last_update(const StudyRecord& record, const std::vector<Trial>& trials) {
  double last = record.created_at;
  for (const auto& t : trials) last = std::max({last, t.created_at, t.finished_at, t.heartbeat_at});
  return last;
}

std::string utc_time_text(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

nlohmann::json describe_study_row(const Study& study) {
  const std::vector<Trial> trials = study.trials();
  int complete = 0, failed = 0, pending = 0;
  for (const auto& t : trials) {
    complete += t.state == TrialState::Complete;
    failed += t.state == TrialState::Failed;
    pending += t.state == TrialState::Pending;
  }
  const std::optional<Trial> best = Study::best_of(trials, study.minimize());
  const double last = study_last_update(study.record(), trials);
  return {{"study", study.name()},
          {"direction", study.minimize() ? "minimize" : "maximize"},
          {"n_trials", static_cast<int>(trials.size())},
          {"n_complete", complete},
          {"n_failed", failed},
          {"n_pending", pending},
          {"best_value", best ? nlohmann::json(*best->value) : nlohmann::json(nullptr)},
          {"best_trial", best ? nlohmann::json(best->id) : nlohmann::json(nullptr)},
          {"last_update", last},
          {"last_update_utc", utc_time_text(last)}};
}

void print_studies_table(std::ostream& out, const std::string& url, const std::vector<nlohmann::json>& rows) {
  std::size_t name_width = 5;
  for (const auto& r : rows) name_width = std::max(name_width, r["study"].get<std::string>().size());
  out << rows.size() << (rows.size() == 1 ? " study" : " studies") << " in " << url << "\n";
  if (rows.empty()) return;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %-9s %7s %9s  %-15s  %s\n", static_cast<int>(name_width), "study",
                "direction", "trials", "complete", "best", "last update (UTC)");
  out << line;
  for (const auto& r : rows) {
    char best[32] = "-";
    if (!r["best_value"].is_null()) std::snprintf(best, sizeof best, "%.8g", r["best_value"].get<double>());
    std::snprintf(line, sizeof line, "%-*s  %-9s %7d %9d  %-15s  %s\n", static_cast<int>(name_width),
                  r["study"].get<std::string>().c_str(), r["direction"].get<std::string>().c_str(),
                  r["n_trials"].get<int>(), r["n_complete"].get<int>(), best,
                  r["last_update_utc"].get<std::string>().c_str());
    out << line;
  }
}

int run_studies(int argc, char** argv) {
  CLI::App app{"List the studies of a storage: name, direction, number of trials (and complete ones), best value "
               "and when a trial was last created or finished. Reads only: it creates and changes nothing."};
  std::string storage;
  bool json = false;
  app.add_option("--storage", storage, "required: " + storage_url_forms() + ", or a file path such as study.db");
  app.add_flag("--json", json, "one JSON object: {\"storage\": URL, \"studies\": [{study, direction, n_trials, "
                               "n_complete, n_failed, n_pending, best_value, best_trial, last_update, "
                               "last_update_utc}]}");
  parse(app, argc, argv);
  if (storage.empty()) throw InputError("--storage is required (the storage whose studies to list)");
  StudyOptions where;
  where.storage = normalize_storage_url(storage);
  require_persistent_storage(where);
  const std::shared_ptr<Storage> opened = open_storage(where.storage, StorageAccess::ReadOnly);
  std::vector<nlohmann::json> rows;
  for (const auto& name : opened->study_names()) rows.push_back(describe_study_row(Study::open(opened, name)));
  if (json) {
    std::cout << nlohmann::json{{"storage", opened->url()}, {"studies", rows}}.dump() << std::endl;
  } else {
    print_studies_table(std::cout, opened->url(), rows);
  }
  return 0;
}

}  // namespace
KBO_COMMAND("studies", "list the studies of a storage (name, direction, trials, best, last update; --json)",
            run_studies);
}  // namespace kbo::cli
