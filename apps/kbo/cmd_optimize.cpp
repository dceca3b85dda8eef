// kbo optimize: run (or resume) a BO study on a built-in problem or an external command.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "command.hpp"
#include "kbo/study/objective.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/worker_processes.hpp"
#include "kbo/strategy/registry.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

int run_optimize(int argc, char** argv) {
  CLI::App app{"Run a Bayesian-optimisation study until --init + --iters trials have finished. Re-running the "
               "same command on the same --storage/--study resumes it."};
  StudyOptionParser parser(app, kWhere | kWhat | kRun | kOutput | kStrategy | kWorkers);
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  const int workers = o.workers;
  const double stale_after = o.stale_after;
  if (workers > 1 && o.storage == "memory")
    throw InputError("--workers N > 1 needs a shared study: --storage sqlite:PATH or postgresql://… (memory is per process)");

  std::optional<Problem> problem;
  const nlohmann::json space = resolve_space(o, &problem);
  if (!problem && o.objective.empty()) throw InputError("--bounds alone has nothing to optimise: add --objective CMD");
  TrialObjective objective;
  if (problem) {
    objective = [f = problem->f](const Trial& t) { return Evaluation::ok(f(t.x)); };
  } else {
    objective = ExternalObjective(o.objective, o.eval_timeout);
  }

  const int total = o.strategy.n_init + o.iters;
  StudyRecord wanted = make_study_record(o, space);
  wanted.budget = total;  // stored, so that `kbo worker` processes on this study know when to stop
  std::vector<std::string> changed;
  Study study = Study::create_or_open(open_storage(o.storage), wanted, &changed);
  say_changed_settings("kbo optimize", o.study, changed);
  say_if_budget_met(study, o.strategy.n_init, o.iters);
  auto strategy = make_strategy(study.strategy_config(), study.space());

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
  if (workers == 1) {
    study.optimize(*strategy, objective, total, worker_id("optimize"), progress);
  } else {
    std::vector<std::string> args = {"worker", "--quiet", "--storage", o.storage, "--study", o.study, "--stale-after",
                                     std::to_string(stale_after), "--eval-timeout", std::to_string(o.eval_timeout)};
    if (problem) {
      args.insert(args.end(), {"--problem", o.problem});
      if (o.dim > 0) args.insert(args.end(), {"--dim", std::to_string(o.dim)});
    } else {
      args.insert(args.end(), {"--", o.objective});
    }
    std::vector<pid_t> pids;
    for (int i = 0; i < workers; ++i) pids.push_back(spawn_self(args));
    int failures = 0;
    std::string codes;
    for (std::size_t left = pids.size(); left > 0;) {
      int code = 0;
      const pid_t pid = wait_any(code);  // whichever exits first: a killed worker must not stay a zombie
      if (pid < 0) break;
      if (std::find(pids.begin(), pids.end(), pid) == pids.end()) continue;
      --left;
      if (code != 0) {
        ++failures;
        codes += (codes.empty() ? "" : ", ") + std::to_string(code);
      }
    }
    if (failures > 0) {
      // A killed worker loses only its running trial, which the others re-run: the run failed only if
      // the study is not finished.
      int finished = 0;
      for (const auto& t : study.trials()) finished += t.state != TrialState::Pending && counts_toward_budget(t);
      const std::string what = std::to_string(failures) + " of " + std::to_string(workers) +
                               " worker processes failed (exit codes " + codes + ")";
      if (finished < total)
        throw std::runtime_error(what + "; " + std::to_string(finished) + " of " + std::to_string(total) +
                                 " trials finished: re-run the command to resume");
      std::fprintf(stderr, "kbo optimize: %s; the others finished the study\n", what.c_str());
    }
  }
  if (progress_line) std::fprintf(stderr, "\n");

  nlohmann::json out = study.to_json();
  out["strategy"] = strategy->name();
  out["requested_trials"] = total;
  if (workers > 1) out["workers"] = workers;
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
