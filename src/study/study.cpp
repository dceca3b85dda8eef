// Studies: ask/tell over a Storage, and the optimisation loop (see include/kbo/study.hpp).
#include "kbo/study.hpp"

#include <algorithm>
#include <cmath>

#include "kbo/error.hpp"
#include "kbo/storage/storage.hpp"

namespace kbo {

std::string to_string(TrialState s) {
  switch (s) {
    case TrialState::Pending: return "pending";
    case TrialState::Complete: return "complete";
    case TrialState::Failed: return "failed";
  }
  return "?";
}

TrialState parse_trial_state(const std::string& s) {
  if (s == "pending") return TrialState::Pending;
  if (s == "complete") return TrialState::Complete;
  if (s == "failed") return TrialState::Failed;
  throw InputError("unknown trial state '" + s + "' (allowed: pending, complete, failed)");
}

Study::Study(std::shared_ptr<Storage> storage, StudyRecord record)
    : storage_(std::move(storage)), record_(std::move(record)), space_(space_from_json(record_.space)) {}

Study Study::create_or_open(std::shared_ptr<Storage> storage, const StudyRecord& wanted) {
  if (!storage) throw InputError("no storage");
  if (wanted.name.empty()) throw InputError("--study must not be empty");
  space_from_json(wanted.space);  // validate before anything is written
  StudyRecord stored = storage->create_study_if_absent(wanted);
  if (stored.space != wanted.space)
    throw InputError("study '" + wanted.name + "' in " + storage->url() + " exists with a different space (stored: " +
                     describe_space_json(stored.space) + "; requested: " + describe_space_json(wanted.space) +
                     "); use the same space or another --study name");
  if (stored.minimize != wanted.minimize)
    throw InputError("study '" + wanted.name + "' in " + storage->url() + " exists with direction " +
                     (stored.minimize ? "minimize" : "maximize") + "; requested " +
                     (wanted.minimize ? "minimize" : "maximize") + " (use the same direction or another --study name)");
  if (stored.config != wanted.config) {
    storage->update_study_config(wanted.name, wanted.config);
    stored.config = wanted.config;
  }
  return Study(std::move(storage), std::move(stored));
}

Study Study::open(std::shared_ptr<Storage> storage, const std::string& name) {
  if (!storage) throw InputError("no storage");
  auto rec = storage->load_study(name);
  if (!rec) {
    std::string names;
    for (const auto& n : storage->study_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError("no study named '" + name + "' in " + storage->url() +
                     " (existing: " + (names.empty() ? "none" : names) + ")");
  }
  return Study(std::move(storage), std::move(*rec));
}

void Study::strategy_data(const std::vector<Trial>& trials, bool minimize, Mat& X, Vec& y, Mat& avoid, int dim) {
  int n_complete = 0, n_avoid = 0;
  for (const auto& t : trials) (t.state == TrialState::Complete ? n_complete : n_avoid)++;
  X.resize(n_complete, dim);
  y.resize(n_complete);
  avoid.resize(n_avoid, dim);
  int i = 0, j = 0;
  for (const auto& t : trials) {
    if (t.x.size() != dim) throw InputError("stored trial " + std::to_string(t.id) + " has the wrong dimension");
    if (t.state == TrialState::Complete) {
      X.row(i) = t.x.transpose();
      y(i++) = minimize ? -*t.value : *t.value;
    } else {
      // Failed points are avoided like pending ones: re-suggesting them would likely fail again.
      avoid.row(j++) = t.x.transpose();
    }
  }
}

Trial Study::ask(Strategy& strategy, const std::string& worker) {
  const int dim = space_->dim();
  return storage_->ask(
      record_.name,
      [&](const std::vector<Trial>& trials) {
        Mat X, avoid;
        Vec y;
        strategy_data(trials, record_.minimize, X, y, avoid, dim);
        Vec x = strategy.suggest(X, y, avoid, static_cast<int>(trials.size()));
        if (x.size() != dim || !x.allFinite())
          throw std::runtime_error("strategy " + strategy.name() + " returned an invalid point");
        return x;
      },
      worker);
}

Trial Study::tell(int trial_id, double value) {
  if (!std::isfinite(value))
    throw InputError("value of trial " + std::to_string(trial_id) +
                     " must be a finite number (report a failure with --failed REASON instead)");
  return storage_->finish(record_.name, trial_id, TrialState::Complete, value, "");
}

Trial Study::fail(int trial_id, const std::string& reason) {
  return storage_->finish(record_.name, trial_id, TrialState::Failed, std::nullopt,
                          reason.empty() ? std::string("failed") : reason);
}

std::vector<Trial> Study::trials() const { return storage_->trials(record_.name); }

std::optional<Trial> Study::best_of(const std::vector<Trial>& trials, bool minimize) {
  std::optional<Trial> best;
  for (const auto& t : trials) {
    if (t.state != TrialState::Complete) continue;
    if (!best || (minimize ? *t.value < *best->value : *t.value > *best->value)) best = t;
  }
  return best;
}

std::optional<Trial> Study::best() const { return best_of(trials(), record_.minimize); }

namespace {
nlohmann::json vec_json(const Vec& x) { return std::vector<double>(x.data(), x.data() + x.size()); }
}  // namespace

nlohmann::json Study::to_json() const {
  const auto ts = trials();
  nlohmann::json out;
  out["study"] = record_.name;
  out["storage"] = storage_->url();
  out["direction"] = record_.minimize ? "minimize" : "maximize";
  out["space"] = record_.space;
  const auto best = best_of(ts, record_.minimize);
  out["best_value"] = best ? nlohmann::json(*best->value) : nlohmann::json(nullptr);
  out["best_x"] = best ? vec_json(best->x) : nlohmann::json(nullptr);
  out["best_trial"] = best ? nlohmann::json(best->id) : nlohmann::json(nullptr);
  int counts[3] = {0, 0, 0};
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& t : ts) {
    counts[static_cast<int>(t.state)]++;
    nlohmann::json jt;
    jt["id"] = t.id;
    jt["x"] = vec_json(t.x);
    jt["value"] = t.value ? nlohmann::json(*t.value) : nlohmann::json(nullptr);
    jt["state"] = to_string(t.state);
    if (t.state == TrialState::Failed) jt["reason"] = t.reason;
    jt["worker"] = t.worker;
    jt["created_at"] = t.created_at;
    if (t.state != TrialState::Pending) jt["finished_at"] = t.finished_at;
    arr.push_back(std::move(jt));
  }
  out["n_trials"] = static_cast<int>(ts.size());
  out["n_complete"] = counts[static_cast<int>(TrialState::Complete)];
  out["n_failed"] = counts[static_cast<int>(TrialState::Failed)];
  out["n_pending"] = counts[static_cast<int>(TrialState::Pending)];
  out["trials"] = std::move(arr);
  return out;
}

void Study::optimize(Strategy& strategy, const TrialObjective& objective, int n_total, const std::string& worker,
                     const ProgressFn& progress) {
  if (n_total < 0) throw InputError("number of trials must be >= 0");
  auto evaluate = [&](const Trial& t) {
    Evaluation ev;
    try {
      ev = objective(t);
    } catch (const std::exception& e) {
      ev = Evaluation::failed(std::string("objective threw: ") + e.what());
    }
    Trial done = (ev.value && std::isfinite(*ev.value))
                     ? tell(t.id, *ev.value)
                     : fail(t.id, ev.value ? "non-finite value " + std::to_string(*ev.value) : ev.reason);
    if (progress) {
      const auto ts = trials();
      const int finished = static_cast<int>(std::count_if(
          ts.begin(), ts.end(), [](const Trial& x) { return x.state != TrialState::Pending; }));
      progress(done, finished, n_total, best_of(ts, record_.minimize));
    }
  };
  for (;;) {
    const auto ts = trials();
    const int finished = static_cast<int>(
        std::count_if(ts.begin(), ts.end(), [](const Trial& t) { return t.state != TrialState::Pending; }));
    if (finished >= n_total) break;
    // Resume: a trial left pending by a killed optimize process on this host is evaluated again.
    auto claimed = storage_->claim_pending(
        record_.name, [](const Trial& t) { return is_dead_local_worker(t.worker, "optimize"); }, worker);
    evaluate(claimed ? *claimed : ask(strategy, worker));
  }
}

}  // namespace kbo
