// kbo show: print a study (every trial as a table or CSV, or the same JSON object as `kbo optimize --json`).
#include <unistd.h>

#include <iostream>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy/registry.hpp"
#include "study_choice.hpp"
#include "study_options.hpp"
#include "study_output.hpp"

namespace kbo::cli {
namespace {

int run_show(int argc, char** argv) {
  CLI::App app{"Print the trials of a study and its best point: every trial by default; --top N the N best. Without "
               "--study it shows the storage's only study. Reads only: it creates and changes nothing (a study on "
               "read-only media can be shown)."};
  StudyOptionParser parser(app, kWhere | kOutput);
  parser.needs_persistent_storage();
  int top = 0;
  std::string sort, format = "table";
  app.add_option("--top", top, "only the N first trials of --sort (with --top the default order is value)");
  app.add_option("--sort", sort, "id | value (best first; then failed, then pending trials) (default id)");
  app.add_option("--format", format, "table | csv | json (default table; --json = --format json)");
  bool pareto = false;
  app.add_flag("--pareto", pareto,
               "a study with several objectives: only its Pareto front (non-dominated complete trials) and the "
               "hypervolume (with --json: study, directions, pareto_front, hypervolume)");
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  if (top < 0) throw InputError("--top must be >= 1 (or 0: every trial)");
  if (!sort.empty() && sort != "id" && sort != "value")
    throw InputError("--sort: unknown value '" + sort + "' (allowed: id, value)");
  if (format != "table" && format != "csv" && format != "json")
    throw InputError("--format: unknown value '" + format + "' (allowed: table, csv, json)");
  if (o.json && app.count("--format") > 0 && format != "json")
    throw InputError("--json contradicts --format " + format);
  require_persistent_storage(o);
  const std::shared_ptr<Storage> storage = open_storage(o.storage, StorageAccess::ReadOnly);
  const Study study = Study::open(storage, choose_study(*storage, o));
  const std::vector<Trial> trials = study.trials();
  nlohmann::json out = study.to_json(trials, all_indices(trials.size()));
  // The recommendation under the study's stored model state (read only: nothing is refitted or written).
  std::unique_ptr<Strategy> strategy;
  try {
    if (study.n_objectives() == 1) strategy = make_strategy(study.strategy_config(), study.space());
  } catch (const std::exception&) {
    strategy.reset();  // a stored configuration this build cannot model: the best observed trial, said so
  }
  study.add_recommendation(out, trials, strategy.get());
  if (pareto) {
    if (study.n_objectives() == 1)
      throw InputError("--pareto needs a study with several objectives; study '" + study.name() + "' has one");
    if (top > 0 || !sort.empty() || format == "csv") throw InputError("--pareto takes no --top, --sort or --format csv");
    if (o.json || format == "json") {
      std::cout << nlohmann::json{{"study", out["study"]}, {"directions", out["directions"]},
                                  {"pareto_front", out["pareto_front"]}, {"hypervolume", out["hypervolume"]}}
                       .dump()
                << std::endl;
    } else {
      print_pareto_front(std::cout, out);
    }
    return 0;
  }
  const TrialOrder order = sort == "value" || (sort.empty() && top > 0) ? TrialOrder::Value : TrialOrder::Id;
  const std::vector<nlohmann::json> rows = select_trials(out, order, top);
  if (o.json || format == "json") {
    // The counts and best keys describe the whole study; only the trials list follows --sort/--top.
    if (top > 0 || order != TrialOrder::Id) out["trials"] = rows;
    std::cout << out.dump() << std::endl;
  } else if (format == "csv") {
    // CSV keeps stored text as it is for the programs that read it; on a terminal it is escaped as tables
    // are (stored names and reasons may hold escape sequences).
    if (isatty(STDOUT_FILENO)) print_study_csv(std::cout, for_terminal(out), for_terminal(rows));
    else print_study_csv(std::cout, out, rows);
  } else {
    print_study_table(std::cout, out, rows);
  }
  return 0;
}

}  // namespace
KBO_COMMAND("show", "print a study's trials (table, --format csv|json, --top N, --sort value|id)", run_show);
}  // namespace kbo::cli
