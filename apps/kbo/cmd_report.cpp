// kbo report: one self-contained HTML file showing a study (convergence, the Pareto front and hypervolume of
// several objectives, parallel coordinates, GP slices and partial dependences, importances, settings, the trial
// table). Reads the storage only.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "command.hpp"
#include "kbo/analysis/study_view.hpp"
#include "kbo/analysis/view_trials.hpp"
#include "kbo/storage/storage.hpp"
#include "study_choice.hpp"
#include "study_options.hpp"
#include "viewer_page.hpp"

namespace kbo::cli {
namespace {

/// "<study>.html", with the characters a file name cannot hold ('/', NUL) and a leading '.' replaced by '_'.
std::string report_file_name(std::string name) {
  for (char& c : name)
    if (c == '/' || c == '\0') c = '_';
  if (name.empty() || name[0] == '.') name.insert(0, "_");
  return name + ".html";
}

int run_report(int argc, char** argv) {
  CLI::App app{"Write one self-contained HTML file that shows a study: convergence, for several objectives the "
               "Pareto front and the hypervolume against trials, parallel coordinates, a slice "
               "and partial dependence per parameter from a GP fitted to the trials, parameter importances, the "
               "study's settings and the sortable trial table. It opens offline in any browser (the charts are "
               "inlined). Without --study it shows the storage's only study. Reads only: it creates and changes "
               "nothing but the HTML file."};
  StudyOptionParser parser(app, kWhere);
  parser.needs_persistent_storage();
  std::string output;
  // --out as well: the bench commands name their output --out, and a user carries the habit over.
  app.add_option("-o,--output,--out", output, "the HTML file to write (default: the study's name + .html, in the "
                                               "current directory)");
  std::size_t max_trials = kDefaultMaxListedTrials;
  app.add_option("--max-trials", max_trials,
                 "list at most this many trials (default " + std::to_string(kDefaultMaxListedTrials) +
                     "; 0: all): a larger study shows a sample that keeps every improvement of the best value, "
                     "the pending and most recent trials, and says so on the page; counts, best and model use all");
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  require_persistent_storage(o);
  if (app.count("--output") > 0 && output.empty()) throw InputError("--output must name a file (e.g. -o report.html)");
  const std::shared_ptr<Storage> storage = open_storage(o.storage, StorageAccess::ReadOnly);
  const Study study = Study::open(storage, choose_study(*storage, o));
  if (output.empty()) output = report_file_name(study.name());
  const nlohmann::json view = study_view(study, max_trials);
  const std::string page = viewer_page({{"mode", "report"}, {"view", view}}, "kbo · " + study.name());
  std::ofstream out(output, std::ios::binary);
  if (!out) throw InputError("--output: cannot write '" + output + "' (" + std::strerror(errno) + ")");
  out << page;
  out.close();
  if (!out) throw StorageError("writing '" + output + "' failed (" + std::strerror(errno) + ")");
  std::cout << "kbo report: wrote " << output << " (study '" << study.name() << "', " << view["n_trials"].get<int>()
            << " trials, " << (page.size() + 512) / 1024 << " KiB)";
  if (view["n_shown"] != view["n_trials"]) std::cout << "; it lists " << view["n_shown"].get<int>() << " of them";
  std::cout << std::endl;
  return 0;
}

}  // namespace
KBO_COMMAND("report", "write a study as one self-contained HTML file (charts, GP slices, importances, trials)",
            run_report);
}  // namespace kbo::cli
