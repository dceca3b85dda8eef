// kbo ask: create the next trial of a persistent study and print it as JSON.
#include <cmath>
#include <iostream>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy/registry.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

int run_ask(int argc, char** argv) {
  CLI::App app{"Suggest the next point of a study and record it as a pending trial (phase 'asked'); a queued point "
               "(`kbo enqueue`, or one re-offered after a lost worker) is handed out first, once. Prints "
               "{\"trial\": ID, \"x\": [...]} (one line per trial with --n). The study is created when a space is given "
               "(--problem/--bounds/--config), otherwise it must exist and its stored configuration is used.\n"
               "Asked trials count toward the budget of `kbo optimize`/`kbo worker` once told. Each has a lease "
               "(--ask-timeout): a trial not told when it ends is given up ('ask lease expired') by the next "
               "optimize/worker loop, which re-runs its point. `kbo pending` lists and abandons pending trials."};
  StudyOptionParser parser(app, kWhere | kWhat | kStrategy | kOutput);
  parser.needs_persistent_storage();
  int n = 1;
  double ask_timeout = 86400.0;
  app.add_option("--n", n,
                 "create N pending trials (one JSON object per line); each ask sees the previous ones as pending");
  app.add_option("--ask-timeout", ask_timeout,
                 "seconds within which the trial should be told (its lease; default 86400 = 1 day; 0 = never expires)");
  parse(app, argc, argv);
  if (n < 1) throw InputError("--n must be >= 1");
  if (!(ask_timeout >= 0.0) || !std::isfinite(ask_timeout))
    throw InputError("--ask-timeout must be a finite number of seconds >= 0 (0: the lease never expires)");
  StudyOptions o = parser.resolve();
  require_persistent_storage(o);
  auto storage = open_storage(o.storage);

  StudyRecord wanted;
  if (o.has_space_source()) {
    wanted = make_study_record(o, resolve_space(o, nullptr));
  } else {
    // Existing study: its stored strategy config is the base that flags (and --config) override.
    const Study existing = Study::open(storage, o.study);
    StudyOptions base;
    base.strategy = existing.strategy_config();
    base.minimize = existing.minimize();
    base.directions = existing.record().directions;
    o = parser.resolve(base);
    wanted = make_study_record(o, existing.record().space);
  }
  std::vector<std::string> changed;
  Study study = Study::create_or_open(storage, wanted, &changed);
  say_changed_settings("kbo ask", o.study, changed);
  auto strategy = make_strategy(study.strategy_config(), study.space());
  // Q separate ask transactions: each is committed (so a crash keeps the earlier ones) and each
  // suggestion sees the previous pending points (the strategy treats them as pending/fantasies).
  const std::string me = worker_id("ask");
  for (int q = 0; q < n; ++q) {
    const Trial t = study.ask(*strategy, me, ask_timeout);
    nlohmann::json out = {{"trial", t.id},
                          {"x", std::vector<double>(t.x.data(), t.x.data() + t.x.size())},
                          {"study", study.name()}};
    if (const nlohmann::json named = study.space()->named(t.x); !named.is_null()) out["params"] = named;
    if (t.lease_until > 0.0) out["lease_until"] = t.lease_until;
    std::cout << out.dump() << std::endl;
  }
  return 0;
}

}  // namespace
KBO_COMMAND("ask", "create the next trial of a study, print {trial, x} as JSON", run_ask);
}  // namespace kbo::cli
