// kbo tell: record the result of a pending trial.
#include <iostream>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "study_options.hpp"
#include "warm_start.hpp"

namespace kbo::cli {
namespace {

int run_tell(int argc, char** argv) {
  CLI::App app{"Record the result of a pending trial: --trial ID --value V, or --trial ID --failed REASON. A trial "
               "that a worker (`kbo optimize`, `kbo worker`) is running is refused unless --force: that worker "
               "records its own result."};
  StudyOptionParser parser(app, kWhere | kTell);
  parser.needs_persistent_storage();
  bool force = false;
  std::string point, constraints;
  app.add_option("--point", point,
                 "instead of --trial: add a NEW trial at this point, evaluated elsewhere (warm start), as JSON "
                 "{\"name\": value, ...} or [x0, x1, ...]; needs --value");
  app.add_option("--constraints", constraints,
                 "outcome constraint values c1,c2,... of the result (feasible iff every c <= 0; with --value)");
  std::optional<double> sem;
  app.add_option("--sem", sem,
                 "the standard error of --value (a noisy objective's known noise, a finite number >= 0): the model "
                 "adds its square to the learned noise of this observation");
  app.add_flag("--force", force,
               "record the result even if a worker is running the trial (its own result is then dropped)");
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  const std::vector<double> cons = constraints.empty() ? std::vector<double>() : constraints_from_text(constraints);
  if (o.value && o.values) throw InputError("--value and --values are mutually exclusive (--values: several objectives)");
  const bool has_result = o.value || o.values;
  if (!constraints.empty() && !has_result) throw InputError("--constraints go with --value (a complete trial)");
  if (sem && !o.value)
    throw InputError(o.values ? "--sem is supported for studies with one objective (--value V --sem S)"
                              : "--sem goes with --value V (the standard error of that value)");
  // --values only on a study with several objectives (a one-objective study takes --value).
  const auto check_values_flag = [&](const Study& study) {
    if (o.values && study.n_objectives() == 1)
      throw InputError("--values is for studies with several objectives; study '" + study.name() +
                       "' has one: use --value V");
  };
  if (!point.empty()) {
    if (o.trial) throw InputError("--point and --trial are mutually exclusive (a new trial, or a pending one)");
    if (!has_result) throw InputError("--point needs --value V (the result of that point)");
    require_persistent_storage(o);
    Study study = Study::open(open_storage(o.storage, StorageAccess::Existing), o.study);
    check_values_flag(study);
    const Vec x = point_from_text(study, point);
    EvaluatedPoint row{x, o.value ? *o.value : o.values->front(), cons, o.values ? *o.values : std::vector<double>(),
                       sem};
    std::cout << warm_start_line(study, study.add_evaluated(std::vector<EvaluatedPoint>{row}).front()).dump() << std::endl;
    return 0;
  }
  if (!o.trial) throw InputError("--trial ID is required (the id `kbo ask` printed), or --point P for a new trial");
  if (!has_result && !o.failed)
    throw InputError("--value V or --failed REASON is required (--values V1,V2,... for several objectives)");
  require_persistent_storage(o);
  Study study = Study::open(open_storage(o.storage, StorageAccess::Existing), o.study);
  check_values_flag(study);
  const Trial t = o.values ? study.tell_values(*o.trial, *o.values, force, cons)
                  : o.value ? study.tell(*o.trial, *o.value, force, cons, sem)
                            : study.fail(*o.trial, *o.failed, force);
  nlohmann::json out = {{"trial", t.id}, {"state", to_string(t.state)}, {"study", study.name()}};
  out["value"] = t.value ? nlohmann::json(*t.value) : nlohmann::json(nullptr);
  if (!t.values.empty()) out["values"] = t.values;
  if (t.sem) out["sem"] = *t.sem;
  if (t.state == TrialState::Failed) out["reason"] = t.reason;
  std::cout << out.dump() << std::endl;
  return 0;
}

}  // namespace
KBO_COMMAND("tell", "record a trial's value (--value) or failure (--failed)", run_tell);
}  // namespace kbo::cli
