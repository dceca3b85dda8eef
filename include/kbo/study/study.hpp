#pragma once
// Studies: a named, persistent sequence of trials (ask/tell) over one search space, with one
// optimisation direction, one strategy configuration and (optionally) a budget. Storage (memory,
// SQLite, PostgreSQL) is behind kbo::Storage; every state change of a trial is one transaction there.
// Many workers (threads, processes, machines) can share one study: see Study::work.
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/strategy/strategy.hpp"
#include "kbo/study/trial.hpp"

namespace kbo {

// ---- (de)serialisation shared by every storage backend and the CLI ----
/// Rebuilds the space of a stored study by its type's registered space kind (InputError naming the
/// registered types otherwise).
std::shared_ptr<const Space> space_from_json(const nlohmann::json& j);
/// One-line human description of a stored space, e.g. "box [0, 1] x [-5, 5]".
std::string describe_space_json(const nlohmann::json& j);

class Storage;

/// What a study recommends, and beside it the best observed trial. A noisy study (below) recommends, among its
/// complete feasible trials, the one of the best posterior mean of the strategy's fitted model: a lucky draw
/// is not the best guess. A deterministic one recommends its best observed trial: its observations are the
/// objective's values (a model's posterior mean at them differs only by the noise floor of its fit). Without a
/// fitted model (random search, the initial design) the best observed trial, with no posterior.
struct Recommendation {
  std::optional<Trial> recommended, best_observed;
  std::optional<double> mean, sd;  // the recommended trial's posterior of the objective, in the user's units
  /// The objective is noisy: a trial reports a standard error > 0, two evaluations of the same point differ, or
  /// the strategy's model judges so (Strategy::Posterior::noisy). Then best_trial / best_x / best_params /
  /// best_value of to_json are the recommendation's.
  bool noisy = false;
  bool by_posterior_mean = false;  // the recommendation ranks trials by the posterior mean
};

/// Result of evaluating one trial: a finite value, or a failure reason. Two outcomes say nothing about the
/// point, so the trial is handed back to the study (not counted, re-run by the next run) and the loop stops:
/// the objective could not be run at all (`cannot_run`, e.g. command not found), or a stop was requested
/// while it ran (`interrupted`).
struct Evaluation {
  std::optional<double> value;
  std::string reason;
  bool cannot_run = false;
  bool interrupted = false;
  std::vector<double> constraints;  // outcome constraints (feasible iff every c_i <= 0); empty: none
  std::vector<double> values;       // several objectives: every value (values[0] == *value); empty: one
  std::optional<double> sem;        // the standard error of value (a noisy objective's known noise); nullopt: none
  static Evaluation ok(double v) { return {v, {}, false, false, {}, {}, std::nullopt}; }
  /// A value with its standard error of the mean.
  static Evaluation ok(double v, double sem) { return {v, {}, false, false, {}, {}, sem}; }
  /// Several objectives (values non-empty; the first is `value`).
  static Evaluation ok(std::vector<double> vs) { return {vs.front(), {}, false, false, {}, vs, std::nullopt}; }
  static Evaluation failed(std::string why) { return {std::nullopt, std::move(why), false, false, {}, {}, std::nullopt}; }
  static Evaluation not_runnable(std::string why) { return {std::nullopt, std::move(why), true, false, {}, {}, std::nullopt}; }
  static Evaluation stopped() { return {std::nullopt, "interrupted", false, true, {}, {}, std::nullopt}; }
};

/// Thrown by Study::work when the objective cannot be run (Evaluation::cannot_run; the trial is handed back,
/// uncounted) or failed `max_same_failures` times in a row with the same reason. what() names the reason.
class ObjectiveFailing : public std::runtime_error {
 public:
  ObjectiveFailing(const std::string& what, bool repeated) : std::runtime_error(what), repeated_(repeated) {}
  /// True for max_same_failures identical failures (recorded, counted); false for cannot_run (handed back).
  bool repeated() const { return repeated_; }

