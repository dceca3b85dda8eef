#pragma once
// Storage backends for studies. Every method is one atomic transaction, so any backend that can
// serialise writers on a study (SQLite BEGIN IMMEDIATE, PostgreSQL SELECT … FOR UPDATE on the study
// row) can implement it. Trials are addressed by (study name, trial id).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kbo/study.hpp"

namespace kbo {

class Storage {
 public:
  virtual ~Storage() = default;

  /// Inserts `wanted` if no study of that name exists; returns the stored record either way.
  virtual StudyRecord create_study_if_absent(const StudyRecord& wanted) = 0;
  virtual std::optional<StudyRecord> load_study(const std::string& name) = 0;
  virtual std::vector<std::string> study_names() = 0;
  virtual void update_study_config(const std::string& name, const nlohmann::json& config) = 0;

  /// In one write transaction: reads the study's trials, calls `suggest(trials)` and inserts a new
  /// pending trial (id = number of trials) at the returned point for `worker`. Concurrent calls
  /// are serialised, so each sees the trials the others inserted.
  using SuggestFn = std::function<Vec(const std::vector<Trial>& trials)>;
  virtual Trial ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) = 0;

  /// In one write transaction: the lowest-id pending trial for which `claimable` is true gets
  /// `worker` as its new owner and is returned (nullopt if none).
  using TrialPredicate = std::function<bool(const Trial&)>;
  virtual std::optional<Trial> claim_pending(const std::string& study, const TrialPredicate& claimable,
                                             const std::string& worker) = 0;

  /// In one write transaction: a pending trial becomes complete (value set) or failed (reason set).
  /// InputError if the trial does not exist or is not pending.
  virtual Trial finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
                       const std::string& reason) = 0;

  virtual std::vector<Trial> trials(const std::string& study) = 0;

  /// "memory" or "sqlite:PATH".
  virtual std::string url() const = 0;
};

/// Opens storage from a URL: "memory" (this process only) or "sqlite:PATH" (file created if absent;
/// its directory must exist and be writable). InputError naming the URL and the allowed forms otherwise.
std::shared_ptr<Storage> open_storage(const std::string& url);

/// Current Unix time in seconds.
double unix_now();

}  // namespace kbo
