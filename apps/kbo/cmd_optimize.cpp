// kbo optimize: run (or resume) a BO study on a built-in problem or an external command.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "command.hpp"
#include "kbo/objective.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/strategy_factory.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

int run_optimize(int argc, char** argv) {
  CLI::App app{"Run a Bayesian-optimisation study until --init + --iters trials have finished. Re-running the "
               "same command on the same --storage/--study resumes it."};
  StudyOptionParser parser(app, kWhere | kWhat | kRun | kOutput | kStrategy);
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();

  std::optional<Problem> problem;
  const nlohmann::json space = resolve_space(o, &problem);
  if (!problem && o.objective.empty()) throw InputError("--bounds alone has nothing to optimise: add --objective CMD");
  TrialObjective objective;
  if (problem) {
    objective = [f = problem->f](const Trial& t) { return Evaluation::ok(f(t.x)); };
  } else {
    objective = ExternalObjective(o.objective, o.eval_timeout);
  }

  Study study = Study::create_or_open(open_storage(o.storage), make_study_record(o, space));
  auto strategy = make_strategy(study.strategy_config(), study.space());
  const int total = o.strategy.n_init + o.iters;

  // Progress on a terminal only (stderr), so that pipes and --json get clean output.
  const bool progress_line = !o.json && isatty(STDERR_FILENO);
  ProgressFn progress;
  if (progress_line) {
    progress = [&](const Trial& t, int finished, int n, const std::optional<Trial>& best) {
      std::fprintf(stderr, "\r[%d/%d] trial %d %s", finished, n, t.id, to_string(t.state).c_str());
      if (best) std::fprintf(stderr, "  best %.6g (trial %d)", *best->value, best->id);
      std::fprintf(stderr, "\033[K");
      std::fflush(stderr);
    };
  }
  study.optimize(*strategy, objective, total, worker_id("optimize"), progress);
  if (progress_line) std::fprintf(stderr, "\n");

  nlohmann::json out = study.to_json();
  out["strategy"] = strategy->name();
  out["requested_trials"] = total;
  if (o.json) {
    std::cout << out.dump() << std::endl;
  } else {
    print_study_table(std::cout, out);
  }
  return 0;
}

}  // namespace
KBO_COMMAND("optimize", "run or resume a BO study (built-in problem or external command)", run_optimize);
}  // namespace kbo::cli
