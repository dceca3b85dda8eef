#pragma once
// Studies: a named, persistent sequence of trials (ask/tell) over one search space, with one
// optimisation direction and one strategy configuration. Storage (memory, SQLite; PostgreSQL later)
// is behind kbo::Storage; every state change of a trial is one transaction there.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/strategy.hpp"

namespace kbo {

enum class TrialState { Pending, Complete, Failed };
std::string to_string(TrialState s);           // "pending" | "complete" | "failed"
TrialState parse_trial_state(const std::string& s);

struct Trial {
  int id = -1;                  // 0, 1, 2, … within the study (also the strategy's trial_index)
  Vec x;                        // point in the space's original coordinates
  std::optional<double> value;  // objective value as reported (complete trials only)
  TrialState state = TrialState::Pending;
  std::string reason;           // why a trial failed
  std::string worker;           // who asked for it, e.g. "optimize@host:1234"
  double created_at = 0.0;      // Unix time, seconds
  double finished_at = 0.0;     // 0 while pending
};

/// What a study is: its identity (name), the meaning of its points (space) and values (direction),
/// and the strategy configuration that `kbo ask` uses to suggest points.
struct StudyRecord {
  std::string name;
  bool minimize = true;
  nlohmann::json space;   // {"type":"box","lower":[...],"upper":[...]} (sets add set_size, element_dim)
  nlohmann::json config;  // to_json(StrategyConfig)
  double created_at = 0.0;
};

// ---- (de)serialisation shared by every storage backend and the CLI ----
nlohmann::json to_json(const StrategyConfig& c);
/// Inverse of to_json; missing keys keep their defaults.
StrategyConfig strategy_config_from_json(const nlohmann::json& j);
nlohmann::json box_space_json(const Box& box);
/// Rebuilds the space of a stored study (type "box"; InputError for types this build cannot build).
std::shared_ptr<const Space> space_from_json(const nlohmann::json& j);
/// One-line human description of a stored space, e.g. "box [0, 1] x [-5, 5]".
std::string describe_space_json(const nlohmann::json& j);

class Storage;

/// Result of evaluating one trial: a finite value, or a failure reason.
struct Evaluation {
  std::optional<double> value;
  std::string reason;
  static Evaluation ok(double v) { return {v, {}}; }
  static Evaluation failed(std::string why) { return {std::nullopt, std::move(why)}; }
};
using TrialObjective = std::function<Evaluation(const Trial& trial)>;

/// Called after each finished trial (already committed): the trial, #finished, #requested, best so far.
using ProgressFn = std::function<void(const Trial& trial, int finished, int total, const std::optional<Trial>& best)>;

class Study {
 public:
  /// Opens the study `wanted.name` or creates it. An existing study with a different space or
  /// direction ⇒ InputError naming both. The stored strategy config is replaced by wanted.config.
  static Study create_or_open(std::shared_ptr<Storage> storage, const StudyRecord& wanted);
  /// Opens an existing study; InputError listing the existing study names otherwise.
  static Study open(std::shared_ptr<Storage> storage, const std::string& name);

  const StudyRecord& record() const { return record_; }
  const std::string& name() const { return record_.name; }
  bool minimize() const { return record_.minimize; }
  std::shared_ptr<const Space> space() const { return space_; }
  StrategyConfig strategy_config() const { return strategy_config_from_json(record_.config); }
  Storage& storage() const { return *storage_; }

  /// Creates a pending trial at the strategy's suggestion. The storage serialises concurrent askers
  /// (the suggestion is computed inside the write transaction), so they never share a trial and each
  /// sees the others' pending points.
  Trial ask(Strategy& strategy, const std::string& worker);
  /// Completes a pending trial with a finite value (in the study's direction); InputError otherwise.
  Trial tell(int trial_id, double value);
  /// Marks a pending trial failed with a reason.
  Trial fail(int trial_id, const std::string& reason);

  std::vector<Trial> trials() const;
  /// Best complete trial in the study's direction (lowest id among ties).
  std::optional<Trial> best() const;
  static std::optional<Trial> best_of(const std::vector<Trial>& trials, bool minimize);

  /// The `kbo optimize --json` / `kbo show --json` object: study, direction, space, best_value,
  /// best_x, best_trial, n_trials, n_complete, n_failed, n_pending, trials [{id, x, value, state, (reason)}].
  nlohmann::json to_json() const;

  /// Runs ask → evaluate → tell until `n_total` trials are finished (complete or failed). First
  /// re-evaluates pending trials abandoned by dead optimize processes on this host (kill -9), so a
  /// re-run of the same command resumes the study. Each result is committed before `progress` runs.
  void optimize(Strategy& strategy, const TrialObjective& objective, int n_total, const std::string& worker,
                const ProgressFn& progress = {});

  /// Strategy inputs from trials: completed points X and values y to MAXIMISE (negated when the
  /// study minimises), and the points not to repeat (pending and failed trials).
  static void strategy_data(const std::vector<Trial>& trials, bool minimize, Mat& X, Vec& y, Mat& avoid, int dim);

 private:
  Study(std::shared_ptr<Storage> storage, StudyRecord record);
  std::shared_ptr<Storage> storage_;
  StudyRecord record_;
  std::shared_ptr<const Space> space_;
};

// ---- worker identities (for resuming after a crash) ----
/// "<role>@<hostname>:<pid>".
std::string worker_id(const std::string& role);
/// True when `worker` names a process of `role` on this host that is no longer running.
bool is_dead_local_worker(const std::string& worker, const std::string& role);

}  // namespace kbo