 private:
  bool repeated_;
};
using TrialObjective = std::function<Evaluation(const Trial& trial)>;

/// Called after each finished trial (already committed): the trial, #finished, #requested, best so far.
using ProgressFn = std::function<void(const Trial& trial, int finished, int total, const std::optional<Trial>& best)>;

/// How Study::work coordinates with other workers on the same study.
struct WorkOptions {
  /// Stop when this many trials (counts_toward_budget) are finished; nullopt ⇒ the study's stored budget.
  std::optional<int> budget;
  /// Stop after evaluating this many trials in this call (0 = no limit). With neither a budget nor
  /// max_trials, work() throws InputError (it would never stop).
  int max_trials = 0;
  /// A running trial whose heartbeat (or, before its first heartbeat, whose creation) is older than this many
  /// seconds is failed with kWorkerLost and its
  /// point re-offered as a new trial (0 = never; trials of dead processes on this host are reaped anyway).
  double stale_after = 0.0;
  /// Seconds between heartbeats of the running trial (0 ⇒ stale_after / 4, at most 10 s; 1 s if no
  /// stale_after). Heartbeats run on a background thread with their own storage connection.
  double heartbeat_interval = 0.0;
  /// Seconds between polls while the budget is taken by other workers' pending trials.
  double poll_interval = 0.2;
  /// Stop (ObjectiveFailing) after this many consecutive failures of this worker with the same reason
  /// (0 = never). The failed trials stay failed and count toward the budget.
  int max_same_failures = 0;
};

/// The settings that differ between a stored strategy config and a new one, one "key old -> new" entry
/// each (keys as in the config JSON; nested objects by their path, e.g. "module_options.bo.prior_mean").
std::vector<std::string> config_changes(const nlohmann::json& stored, const nlohmann::json& wanted);

class Study {
 public:
  /// Opens the study `wanted.name` or creates it. An existing study with a different space or
  /// direction ⇒ InputError naming both. The stored strategy config is replaced by wanted.config.
  /// A wanted.budget replaces the stored one; nullopt keeps it.
  /// `changed` (if given) receives one entry per stored setting that wanted.config replaced, e.g.
  /// "kernel rbf -> matern52", so that callers can say so (the CLI and Python do).
  static Study create_or_open(std::shared_ptr<Storage> storage, const StudyRecord& wanted,
                              std::vector<std::string>* changed = nullptr);
  /// Opens an existing study; InputError listing the existing study names otherwise.
  static Study open(std::shared_ptr<Storage> storage, const std::string& name);

  const StudyRecord& record() const { return record_; }
  const std::string& name() const { return record_.name; }
  bool minimize() const { return record_.minimize; }
  /// "minimize" | "maximize" per objective (one entry for a one-objective study).
  std::vector<std::string> directions() const;
  int n_objectives() const { return record_.n_objectives(); }
  /// The reference point of the hypervolume in the user's terms (options.moo.ref_point), if given.
  std::optional<Vec> reference_point() const;
  std::shared_ptr<const Space> space() const { return space_; }
  StrategyConfig strategy_config() const { return strategy_config_from_json(record_.config); }
  Storage& storage() const { return *storage_; }

  /// Hands out the lowest queued trial (PendingPhase::Queued: enqueued warm starts, re-offered points), if
  /// any, as an asked trial of `worker`; otherwise creates a pending trial at the strategy's suggestion. The suggestion is computed from a snapshot of
  /// the trials, outside any write lock; a short write transaction then inserts it, unless a trial asked
  /// meanwhile lies within 1 % of the box of it (then it is recomputed from a new snapshot, which sees that
  /// trial as pending). So concurrent askers never share a trial, and a slow ask never blocks tells or
  /// heartbeats. With lease_seconds > 0 the trial is given up (kLeaseExpired, its
  /// point re-offered) by the first worker loop that runs after the lease ends without a tell.
  Trial ask(Strategy& strategy, const std::string& worker, double lease_seconds = 0.0);
  /// Completes a pending trial with a finite value (in the study's direction); InputError otherwise, and
  /// for a trial running under a worker (PendingPhase::Running) unless `force`.
  /// `constraints`: outcome constraints (feasible iff all <= 0); every complete trial of a study has the same
  /// number of them (InputError naming both counts otherwise, nothing stored).
  /// `sem`: the standard error of the value (a noisy objective's known noise; finite, >= 0; one objective only).
  Trial tell(int trial_id, double value, bool force = false, const std::vector<double>& constraints = {},
             std::optional<double> sem = std::nullopt);
  /// Completes a pending trial of a study with several objectives with one value per objective (in the
  /// study's directions); InputError naming both counts otherwise (nothing stored), and as tell.
  Trial tell_values(int trial_id, const std::vector<double>& values, bool force = false,
                    const std::vector<double>& constraints = {});
  /// InputError unless `values` has one finite entry per objective of a study with several ("what" names
  /// the trial or point in the message).
  void check_values(const std::vector<double>& values, const std::string& what) const;
  /// InputError unless `sem` is absent or a finite number >= 0 on a study with one objective ("what" names the
  /// trial or point in the message).
  void check_sem(std::optional<double> sem, const std::string& what) const;
  /// Marks a pending trial failed with a reason (same rules as tell).
  Trial fail(int trial_id, const std::string& reason, bool force = false);
  /// Gives up a pending trial by hand (failed kAbandoned: not counted, its point not re-offered); same rules
  /// as tell.
  Trial abandon(int trial_id, bool force = false);

