// The dashboard's data and its per-study cache (dashboard_data.hpp).
#include "dashboard_data.hpp"

#include <malloc.h>
#include <pthread.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "kbo/analysis/study_analysis.hpp"
#include "kbo/analysis/study_view.hpp"
#include "kbo/study/study.hpp"

namespace kbo::cli {
namespace {

/// What the analysis depends on: the complete trials' ids and values (a new pending trial changes nothing).
/// A view that sees the same ones reuses the last fit (it costs seconds on a large study).
std::size_t analysis_key(const std::vector<Trial>& trials) {
  std::string bytes;
  for (const Trial& t : trials)
    if (t.state == TrialState::Complete && t.value) {
      bytes.append(reinterpret_cast<const char*>(&t.id), sizeof t.id);
      bytes.append(reinterpret_cast<const char*>(&*t.value), sizeof(double));
    }
  return std::hash<std::string>{}(bytes) | 1;  // never 0, which means "no refit" (Cached::fitting_key)
}

}  // namespace

DashboardData::DashboardData(std::string url, std::size_t max_listed)
    : url_(std::move(url)), max_listed_(max_listed), fitter_([this] { fit_loop(); }) {}

DashboardData::~DashboardData() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  jobs_changed_.notify_all();
  fitter_.join();
}

void DashboardData::fit_loop() {
  pthread_setname_np(pthread_self(), "kbo-fit");  // so that its CPU time can be told apart (bench/reliability)
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    jobs_changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    const std::string name = jobs_.begin()->first;
    FitJob job = std::move(jobs_.begin()->second);
    jobs_.erase(jobs_.begin());
    lock.unlock();
    nlohmann::json analysis = analyze_study(job.record, job.trials);
    job.trials = {};
    lock.lock();
    Cached& c = cache_[name];
    if (c.fitting_key == job.key) {  // not superseded by a newer change meanwhile
      c.analysis = std::move(analysis);
      c.analysis_key = job.key;
      c.fitting_key = 0;
      c.view.clear();  // the next view carries the new model
    }
    lock.unlock();
    malloc_trim(0);
    lock.lock();
  }
}

// A read-only SQLite connection reads a snapshot when no writer had the file open (`immutable`, see
// SqliteStorage::open_read_only), so each read opens its own (cheap: no server); PostgreSQL connections see
// every commit and are kept.
std::shared_ptr<Storage> DashboardData::connect() {
  if (!storage_ || url_.rfind("sqlite:", 0) == 0) storage_ = open_storage(url_, StorageAccess::ReadOnly);
  return storage_;
}

std::string DashboardData::change_token() const {
  if (url_.rfind("sqlite:", 0) != 0) return "";
  const std::string path = url_.substr(7);
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string token;
  for (const char* suffix : {"", "-wal", "-journal"}) {
    struct stat st {};
    if (::stat((path + suffix).c_str(), &st) != 0) {
      token += "-;";
      continue;
    }
    const double mtime = static_cast<double>(st.st_mtim.tv_sec) + 1e-9 * static_cast<double>(st.st_mtim.tv_nsec);
    if (now - mtime < kSettledSeconds) return "";  // written just now: read it
    token += std::to_string(st.st_size) + "@" + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec) + ";";
  }
  return token;
}

DashboardData::Cached& DashboardData::refresh(const std::string& name, const std::string& token, bool with_view) {
  Cached& c = cache_[name];
  if (!token.empty() && c.token == token && (!with_view || !c.view.empty())) return c;
  {
    const Study study = Study::open(connect(), name);
    std::vector<Trial> trials = study.trials();
    const nlohmann::json s = study.to_json(trials, {});
    c.summary = {{"name", name},
                 {"direction", s["direction"]},
                 {"n_trials", s["n_trials"]},
                 {"n_complete", s["n_complete"]},
                 {"n_failed", s["n_failed"]},
                 {"n_pending", s["n_pending"]},
                 {"best_value", s["best_value"]}};
    c.view.clear();
    if (with_view) {
      nlohmann::json view = study_view_base(study, trials, max_listed_);
      view.erase("generated_at");  // the page re-renders only when the study changed
      const std::size_t key = analysis_key(trials);
      const auto complete = std::count_if(trials.begin(), trials.end(),
                                          [](const Trial& t) { return t.state == TrialState::Complete; });
      if (key != c.analysis_key && complete <= kRefitInViewTrials) {  // a fit that takes a moment: wait for it
        c.analysis = analyze_study(study.record(), trials);
        c.analysis_key = key;
        c.fitting_key = 0;  // a waiting background refit is superseded
        jobs_.erase(name);
      } else if (key != c.analysis_key && key != c.fitting_key) {  // a long one: in the background
        if (c.analysis.is_null()) {  // nothing to show meanwhile: the analysis of no trials, saying why
          c.analysis = analyze_study(study.record(), {});
          c.analysis["model"]["reason"] = "the model of " + std::to_string(complete) +
                                          " complete trials is being fitted; the page shows it when it is done";
          c.analysis_key = 0;
        }
        c.fitting_key = key;
        jobs_[name] = FitJob{study.record(), std::move(trials), key};
        jobs_changed_.notify_all();
      }
      view["analysis"] = c.analysis;
      c.view = view.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    c.token = token;
  }
  // The trials and the view's JSON tree are gone: hand their memory back to the system, so that a large
  // study does not keep the dashboard at its peak size between polls.
  malloc_trim(0);
  return c;
}

nlohmann::json DashboardData::studies() {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string token = change_token();
  nlohmann::json list = nlohmann::json::array();
  for (const std::string& name : connect()->study_names()) list.push_back(refresh(name, token, false).summary);
  return list;
}

std::string DashboardData::view(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  return refresh(name, change_token(), true).view;
}

}  // namespace kbo::cli
