// kbo optimize: run (or resume) a BO study on a built-in problem or an external command.
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "progress.hpp"
#include "kbo/study/interrupt.hpp"
#include "kbo/study/objective.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/worker_processes.hpp"
#include "kbo/strategy/registry.hpp"
#include "study_options.hpp"
#include "study_output.hpp"

namespace kbo::cli {
namespace {

/// Trials finished (complete or failed) that count toward the budget, and those complete.
std::pair<int, int> finished_and_complete(const std::vector<Trial>& ts) {
  int finished = 0, complete = 0;
  for (const auto& t : ts) {
    finished += t.state != TrialState::Pending && counts_toward_budget(t);
    complete += t.state == TrialState::Complete;
  }
  return {finished, complete};
}

/// Runs N `kbo worker` processes on the study until all have exited, showing progress meanwhile. A stop
/// signal reaches them too (forward_stop_to); returns normally, the caller checks stop_requested().
void run_worker_processes(Study& study, const StudyOptions& o, const std::optional<Problem>& problem, int total,
                          int fail_fast, RunProgress* progress) {
  std::vector<std::string> args = {"worker", "--quiet", "--storage", o.storage, "--study", o.study,
                                   "--stale-after", std::to_string(o.stale_after), "--eval-timeout",
                                   std::to_string(o.eval_timeout), "--fail-fast", std::to_string(fail_fast)};
  if (problem) {
    args.insert(args.end(), {"--problem", o.problem});
    if (o.dim > 0) args.insert(args.end(), {"--dim", std::to_string(o.dim)});
  } else {
    args.insert(args.end(), {"--", o.objective});
  }
  std::vector<pid_t> pids;
  for (int i = 0; i < o.workers; ++i) {
    pids.push_back(spawn_self(args));
    forward_stop_to(pids.back());
  }
  int failures = 0;
  std::string codes;
  for (std::size_t left = pids.size(), polls = 0; left > 0; ++polls) {
    int code = 0;
    const pid_t pid = try_wait_any(code);  // reap at once: a zombie would hide a killed worker's lost trial
    if (pid < 0) break;
    if (pid > 0) {
      if (std::find(pids.begin(), pids.end(), pid) == pids.end()) continue;
      --left;
      if (code != 0) {
        ++failures;
        codes += (codes.empty() ? "" : ", ") + std::to_string(code);
      }
      continue;
    }
    if (progress && polls % 10 == 0) {
      try {
        progress->observe(study.trials());
      } catch (const std::exception&) {
        // A busy or briefly unreachable database only delays the progress line.
      }
    }
    usleep(100000);
  }
  if (failures == 0 || stop_requested()) return;
  // A killed worker loses only its running trial, which the others re-run: the run failed only if the
  // study is not finished.
  const int finished = finished_and_complete(study.trials()).first;
  const std::string what = std::to_string(failures) + " of " + std::to_string(o.workers) +
                           " worker processes failed (exit codes " + codes + ")";
  if (finished < total)
    throw std::runtime_error(what + "; " + std::to_string(finished) + " of " + std::to_string(total) +
                             " trials finished: re-run the command to resume");
  if (progress) progress->clear();
  std::fprintf(stderr, "kbo optimize: %s; the others finished the study\n", what.c_str());
}

int run_optimize(int argc, char** argv) {
  CLI::App app{
      "Run a Bayesian-optimisation study until --init + --iters trials have finished. Re-running the same "
      "command on the same --storage/--study resumes it; a larger --iters extends it.\n"
      "The budget counts finished trials, complete or failed. Trials that were not evaluated do not count and "
      "are re-run: the one running at Ctrl-C/SIGTERM/SIGHUP, one handed back because the command cannot run "
      "(exit status 126/127), one lost with its worker.\n"
      "Exit status: 0 done; 1 the run completed no trial, the objective cannot run, or it failed --fail-fast "
      "times in a row with the same reason (fix it and re-run: the study continues); 2 bad input; 128 + signal "
      "when interrupted (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; re-run to resume)."};
  StudyOptionParser parser(app, kWhere | kWhat | kRun | kOutput | kStrategy | kWorkers);
  int fail_fast = 3;
  app.add_option("--fail-fast", fail_fast,
                 "stop after K failures in a row with the same reason (default 3; 0 = never); exit status 126/127 "
                 "(command not found / not executable) stops at once");
  parse(app, argc, argv);
  if (fail_fast < 0) throw InputError("--fail-fast must be >= 0 (0: never stop early)");
  const StudyOptions o = parser.resolve();
  if (o.workers > 1 && o.storage == "memory")
    throw InputError("--workers N > 1 needs a shared study: --storage sqlite:PATH or postgresql://… (memory is per process)");

  std::optional<Problem> problem;
  const nlohmann::json space = resolve_space(o, &problem);
  if (!problem && o.objective.empty()) throw InputError("--bounds alone has nothing to optimise: add --objective CMD");
  TrialObjective objective;
  if (problem) {
    objective = [f = problem->f](const Trial& t) { return Evaluation::ok(f(t.x)); };
  } else {
    objective = ExternalObjective(o.objective, o.eval_timeout, space_from_json(space));
  }

  const int total = o.strategy.n_init + o.iters;
  StudyRecord wanted = make_study_record(o, space);
  wanted.budget = total;  // stored, so that `kbo worker` processes on this study know when to stop
  std::vector<std::string> changed;
  Study study = Study::create_or_open(open_storage(o.storage), wanted, &changed);
  say_changed_settings("kbo optimize", o.study, changed);
  say_if_budget_met(study, o.strategy.n_init, o.iters);
  auto strategy = make_strategy(study.strategy_config(), study.space());
  install_stop_signals();
  const auto [finished_before, complete_before] = finished_and_complete(study.trials());

  // Progress on stderr (stdout carries only the result): live on a terminal, a line per trial otherwise
  // (not with --json, whose callers read machines' output).
  const bool terminal = isatty(STDERR_FILENO) != 0;
  std::unique_ptr<RunProgress> progress;
  if (terminal || !o.json) progress = std::make_unique<RunProgress>(terminal, total, finished_before, o.minimize);

  const std::string memory_note = o.storage == "memory" ? " (memory storage keeps nothing: use --storage sqlite:PATH to resume)" : "";
  try {
    if (o.workers == 1) {
      WorkOptions options;
      options.budget = total;
      options.max_same_failures = fail_fast;
      options.stale_after = o.stale_after;  // a trial left running by a lost worker is re-offered, as with --workers
      TrialObjective run = objective;
      ProgressFn on_finished;
      if (progress) {
        run = [&](const Trial& t) {
          progress->started(t.id);
          return objective(t);
        };
        on_finished = [&](const Trial& t, int finished, int, const std::optional<Trial>& best) {
          progress->finished(t, finished, best);
        };
      }
      study.work(*strategy, run, worker_id("optimize"), options, on_finished);
    } else {
      run_worker_processes(study, o, problem, total, fail_fast, progress.get());
      if (const int sig = stop_requested()) throw Interrupted(sig);
    }
  } catch (const Interrupted& e) {
    progress.reset();
    try {
      const int done = finished_and_complete(study.trials()).first;
      std::fprintf(stderr, "interrupted: %d of %d trials done; re-run the same command to resume%s\n", done, total,
                   memory_note.c_str());
    } catch (const std::exception&) {  // stopped during a storage outage: the count cannot be read
      std::fprintf(stderr, "interrupted while the storage was unreachable; re-run the same command to resume\n");
    }
    return 128 + e.signal();
  } catch (const ObjectiveFailing& e) {
    progress.reset();
    if (!e.repeated()) throw;
    throw std::runtime_error(std::string(e.what()) + " (raise --iters for more trials; --fail-fast 0 never stops early)");
  }
  progress.reset();

  const std::vector<Trial> trials = study.trials();
  nlohmann::json out = study.to_json(trials, all_indices(trials.size()));
  // The recommendation under the stored model state, by a strategy of its own, as `kbo show` computes it: the
  // two print the same object.
  const std::unique_ptr<Strategy> model =
      study.n_objectives() == 1 ? make_strategy(study.strategy_config(), study.space()) : nullptr;
  study.add_recommendation(out, trials, model.get());
  out["strategy"] = strategy->name();
  out["requested_trials"] = total;
  if (o.workers > 1) out["workers"] = o.workers;
  if (o.json) {
    std::cout << out.dump() << std::endl;
  } else {
    const std::string show_all = o.storage == "memory"
                                     ? std::string("add --json (memory storage keeps nothing)")
                                     : "kbo show --storage " + o.storage + " --study " + o.study;
    print_run_summary(std::cout, out, 5, show_all);
  }
  const auto [finished_after, complete_after] = finished_and_complete(study.trials());
  if (finished_after > finished_before && complete_after == complete_before) {
    std::string last;
    for (const auto& t : out["trials"])
      if (t["state"] == "failed") last = t["reason"].get<std::string>();
    std::fprintf(stderr,
                 "kbo optimize: no trial completed: all %d trial(s) of this run failed (last: %s); fix the objective "
                 "and re-run to continue\n",
                 finished_after - finished_before, last.c_str());
    return 1;
  }
  return 0;
}

}  // namespace
KBO_COMMAND("optimize", "run or resume a BO study (built-in problem or external command)", run_optimize);
}  // namespace kbo::cli
