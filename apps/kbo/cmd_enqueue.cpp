// kbo enqueue: queue points to be evaluated next (warm start).
#include <iostream>

#include "command.hpp"
#include "warm_start.hpp"

namespace kbo::cli {
namespace {

int run_enqueue(int argc, char** argv) {
  CLI::App app{"Queue points to evaluate next (warm start): each --point becomes a pending trial without owner "
               "(phase 'queued'), which the next `kbo optimize` / `kbo worker` run (or Python Study.optimize) "
               "evaluates before asking the strategy for new points; while queued the model treats it as pending. "
               "Works before a study runs (the study is created when a space is given, as with `kbo ask`) and "
               "while it runs. A point already evaluated is queued again: a replicate, which a noisy objective's model "
               "averages with the earlier evaluations. Prints one JSON line per queued trial."};
  StudyOptionParser parser(app, kWhere | kWhat | kStrategy);
  parser.needs_persistent_storage();
  std::vector<std::string> points;
  app.add_option("--point", points,
                 "a point as JSON: {\"name\": value, ...} for named parameters, or [x0, x1, ...] (repeat for several)")
      ->required()
      ->allow_extra_args(false);  // one point per --point: CLI11 would split a bracketed [x0, x1] into numbers
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  Study study = open_or_create_study(o, "kbo enqueue");
  std::vector<Vec> xs;
  for (const auto& p : points) xs.push_back(point_from_text(study, p));  // every point checked before any is stored
  for (const Vec& x : xs) std::cout << warm_start_line(study, study.enqueue(x)).dump() << std::endl;
  return 0;
}

}  // namespace
KBO_COMMAND("enqueue", "queue points to evaluate next (warm start)", run_enqueue);
}  // namespace kbo::cli
