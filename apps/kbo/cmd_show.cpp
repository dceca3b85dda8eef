// kbo show: print a study (table, or the same JSON object as `kbo optimize --json`).
#include <iostream>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

int run_show(int argc, char** argv) {
  CLI::App app{"Print the trials of a study and its best point. Reads only: it creates and changes nothing (a study "
               "on read-only media can be shown)."};
  StudyOptionParser parser(app, kWhere | kOutput);
  parser.needs_persistent_storage();
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  require_persistent_storage(o);
  const Study study = Study::open(open_storage(o.storage, StorageAccess::ReadOnly), o.study);
  const nlohmann::json out = study.to_json();
  if (o.json) std::cout << out.dump() << std::endl;
  else print_study_table(std::cout, out);
  return 0;
}

}  // namespace
KBO_COMMAND("show", "print a study's trials (table or --json)", run_show);
}  // namespace kbo::cli
