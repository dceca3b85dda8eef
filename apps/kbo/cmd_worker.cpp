// kbo worker: evaluate trials of a shared study (ask → run → tell) until its budget is met.
#include <cstdio>
#include <iostream>

#include "command.hpp"
#include "kbo/study/interrupt.hpp"
#include "kbo/study/objective.hpp"
#include "kbo/optimize/problems.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/study/study.hpp"
#include "kbo/study/worker_processes.hpp"
#include "kbo/strategy/registry.hpp"

namespace kbo::cli {
namespace {

int run_worker(int argc, char** argv) {
  CLI::App app{
      "Evaluate trials of an existing study until its budget (stored by `kbo optimize`: --init + --iters) is met: "
      "take a re-offered or abandoned trial, else ask a new one, run the objective (same protocol as "
      "`kbo optimize --objective`), tell the result; repeat. Start any number of workers, on any machines "
      "that reach the storage. The running trial heart-beats; a trial whose worker stopped heart-beating "
      "for --stale-after seconds (counted from its ask if it never beat, or whose process died on this host) is "
      "failed as 'worker lost' and its "
      "point re-offered as a new trial. A study without a stored budget needs --max-trials.\n"
      "Ctrl-C/SIGTERM/SIGHUP kill the running objective's process group and hand its trial back to the study "
      "(another worker or the next run takes it); exit status 128 + signal. Exit status 1: the objective cannot "
      "run (126/127) or failed --fail-fast times in a row with the same reason."};
  std::string storage, study, problem;
  int dim = 0, max_trials = 0, fail_fast = 3;
  double stale_after = 60.0, heartbeat = 0.0, eval_timeout = 0.0, poll = 0.2;
  bool json = false, quiet = false;
  std::vector<std::string> command;
  app.add_option("--storage", storage, "the study's storage: " + storage_url_forms() + ", or a file path such as study.db")
      ->required();
  app.add_option("--study", study, "name of an existing study")->required();
  app.add_option("--max-trials", max_trials, "evaluate at most N trials in this worker (0 = until the budget is met)");
  app.add_option("--stale-after", stale_after,
                 "seconds without heartbeat after which a running trial is given up as lost (default 60; 0 = never)");
  app.add_option("--heartbeat", heartbeat, "seconds between heartbeats (default min(10, stale-after / 4))");
  app.add_option("--poll", poll, "seconds between checks while other workers hold the rest of the budget (default 0.2)");
  app.add_option("--eval-timeout", eval_timeout, "seconds before an evaluation is killed and failed (0 = none)");
  app.add_option("--fail-fast", fail_fast,
                 "stop after K failures in a row with the same reason (default 3; 0 = never); exit status 126/127 "
                 "(command not found / not executable) stops at once");
  app.add_option("--problem", problem, "evaluate a built-in problem instead of a command (testing, benchmarks)");
  app.add_option("--dim", dim, "dimension of --problem (default: the problem's)");
  app.add_flag("--quiet", quiet, "print nothing at the end");
  app.add_flag("--json", json, "print a JSON summary {worker, study, evaluated, trials} at the end");
  app.add_option("command", command, "-- CMD ARGS…: the objective; one word is run as a shell command, several are quoted");
  parse(app, argc, argv);
  if (problem.empty() == command.empty())
    throw InputError("give exactly one objective: -- CMD ARGS… or --problem NAME");
  if (storage == "memory")
    throw InputError("--storage memory cannot be shared: give sqlite:PATH (or a file path such as study.db) or postgresql://… (memory ends with the process)");
  if (poll <= 0.0) throw InputError("--poll must be > 0 seconds");
  if (fail_fast < 0) throw InputError("--fail-fast must be >= 0 (0: never stop early)");

  Study s = Study::open(open_storage(storage, StorageAccess::Existing), study);
  TrialObjective objective;
  if (!problem.empty()) {
    const Problem p = make_problem(problem, dim);
    if (p.bounds.dim() != s.space()->dim())
      throw InputError("--problem " + problem + " has dimension " + std::to_string(p.bounds.dim()) + " but study '" +
                       study + "' has dimension " + std::to_string(s.space()->dim()));
    objective = [f = p.f](const Trial& t) { return Evaluation::ok(f(t.x)); };
  } else {
    objective = ExternalObjective(command_from_words(command), eval_timeout, s.space());
  }
  auto strategy = make_strategy(s.strategy_config(), s.space());
  WorkOptions options;
  options.max_trials = max_trials;
  options.stale_after = stale_after;
  options.heartbeat_interval = heartbeat;
  options.poll_interval = poll;
  options.max_same_failures = fail_fast;
  const std::string me = worker_id("worker");
  install_stop_signals();
  std::vector<int> ids;
  try {
    ids = s.work(*strategy, objective, me, options);
  } catch (const Interrupted& e) {
    if (!quiet) {
      try {
        int done = 0;
        for (const auto& t : s.trials()) done += t.state != TrialState::Pending && counts_toward_budget(t);
        const std::string of = s.record().budget ? " of " + std::to_string(*s.record().budget) : std::string();
        std::fprintf(stderr, "interrupted: %d%s trials done; re-run the same command to resume\n", done, of.c_str());
      } catch (const std::exception&) {  // stopped during a storage outage: the count cannot be read
        std::fprintf(stderr, "interrupted while the storage was unreachable; re-run the same command to resume\n");
      }
    }
    return 128 + e.signal();
  } catch (const ObjectiveFailing& e) {
    if (!e.repeated()) throw;
    throw std::runtime_error(std::string(e.what()) + " (--fail-fast 0 never stops early)");
  }
  if (quiet) {
  } else if (json) {
    std::cout << nlohmann::json{{"worker", me}, {"study", study}, {"evaluated", ids.size()}, {"trials", ids}}.dump()
              << std::endl;
  } else {
    std::cout << me << ": evaluated " << ids.size() << " trial(s) of study '" << study << "'" << std::endl;
  }
  return 0;
}

}  // namespace
KBO_COMMAND("worker", "evaluate trials of a shared study until its budget is met (-- CMD ARGS…)", run_worker);
}  // namespace kbo::cli