  // ---- warm starts ----
  /// A point given by the user: {name: value} on a params space, [numbers] on any space (it must be in the
  /// space's box and canonical, e.g. a set in its canonical order after canonicalize). InputError naming
  /// the bad parameter or coordinate.
  Vec point_from_json(const nlohmann::json& point) const;
  /// Queues x to be evaluated next: a pending trial without owner (PendingPhase::Queued), which the next
  /// ask (`kbo ask`, Python Study.ask) or `kbo optimize` / `kbo worker` / Study::optimize loop claims
  /// before asking the strategy — exactly once.
  Trial enqueue(const Vec& x);
  /// Adds a point evaluated elsewhere: a new trial at x, completed with value (and constraints).
  Trial add_evaluated(const Vec& x, double value, const std::vector<double>& constraints = {},
                      std::optional<double> sem = std::nullopt);
  /// Adds many such points in one transaction (all or none); reads no other trial, so it costs O(rows).
  std::vector<Trial> add_evaluated(const std::vector<EvaluatedPoint>& rows);

  /// Stores the study's budget (finished trials in all), as `kbo optimize` does, so that `kbo worker`
  /// processes on the study know when to stop. InputError if budget < 0.
  void set_budget(int budget);

  std::vector<Trial> trials() const;
  /// Best complete FEASIBLE trial in the study's direction (lowest id among ties; is_feasible).
  std::optional<Trial> best() const;
  static std::optional<Trial> best_of(const std::vector<Trial>& trials, bool minimize);

  /// The `kbo optimize --json` / `kbo show --json` object: study, direction, space, budget, best_value,
  /// best_x, best_trial, n_trials, n_complete, n_failed, n_pending,
  /// trials [{id, x, value, (sem), state, (reason), (phase: running|asked|queued, pending trials), worker,
  /// created_at, (finished_at), (heartbeat_at), (lease_until), (retry_of)}].
  nlohmann::json to_json() const;
  /// The same object of `trials` (this study's, loaded once by the caller) with only the trials at the indices
  /// `listed` in "trials"; the counts and the best are of all of them (views of large studies list a sample).
  nlohmann::json to_json(const std::vector<Trial>& trials, const std::vector<std::size_t>& listed) const;

  /// The recommendation from `trials` (this study's) under `strategy`'s model, restored from the study's stored
  /// model state (no refit); nullptr: no model, the best observed trial. Several objectives: none.
  Recommendation recommend(const std::vector<Trial>& trials, Strategy* strategy) const;
  /// Adds `recommended` {trial, x, (params), value, mean, sd, by} and `best_observed` {trial, x, (params), value}
  /// to a to_json object (null without a complete feasible trial); a noisy study's best_trial, best_x,
  /// best_params and best_value become the recommended trial's.
  void add_recommendation(nlohmann::json& out, const std::vector<Trial>& trials, Strategy* strategy) const;

  /// Runs ask → evaluate → tell until `n_total` trials are finished (complete or failed). First
  /// re-evaluates pending trials abandoned by dead optimize processes on this host (kill -9), so a
  /// re-run of the same command resumes the study. Each result is committed before `progress` runs.
  void optimize(Strategy& strategy, const TrialObjective& objective, int n_total, const std::string& worker,
                const ProgressFn& progress = {});

