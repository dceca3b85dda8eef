// kbo show: print a study (table, or the same JSON object as `kbo optimize --json`).
#include <iostream>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

int run_show(int argc, char** argv) {
  CLI::App app{"Print the trials of a study and its best point."};
  StudyOptionParser parser(app, kWhere | kOutput);
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  require_persistent_storage(o, "kbo show");
  const Study study = Study::open(open_storage(o.storage), o.study);
  const nlohmann::json out = study.to_json();
  if (o.json) std::cout << out.dump() << std::endl;
  else print_study_table(std::cout, out);
  return 0;
}

}  // namespace
KBO_COMMAND("show", "print a study's trials (table or --json)", run_show);
}  // namespace kbo::cli
