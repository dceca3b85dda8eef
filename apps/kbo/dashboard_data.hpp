#pragma once
// What `kbo dashboard` serves, read from its storage and cached per study so that polling a large study stays
// cheap in time and memory:
//  - a view lists at most `max_listed` trials (kbo/analysis/view_trials.hpp) and is kept as its JSON text, so
//    the storage's trials live only while a view is being made;
//  - the GP analysis is kept per study and refitted only when the complete trials changed. A study of at most
//    kRefitInViewTrials complete trials is fitted within the view (a fraction of a second); a larger one on a
//    background thread, and its views show the previous model (or, the first time, say that it is being
//    fitted) until that is done: a fit on 1,000 trials takes seconds, and no view waits for one;
//  - for SQLite, the database files' size and modification time tell whether anything changed: a file left
//    alone for kSettledSeconds is served from the cache without being read again (a file written more
//    recently is always read: its modification time alone could miss a write in the same clock tick).
//    PostgreSQL has no such signal, so its trials are read on every request (the analysis stays cached).
#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "kbo/storage/storage.hpp"
#include "kbo/study/trial.hpp"

namespace kbo::cli {

class DashboardData {
 public:
  static constexpr double kSettledSeconds = 2.0;
  static constexpr long kRefitInViewTrials = 250;

  /// `url` normalised (normalize_storage_url); views list at most `max_listed` trials (0: all).
  DashboardData(std::string url, std::size_t max_listed);
  /// Waits for a model fit in progress (the background thread is joined).
  ~DashboardData();
  DashboardData(const DashboardData&) = delete;
  DashboardData& operator=(const DashboardData&) = delete;

  /// [{name, direction, n_trials, n_complete, n_failed, n_pending, best_value}] of every study.
  nlohmann::json studies();
  /// The view JSON text of study `name` (kbo/analysis/study_view.hpp, without generated_at: it changes only
  /// when the study does); InputError naming the studies if there is none.
  std::string view(const std::string& name);

 private:
  struct Cached {
    std::string token;       // the storage's change token when this was made ("" = none)
    nlohmann::json summary;  // the row of studies()
    std::string view;        // the view's text ("" until one was asked for)
    std::size_t analysis_key = 0;
    nlohmann::json analysis;
    std::size_t fitting_key = 0;  // the key of the refit queued or running (0: none)
  };
  struct FitJob {
    StudyRecord record;
    std::vector<Trial> trials;
    std::size_t key = 0;
  };
  std::shared_ptr<Storage> connect();
  std::string change_token() const;
  Cached& refresh(const std::string& name, const std::string& token, bool with_view);
  void fit_loop();

  std::mutex mutex_;
  std::condition_variable jobs_changed_;
  std::map<std::string, FitJob> jobs_;  // at most one waiting refit per study (a newer one replaces it)
  bool stopping_ = false;
  std::string url_;
  std::size_t max_listed_;
  std::shared_ptr<Storage> storage_;
  std::map<std::string, Cached> cache_;
  std::thread fitter_;  // last: it starts at construction and reads every member above
};

}  // namespace kbo::cli