  /// One worker's loop (what `kbo worker` and `kbo optimize` run), until the budget is met:
  ///  1. reap: running trials of lost workers (heartbeat, or creation if none yet, older than stale_after, or a `worker@THIS_HOST:PID`
  ///     whose process is gone) become failed kWorkerLost, each with a new pending, unowned trial at
  ///     the same point (retry_of = its id) — all in one transaction;
  ///  2. claim the lowest unowned pending trial, or a trial left pending by a dead `optimize@THIS_HOST`
  ///     process (kill -9 resume: same id, same point);
  ///  3. else ask a new trial (as ask(): computed outside the lock), reserved only while fewer than
  ///     `budget` trials count (finished, running or queued; trials handed out by `kbo ask` count once told),
  ///     re-checked inside the reserving transaction, so N workers never overshoot the budget;
  ///  4. else, if running or queued trials remain (others' work that may still be lost), poll;
  ///     otherwise stop.
  /// The running trial heart-beats from a background thread until its result is stored. A result whose trial was meanwhile given
  /// up as lost is dropped (a warning on stderr). Returns the ids this call evaluated.
  /// A stop request (interrupt.hpp) or an Evaluation that cannot_run hands the running trial back
  /// (Storage::release) and throws Interrupted / ObjectiveFailing; so does the max_same_failures-th
  /// identical failure in a row (after recording it).
  std::vector<int> work(Strategy& strategy, const TrialObjective& objective, const std::string& worker,
                        const WorkOptions& options, const ProgressFn& progress = {});

  /// Strategy inputs from trials: completed points X and values y to MAXIMISE (negated when the
  /// study minimises), the pending points (fantasies, never repeated) and the failed points (never
  /// suggested again, not modelled). Trials failed because their worker was lost are neither: their point
  /// is re-offered as a new pending trial.
  static void strategy_data(const std::vector<Trial>& trials, bool minimize, Mat& X, Vec& y, Mat& pending,
                            Mat& failed, int dim);
  /// The constraint values of the completed trials, rows in the order of strategy_data's X (n x m; m = 0
  /// for a study without constraints).
  static Mat constraint_data(const std::vector<Trial>& trials);
  /// The standard errors of the completed trials, in the order of strategy_data's y (0 where none was
  /// reported); empty when no completed trial reports one.
  static Vec sem_data(const std::vector<Trial>& trials);
  /// Every objective of the completed trials (rows as strategy_data's X), negated where minimised, so all are
  /// maximised (n x k for a study with k >= 2 objectives).
  static Mat objective_data(const std::vector<Trial>& trials, const std::vector<std::string>& directions);
  /// The `pareto_front` / `hypervolume` members of to_json for a study with several objectives: the
  /// non-dominated complete feasible trials and the hypervolume they dominate with the reference point used
  /// (given, or inferred from the front as BoTorch does), in the user's terms.
  nlohmann::json pareto_json(const std::vector<Trial>& trials) const;

 private:
  Study(std::shared_ptr<Storage> storage, StudyRecord record);
  /// ask()'s snapshot → suggest → reserve loop; throws BudgetTaken (study.cpp) when `budget_taken(trials)`
  /// holds for the snapshot or inside the reserving transaction.
  Trial suggest_and_reserve(Strategy& strategy, const std::string& worker,
                            const std::function<bool(const std::vector<Trial>&)>& budget_taken);
  // Stores the model diagnostics of the suggestion just asked (the kernel the model chose) as t.info.
  void record_trial_info(const Strategy& strategy, Trial& t);
  std::shared_ptr<Storage> storage_;
  StudyRecord record_;
  std::shared_ptr<const Space> space_;
  nlohmann::json model_state_saved_;  // the strategy's model state this object last stored
};

// ---- worker identities (for resuming after a crash) ----
/// "<role>@<hostname>:<pid>".
std::string worker_id(const std::string& role);
/// True when `worker` names a process of `role` on this host that is no longer running.
bool is_dead_local_worker(const std::string& worker, const std::string& role);

}  // namespace kbo
