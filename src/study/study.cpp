// Studies: ask/tell over a Storage, and the optimisation loop (see include/kbo/study.hpp).
#include "kbo/study/study.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <set>
#include <thread>

#include "kbo/storage/heartbeat.hpp"
#include "kbo/core/error.hpp"
#include "kbo/moo/hypervolume.hpp"
#include "kbo/moo/pareto.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/storage/stored_text.hpp"
#include "kbo/study/interrupt.hpp"

namespace kbo {

Study::Study(std::shared_ptr<Storage> storage, StudyRecord record)
    : storage_(std::move(storage)), record_(std::move(record)), space_(space_from_json(record_.space)) {}

namespace {
void diff_json(const std::string& path, const nlohmann::json& a, const nlohmann::json& b, std::vector<std::string>& out) {
  if (a == b) return;
  if (a.is_object() && b.is_object()) {
    std::set<std::string> keys;
    for (const auto& item : a.items()) keys.insert(item.key());
    for (const auto& item : b.items()) keys.insert(item.key());
    for (const auto& k : keys)
      diff_json(path.empty() ? k : path + "." + k, a.value(k, nlohmann::json()), b.value(k, nlohmann::json()), out);
    return;
  }
  auto show = [](const nlohmann::json& v) { return v.is_null() ? std::string("(unset)") : v.is_string() ? v.get<std::string>() : v.dump(); };
  out.push_back(path + " " + show(a) + " -> " + show(b));
}
}  // namespace

namespace {
/// The longest study name (bytes): a name is typed and printed, so one line.
constexpr std::size_t kMaxStudyNameBytes = 256;

/// A study name as it is stored and looked up. A NUL byte would make the name unreachable (C strings end
/// there) and an over-long one unprintable: both are refused. Invalid UTF-8 is replaced (stored_text) the same
/// way when a study is created and when it is opened, so such a name still reaches its study.
std::string checked_study_name(const std::string& name) {
  if (name.empty()) throw InputError("--study must not be empty");
  if (name.find('\0') != std::string::npos)
    throw InputError("the study name '" + terminal_text(name) + "' contains a NUL byte (\\0), which no storage can keep");
  if (name.size() > kMaxStudyNameBytes)
    throw InputError("the study name is " + std::to_string(name.size()) + " bytes long (at most " +
                     std::to_string(kMaxStudyNameBytes) + ")");
  return stored_text(name);
}
}  // namespace

std::vector<std::string> config_changes(const nlohmann::json& stored, const nlohmann::json& wanted) {
  std::vector<std::string> out;
  diff_json("", stored, wanted, out);
  return out;
}

Study Study::create_or_open(std::shared_ptr<Storage> storage, const StudyRecord& wanted,
                            std::vector<std::string>* changed) {
  if (!storage) throw InputError("no storage");
  StudyRecord named = wanted;
  named.name = checked_study_name(wanted.name);
  space_from_json(wanted.space);  // validate before anything is written
  StudyRecord stored = storage->create_study_if_absent(named);
  if (stored.space != wanted.space)
    throw InputError("study '" + named.name + "' in " + storage->url() + " exists with a different space (stored: " +
                     describe_space_json(stored.space) + "; requested: " + describe_space_json(wanted.space) +
                     "); use the same space or another --study name");
  if (stored.directions != wanted.directions) {
    const auto shown = [](const StudyRecord& r) {
      std::string s;
      for (const auto& d : r.directions) s += (s.empty() ? "" : ",") + d;
      return r.directions.empty() ? std::string("one objective (") + (r.minimize ? "minimize" : "maximize") + ")"
                                  : std::to_string(r.directions.size()) + " objectives (" + s + ")";
    };
    throw InputError("study '" + wanted.name + "' in " + storage->url() + " exists with " + shown(stored) +
                     "; requested " + shown(wanted) + " (use the same --directions or another --study name)");
  }
  if (stored.minimize != wanted.minimize)
    throw InputError("study '" + named.name + "' in " + storage->url() + " exists with direction " +
                     (stored.minimize ? "minimize" : "maximize") + "; requested " +
                     (wanted.minimize ? "minimize" : "maximize") + " (use the same direction or another --study name)");
  if (stored.config != wanted.config) {
    if (changed) *changed = config_changes(stored.config, wanted.config);
    storage->update_study_config(named.name, wanted.config);
    stored.config = wanted.config;
  }
  if (wanted.budget && stored.budget != wanted.budget) {
    storage->update_study_budget(named.name, wanted.budget);
    stored.budget = wanted.budget;
  }
  return Study(std::move(storage), std::move(stored));
}

Vec Study::point_from_json(const nlohmann::json& point) const {
  if (point.is_object()) return space_->from_named(point);
  if (!point.is_array()) throw InputError("a point is a list of numbers or an object {name: value} (got " + point.dump() + ")");
  const int dim = space_->dim();
  if (static_cast<int>(point.size()) != dim)
    throw InputError("the point has " + std::to_string(point.size()) + " coordinates; the study's space has " +
                     std::to_string(dim));
  Vec x(dim);
  for (int i = 0; i < dim; ++i) {
    if (!point[i].is_number() || !std::isfinite(point[i].get<double>()))
      throw InputError("coordinate " + std::to_string(i) + " of the point is not a finite number");
    x[i] = point[i].get<double>();
  }
  if (!space_->bounds().contains(x))
    throw InputError("the point " + point.dump() + " is outside the study's space (" + space_->describe() + ")");
  Vec c = x;
  space_->canonicalize(c);
  if ((c - x).cwiseAbs().maxCoeff() > 1e-12)
    throw InputError("the point " + point.dump() + " is not a value the space can take (" + space_->describe() +
                     "); give it by name, e.g. {\"name\": value}");
  return x;
}

Trial Study::enqueue(const Vec& x) {
  if (x.size() != space_->dim()) throw InputError("enqueue: the point has the wrong dimension");
  return storage_->ask(record_.name, [&](const std::vector<Trial>&) { return x; }, "");
}

Trial Study::add_evaluated(const Vec& x, double value, const std::vector<double>& constraints,
                           std::optional<double> sem) {
  return add_evaluated(std::vector<EvaluatedPoint>{{x, value, constraints, {}, sem}}).front();
}

std::vector<Trial> Study::add_evaluated(const std::vector<EvaluatedPoint>& rows) {
  for (const EvaluatedPoint& r : rows) {
    if (r.x.size() != space_->dim()) throw InputError("tell: the point has the wrong dimension");
    if (!std::isfinite(r.value)) throw InputError("the value of a told point must be a finite number");
    if (n_objectives() > 1 || !r.values.empty()) {
      check_values(r.values, "the told point");
      if (r.values.front() != r.value) throw InputError("the value of a told point must be its first objective");
    }
    for (double c : r.constraints)
      if (!std::isfinite(c)) throw InputError("constraints must be finite numbers");
    check_sem(r.sem, "the told point");
  }
  return storage_->add_completed(record_.name, rows, worker_id("tell"));
}

void Study::set_budget(int budget) {
  if (budget < 0) throw InputError("the budget (number of trials) must be >= 0, got " + std::to_string(budget));
  if (record_.budget == budget) return;
  storage_->update_study_budget(record_.name, budget);
  record_.budget = budget;
}

Study Study::open(std::shared_ptr<Storage> storage, const std::string& raw_name) {
  if (!storage) throw InputError("no storage");
  const std::string name = checked_study_name(raw_name);
  auto rec = storage->load_study(name);
  if (!rec) {
    std::string names;
    for (const auto& n : storage->study_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError("no study named '" + name + "' in " + storage->url() +
                     " (existing: " + (names.empty() ? "none" : names) + ")");
  }
  return Study(std::move(storage), std::move(*rec));
}

void Study::strategy_data(const std::vector<Trial>& trials, bool minimize, Mat& X, Vec& y, Mat& pending,
                          Mat& failed, int dim) {
  int n_complete = 0, n_pending = 0, n_failed = 0;
  for (const auto& t : trials) {
    if (t.state == TrialState::Complete) ++n_complete;
    else if (t.state == TrialState::Pending) ++n_pending;
    else if (counts_toward_budget(t)) ++n_failed;
  }
  X.resize(n_complete, dim);
  y.resize(n_complete);
  pending.resize(n_pending, dim);
  failed.resize(n_failed, dim);
  int i = 0, p = 0, f = 0;
  for (const auto& t : trials) {
    if (t.x.size() != dim) throw InputError("stored trial " + std::to_string(t.id) + " has the wrong dimension");
    if (t.state == TrialState::Complete) {
      X.row(i) = t.x.transpose();
      y(i++) = minimize ? -*t.value : *t.value;
    } else if (t.state == TrialState::Pending) {
      pending.row(p++) = t.x.transpose();
    } else if (counts_toward_budget(t)) {
      failed.row(f++) = t.x.transpose();
    }
  }
}

namespace {

/// Thrown from inside the reserve transaction when the budget is already taken: nothing is written.
struct BudgetTaken {};
/// Thrown from inside the reserve transaction when the suggestion collides with a trial asked since the
/// snapshot it was computed from: nothing is written, the suggestion is recomputed from a new snapshot.
struct SnapshotStale {};
/// After this many recomputations the suggestion is reserved even if it collides (never seen: each retry
/// sees the colliding trial as pending, and the strategy keeps away from pending points).
constexpr int kMaxStaleRetries = 16;
/// A suggestion computed faster than this (seconds) is recomputed inside the reserving transaction on a
/// collision instead of from a new snapshot.
constexpr double kCheapSuggestSeconds = 0.005;

/// True when a trial created after the snapshot (id >= n_snapshot) lies within 1 % of the box's width of
/// `x` in every coordinate: two askers that computed from the same snapshot chose (nearly) the same point.
bool collides(const std::vector<Trial>& fresh, std::size_t n_snapshot, const Vec& x, const Box& box) {
  for (std::size_t i = n_snapshot; i < fresh.size(); ++i) {
    const Vec& other = fresh[i].x;
    if (other.size() != x.size()) continue;
    bool near = true;
    for (Eigen::Index d = 0; d < x.size() && near; ++d)
      near = std::abs(other(d) - x(d)) <= 0.01 * (box.upper(d) - box.lower(d));
    if (near) return true;
  }
  return false;
}

/// Test hook (seconds, default 0): lengthens every suggestion, so tests can make asks slower than
/// --stale-after without a large study. Read once per process.
double slow_ask_seconds() {
  static const double s = [] {
    const char* v = std::getenv("KBO_TEST_SLOW_ASK_SECONDS");
    const double d = v ? std::atof(v) : 0.0;
    return std::isfinite(d) && d > 0.0 ? d : 0.0;
  }();
  return s;
}

/// Test hook (seconds, default 0): a pause between a worker's ask and its first heartbeat, so that kills at
/// random moments (bench/reliability) land in that window often. Read once per process.
double pause_after_ask_seconds() {
  static const double s = [] {
    const char* v = std::getenv("KBO_TEST_PAUSE_AFTER_ASK_SECONDS");
    const double d = v ? std::atof(v) : 0.0;
    return std::isfinite(d) && d > 0.0 ? d : 0.0;
  }();
  return s;
}

}  // namespace

Trial Study::suggest_and_reserve(Strategy& strategy, const std::string& worker,
                                 const std::function<bool(const std::vector<Trial>&)>& budget_taken) {
  const int dim = space_->dim();
  const auto compute = [&](const std::vector<Trial>& trials) {
    Mat X, pending, failed;
    Vec y;
    strategy_data(trials, record_.minimize, X, y, pending, failed, dim);
    strategy.set_constraints(constraint_data(trials));
    strategy.set_observation_sem(sem_data(trials));
    if (n_objectives() > 1) {
      // The reference point in maximisation terms, as the strategy sees every objective.
      Vec ref;
      if (const auto given = reference_point()) {
        ref = *given;
        for (int j = 0; j < ref.size(); ++j)
          if (record_.directions[static_cast<std::size_t>(j)] == "minimize") ref[j] = -ref[j];
      }
      strategy.set_objectives(objective_data(trials, record_.directions), ref);
    }
    Vec x = strategy.suggest(X, y, pending, failed, static_cast<int>(trials.size()));
    if (x.size() != dim || !x.allFinite())
      throw std::runtime_error("strategy " + strategy.name() + " returned an invalid point");
    return x;
  };
  for (int attempt = 0;; ++attempt) {
    // 1. A snapshot (a read; it blocks no writer) and the suggestion computed from it, outside any lock,
    //    warm-started from the model state stored by the last refit of any process.
    const std::vector<Trial> snapshot = storage_->trials(record_.name);
    if (budget_taken && budget_taken(snapshot)) throw BudgetTaken{};
    strategy.restore_model_state(storage_->load_model_state(record_.name));
    const auto t0 = std::chrono::steady_clock::now();
    const Vec x = compute(snapshot);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (nlohmann::json state = strategy.model_state(); !state.is_null() && state != model_state_saved_) {
      storage_->save_model_state(record_.name, state);
      model_state_saved_ = std::move(state);
    }
    if (const double s = slow_ask_seconds(); s > 0.0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
    // 2. A short write transaction: re-check the budget and the trials asked meanwhile, then insert.
    try {
      return storage_->ask(
          record_.name,
          [&](const std::vector<Trial>& fresh) {
            if (budget_taken && budget_taken(fresh)) throw BudgetTaken{};
            if (attempt >= kMaxStaleRetries || !collides(fresh, snapshot.size(), x, space_->bounds())) return x;
            // A suggestion that costs no more than a lock wait anyway (initial design, random points) is
            // recomputed here from the fresh trials: askers that all start at once do not retry in turn.
            if (seconds < kCheapSuggestSeconds) return compute(fresh);
            throw SnapshotStale{};
          },
          worker);
    } catch (const SnapshotStale&) {
      continue;
    }
  }
}

void Study::record_trial_info(const Strategy& strategy, Trial& t) {
  // A compact subset of the strategy's last_info(): which kernel modelled (when the model chooses one),
  // A-GP-UCB's schedule, the subset-of-data model when it was used, and a local step's trust region.
  const nlohmann::json info = strategy.last_info();
  nlohmann::json kept = nlohmann::json::object();
  if (info.contains("kernel_choice")) kept["kernel"] = info["kernel_choice"];
  if (info.contains("kernel_objectives")) kept["kernel_objectives"] = info["kernel_objectives"];
  // Polished acquisition starts refused as sets with coincident elements (options.bo.avoid_coincident).
  if (info.contains("coincident_refused")) kept["coincident_refused"] = info["coincident_refused"];
  // An exploration-first step (options.bo.early_steps) and the β it took.
  if (info.value("early_step", false) && info.contains("beta")) kept["early_beta"] = info["beta"];
  // The suggestion repeated an observation (a converged local step, typically) and was replaced by a uniform
  // random point: said, so that a far-away point in the middle of a local search is explained.
  if (info.value("repeat_replaced_by_random", false)) kept["repeat_replaced_by_random"] = true;
  // A-GP-UCB: its scaling g(t), the lengthscale factor θ₀/θ_t (g_eff: with MAP it includes the estimate), the
  // overall h(t) and β½ of this trial, for the dashboard's trace.
  if (info.value("phase", "") == "agpucb") {
    nlohmann::json a = nlohmann::json::object();
    for (const char* key : {"g", "g_eff", "h", "beta_sqrt"})
      if (info.contains(key)) a[key] = info[key];
    if (info.contains("h_schedule")) a["h"] = info["h_schedule"];  // balance/lb: the schedule, not the arm's g^d
    kept["agpucb"] = a;
  }
  // The noise hypothesis the evidence chose at a full refit (options.bo.noise infer) and the fitted level.
  if (info.contains("noise")) kept["noise"] = info["noise"];
  // Above BOModelOptions::subset_above (or forced): the subset-of-data model and how many rows it used.
  if (info.contains("model") && info["model"].is_object()) kept["model"] = info["model"];
  // A local step (the end-game's, options.bo.endgame_fraction): its model and the trust region's
  // radius and counters (replayed from the history, so a resumed study can be checked against them).
  if (info.contains("local") && info["local"].is_object()) {
    // A quadratic that could not be fitted left the step to the local GP.
    const bool quadratic = info["local"].value("model", "gp") == "quadratic" && info["local"].value("fitted", false);
    // A trust-region restart that took a global step (trial info of studies that had such restarts).
    const bool restart = info["local"].value("restart", false);
    nlohmann::json l = {{"model", restart ? "global" : quadratic ? "quadratic" : "gp"}};
    if (restart) l["restart"] = true;
    if (info["local"].contains("r2") && info["local"]["r2"].is_number()) l["r2"] = info["local"]["r2"];
    // the quadratic's weights, (gap + g₀)^−fit_power (local_fit_power; 0: least squares unweighted)
    if (quadratic && info["local"].contains("fit_power")) l["fit_power"] = info["local"]["fit_power"];
    if (info["local"].contains("trust_region")) l["trust_region"] = info["local"]["trust_region"];
    if (info["local"].contains("radius_used")) l["radius_used"] = info["local"]["radius_used"];
    // local_chart: the observations entered the local fit at their orbit points nearest the incumbent.
    if (info["local"].value("chart", false)) l["chart"] = true;
    if (info["local"].contains("gp_noise")) l["gp_noise"] = info["local"]["gp_noise"];  // the local GP's noise variance
    kept["local"] = l;
  }
  if (kept.empty()) return;
  storage_->set_info(record_.name, t.id, kept);
  t.info = std::move(kept);
}

Trial Study::ask(Strategy& strategy, const std::string& worker, double lease_seconds) {
  if (!(lease_seconds >= 0.0) || !std::isfinite(lease_seconds))
    throw InputError("the ask lease must be a finite number of seconds >= 0 (0: no lease)");
  // A queued trial (a warm start from `kbo enqueue` / Study.enqueue, or a point re-offered after a lost
  // worker) is the next suggestion, handed out once: claiming it gives it this owner in one transaction.
  std::optional<Trial> queued =
      storage_->claim_pending(record_.name, [](const Trial& t) { return t.worker.empty(); }, worker, /*running=*/false);
  Trial t;
  if (queued) {
    t = std::move(*queued);
  } else {
    // The stored budget (set by `kbo optimize` and kbo.minimize; none for open-ended ask/tell), for a
    // strategy that plans by it (BOModelOptions::endgame_fraction).
    strategy.set_budget(record_.budget);
    t = suggest_and_reserve(strategy, worker, {});
    record_trial_info(strategy, t);
  }
  // A second statement: a crash in between leaves a trial without a lease, as asked trials were before.
  if (lease_seconds > 0.0) {
    t.lease_until = (queued ? unix_now() : t.created_at) + lease_seconds;  // a queued trial was created earlier
    storage_->set_lease(record_.name, t.id, t.lease_until);
  }
  return t;
}

Trial Study::tell(int trial_id, double value, bool force, const std::vector<double>& constraints,
                  std::optional<double> sem) {
  if (!std::isfinite(value))
    throw InputError("value of trial " + std::to_string(trial_id) +
                     " must be a finite number (report a failure with --failed REASON instead)");
  for (double c : constraints)
    if (!std::isfinite(c)) throw InputError("constraints of trial " + std::to_string(trial_id) + " must be finite numbers");
  if (n_objectives() > 1) check_values({value}, "trial " + std::to_string(trial_id));
  check_sem(sem, "trial " + std::to_string(trial_id));
  return storage_->finish(record_.name, trial_id, TrialState::Complete, value, "", Teller{"", force}, constraints, {},
                          sem);
}

void Study::check_sem(std::optional<double> sem, const std::string& what) const {
  if (!sem) return;
  if (!std::isfinite(*sem) || *sem < 0.0)
    throw InputError("the sem (standard error) of " + what + " must be a finite number >= 0 (got " +
                     (std::isnan(*sem) ? std::string("nan") : std::to_string(*sem)) + ")");
  // Known noise per objective would need one standard error per objective and a model of each with it.
  if (n_objectives() > 1)
    throw InputError("a sem (standard error) is supported for studies with one objective; study '" + record_.name +
                     "' has " + std::to_string(n_objectives()));
}

Trial Study::tell_values(int trial_id, const std::vector<double>& values, bool force,
                         const std::vector<double>& constraints) {
  check_values(values, "trial " + std::to_string(trial_id));
  if (n_objectives() == 1) return tell(trial_id, values.front(), force, constraints);
  for (double c : constraints)
    if (!std::isfinite(c)) throw InputError("constraints of trial " + std::to_string(trial_id) + " must be finite numbers");
  return storage_->finish(record_.name, trial_id, TrialState::Complete, values.front(), "", Teller{"", force},
                          constraints, values);
}

std::vector<std::string> Study::directions() const {
  if (!record_.directions.empty()) return record_.directions;
  return {record_.minimize ? "minimize" : "maximize"};
}

std::optional<Vec> Study::reference_point() const {
  const nlohmann::json& mo = record_.config.value("module_options", nlohmann::json::object());
  if (!mo.is_object() || !mo.contains("moo") || !mo["moo"].is_object() || !mo["moo"].contains("ref_point"))
    return std::nullopt;
  const auto r = mo["moo"]["ref_point"].get<std::vector<double>>();
  return Eigen::Map<const Vec>(r.data(), static_cast<Eigen::Index>(r.size()));
}

void Study::check_values(const std::vector<double>& values, const std::string& what) const {
  const int k = n_objectives();
  if (static_cast<int>(values.size()) != k) {
    std::string dirs;
    for (const auto& d : directions()) dirs += (dirs.empty() ? "" : ",") + d;
    throw InputError(what + " has " + std::to_string(values.size()) + " value" + (values.size() == 1 ? "" : "s") +
                     "; study '" + record_.name + "' has " + std::to_string(k) + " objective" + (k == 1 ? "" : "s") +
                     " (" + dirs + ")");
  }
  for (double v : values)
    if (!std::isfinite(v)) throw InputError("the values of " + what + " must be finite numbers");
}

Mat Study::objective_data(const std::vector<Trial>& trials, const std::vector<std::string>& directions) {
  const Eigen::Index k = static_cast<Eigen::Index>(directions.size());
  int n = 0;
  for (const auto& t : trials) n += t.state == TrialState::Complete;
  Mat Y(n, k);
  int i = 0;
  for (const auto& t : trials) {
    if (t.state != TrialState::Complete) continue;
    if (static_cast<Eigen::Index>(t.values.size()) != k)
      throw InputError("stored trial " + std::to_string(t.id) + " has " + std::to_string(t.values.size()) +
                       " objective values; the study has " + std::to_string(k));
    for (Eigen::Index j = 0; j < k; ++j)
      Y(i, j) = directions[static_cast<std::size_t>(j)] == "minimize" ? -t.values[static_cast<std::size_t>(j)]
                                                                      : t.values[static_cast<std::size_t>(j)];
    ++i;
  }
  return Y;
}

Vec Study::sem_data(const std::vector<Trial>& trials) {
  int n = 0;
  bool any = false;
  for (const auto& t : trials)
    if (t.state == TrialState::Complete) ++n, any = any || t.sem.has_value();
  if (!any) return Vec();
  Vec s(n);
  int i = 0;
  for (const auto& t : trials)
    if (t.state == TrialState::Complete) s(i++) = t.sem.value_or(0.0);
  return s;
}

Mat Study::constraint_data(const std::vector<Trial>& trials) {
  std::size_t m = 0;
  int n = 0;
  for (const auto& t : trials)
    if (t.state == TrialState::Complete) ++n, m = std::max(m, t.constraints.size());
  Mat C = Mat::Zero(n, static_cast<Eigen::Index>(m));
  int i = 0;
  for (const auto& t : trials) {
    if (t.state != TrialState::Complete) continue;
    for (std::size_t j = 0; j < t.constraints.size() && j < m; ++j) C(i, static_cast<Eigen::Index>(j)) = t.constraints[j];
    ++i;
  }
  return C;
}

Trial Study::fail(int trial_id, const std::string& reason, bool force) {
  return storage_->finish(record_.name, trial_id, TrialState::Failed, std::nullopt,
                          reason.empty() ? std::string("failed") : reason, Teller{"", force});
}

Trial Study::abandon(int trial_id, bool force) {
  return storage_->finish(record_.name, trial_id, TrialState::Failed, std::nullopt, kAbandoned, Teller{"", force});
}

std::vector<Trial> Study::trials() const {
  std::vector<Trial> ts = storage_->trials(record_.name);
  // A row of another dimension cannot come from this study's asks: report it instead of showing or modelling it.
  const Eigen::Index dim = space_->dim();
  for (const Trial& t : ts)
    if (t.x.size() != dim)
      throw_damaged_trial(storage_->url(), t.id, "its point has " + std::to_string(t.x.size()) +
                                                     " coordinates; the space of study '" + record_.name + "' has " +
                                                     std::to_string(dim));
  return ts;
}

std::optional<Trial> Study::best_of(const std::vector<Trial>& trials, bool minimize) {
  std::optional<Trial> best;
  for (const auto& t : trials) {
    if (t.state != TrialState::Complete || !is_feasible(t)) continue;
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
  std::vector<std::size_t> all(ts.size());
  for (std::size_t i = 0; i < ts.size(); ++i) all[i] = i;
  return to_json(ts, all);
}

nlohmann::json Study::to_json(const std::vector<Trial>& ts, const std::vector<std::size_t>& listed) const {
  nlohmann::json out;
  out["study"] = record_.name;
  out["storage"] = storage_->url();
  out["direction"] = record_.minimize ? "minimize" : "maximize";
  const bool several = n_objectives() > 1;
  if (several) out["directions"] = record_.directions;
  out["space"] = record_.space;
  out["budget"] = record_.budget ? nlohmann::json(*record_.budget) : nlohmann::json(nullptr);
  // Several objectives have no single best: the Pareto front (pareto_front, hypervolume) takes its place.
  const auto best = several ? std::nullopt : best_of(ts, record_.minimize);
  out["best_value"] = best ? nlohmann::json(*best->value) : nlohmann::json(nullptr);
  out["best_x"] = best ? vec_json(best->x) : nlohmann::json(nullptr);
  const bool named = !space_->named(space_->bounds().lower).is_null();  // a params space: names and typed values
  if (named) out["best_params"] = best ? space_->named(best->x) : nlohmann::json(nullptr);
  out["best_trial"] = best ? nlohmann::json(best->id) : nlohmann::json(nullptr);
  int counts[3] = {0, 0, 0};
  bool has_constraints = false;
  for (const auto& t : ts) {
    counts[static_cast<int>(t.state)]++;
    has_constraints = has_constraints || !t.constraints.empty();
  }
  nlohmann::json arr = nlohmann::json::array();
  for (const std::size_t i : listed) {
    const Trial& t = ts.at(i);
    nlohmann::json jt;
    jt["id"] = t.id;
    jt["x"] = vec_json(t.x);
    if (named) jt["params"] = space_->named(t.x);
    jt["value"] = t.value ? nlohmann::json(*t.value) : nlohmann::json(nullptr);
    if (several) jt["values"] = t.values.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.values);
    if (t.sem) jt["sem"] = *t.sem;
    if (!t.constraints.empty()) {
      jt["constraints"] = t.constraints;
      jt["feasible"] = is_feasible(t);
    }
    jt["state"] = to_string(t.state);
    if (t.state == TrialState::Failed) jt["reason"] = t.reason;
    if (t.state == TrialState::Pending) jt["phase"] = to_string(pending_phase(t));
    jt["worker"] = t.worker;
    jt["created_at"] = t.created_at;
    if (t.state != TrialState::Pending) jt["finished_at"] = t.finished_at;
    if (t.state == TrialState::Pending && t.heartbeat_at > 0.0) jt["heartbeat_at"] = t.heartbeat_at;
    if (t.state == TrialState::Pending && t.lease_until > 0.0) jt["lease_until"] = t.lease_until;
    if (t.retry_of >= 0) jt["retry_of"] = t.retry_of;
    if (!t.info.empty()) jt["info"] = t.info;
    arr.push_back(std::move(jt));
  }
  if (has_constraints) {
    int feasible = 0;
    for (const auto& t : ts) feasible += t.state == TrialState::Complete && is_feasible(t);
    out["n_feasible"] = feasible;
    if (feasible == 0) out["note"] = "no feasible trial yet: every complete trial violates a constraint (c_i > 0)";
  }
  if (several) out.update(pareto_json(ts));
  out["n_trials"] = static_cast<int>(ts.size());
  out["n_complete"] = counts[static_cast<int>(TrialState::Complete)];
  out["n_failed"] = counts[static_cast<int>(TrialState::Failed)];
  out["n_pending"] = counts[static_cast<int>(TrialState::Pending)];
  out["trials"] = std::move(arr);
  return out;
}

namespace {
/// Two complete trials at the same point with different values: the objective is noisy.
bool has_differing_replicates(const std::vector<Trial>& ts) {
  std::map<std::vector<double>, double> seen;
  for (const auto& t : ts) {
    if (t.state != TrialState::Complete) continue;
    const auto [it, inserted] = seen.emplace(std::vector<double>(t.x.data(), t.x.data() + t.x.size()), *t.value);
    if (!inserted && it->second != *t.value) return true;
  }
  return false;
}
}  // namespace

Recommendation Study::recommend(const std::vector<Trial>& ts, Strategy* strategy) const {
  Recommendation r;
  if (n_objectives() > 1) return r;
  r.best_observed = best_of(ts, record_.minimize);
  r.recommended = r.best_observed;
  for (const auto& t : ts) r.noisy = r.noisy || (t.state == TrialState::Complete && t.sem.value_or(0.0) > 0.0);
  r.noisy = r.noisy || has_differing_replicates(ts);
  if (!strategy || !r.best_observed) return r;
  Mat X, pending, failed;
  Vec y;
  strategy_data(ts, record_.minimize, X, y, pending, failed, space_->dim());
  strategy->restore_model_state(storage_->load_model_state(record_.name));
  strategy->set_constraints(constraint_data(ts));
  strategy->set_observation_sem(sem_data(ts));
  std::optional<Strategy::Posterior> post;
  try {
    post = strategy->posterior_at_observations(X, y);
  } catch (const std::exception&) {
    post.reset();  // a model that cannot condition on these data (e.g. a damaged stored state): none
  }
  if (!post) return r;
  r.noisy = r.noisy || post->noisy;
  // Row i of X is the i-th complete trial. Noisy: the best posterior mean (maximised) among the feasible ones;
  // deterministic: the best observed trial, with the model's posterior there.
  std::optional<std::size_t> best_row;
  const Trial* best = nullptr;
  std::size_t i = 0;
  for (const auto& t : ts) {
    if (t.state != TrialState::Complete) continue;
    const std::size_t row = i++;
    const double m = post->mean[static_cast<Eigen::Index>(row)];
    if (!r.noisy) {
      if (t.id == r.best_observed->id && std::isfinite(m)) best_row = row, best = &t;
      continue;
    }
    if (!is_feasible(t) || !std::isfinite(m)) continue;
    if (!best_row || m > post->mean[static_cast<Eigen::Index>(*best_row)]) best_row = row, best = &t;
  }
  if (!best) return r;
  r.recommended = *best;
  r.by_posterior_mean = r.noisy;
  const double m = post->mean[static_cast<Eigen::Index>(*best_row)];
  r.mean = record_.minimize ? -m : m;
  r.sd = post->sd[static_cast<Eigen::Index>(*best_row)];
  return r;
}

void Study::add_recommendation(nlohmann::json& out, const std::vector<Trial>& ts, Strategy* strategy) const {
  const Recommendation r = recommend(ts, strategy);
  const bool named = !space_->named(space_->bounds().lower).is_null();
  const auto trial_json = [&](const Trial& t) {
    nlohmann::json j = {{"trial", t.id}, {"x", vec_json(t.x)}, {"value", *t.value}};
    if (named) j["params"] = space_->named(t.x);
    if (t.sem) j["sem"] = *t.sem;
    return j;
  };
  out["best_observed"] = r.best_observed ? trial_json(*r.best_observed) : nlohmann::json(nullptr);
  if (!r.recommended) {
    out["recommended"] = nullptr;
    return;
  }
  nlohmann::json rec = trial_json(*r.recommended);
  rec["mean"] = r.mean ? nlohmann::json(*r.mean) : nlohmann::json(nullptr);
  rec["sd"] = r.sd ? nlohmann::json(*r.sd) : nlohmann::json(nullptr);
  rec["by"] = r.by_posterior_mean ? "posterior_mean" : "best_observed";
  if (!r.mean) rec["note"] = "no fitted model: the best observed trial, without a posterior";
  else if (!r.noisy) rec["note"] = "deterministic: no trial reports a sem and no point was evaluated twice with different values";
  out["recommended"] = std::move(rec);
  out["noisy"] = r.noisy;
  if (r.noisy) {
    out["best_trial"] = r.recommended->id;
    out["best_value"] = *r.recommended->value;
    out["best_x"] = vec_json(r.recommended->x);
    if (named) out["best_params"] = space_->named(r.recommended->x);
  }
}

nlohmann::json Study::pareto_json(const std::vector<Trial>& ts) const {
  std::vector<Trial> kept;
  for (const auto& t : ts)
    if (t.state == TrialState::Complete && is_feasible(t)) kept.push_back(t);
  const Mat Y = objective_data(kept, record_.directions);
  const std::vector<bool> front = non_dominated_mask(Y);
  nlohmann::json arr = nlohmann::json::array();
  const bool named = !space_->named(space_->bounds().lower).is_null();
  Mat F(std::count(front.begin(), front.end(), true), Y.cols());
  for (std::size_t i = 0, f = 0; i < kept.size(); ++i) {
    if (!front[i]) continue;
    F.row(static_cast<Eigen::Index>(f++)) = Y.row(static_cast<Eigen::Index>(i));
    nlohmann::json p = {{"id", kept[i].id}, {"values", kept[i].values}, {"x", vec_json(kept[i].x)}};
    if (named) p["params"] = space_->named(kept[i].x);
    arr.push_back(std::move(p));
  }
  const auto sign = [&](std::size_t j) { return record_.directions[j] == "minimize" ? -1.0 : 1.0; };
  nlohmann::json hv = nullptr;
  const std::optional<Vec> given = reference_point();
  if (given || F.rows() > 0) {
    Vec ref(Y.cols());
    if (given) {
      for (Eigen::Index j = 0; j < ref.size(); ++j) ref[j] = sign(static_cast<std::size_t>(j)) * (*given)[j];
    } else {
      ref = infer_reference_point(F);
    }
    std::vector<double> shown(static_cast<std::size_t>(ref.size()));
    for (std::size_t j = 0; j < shown.size(); ++j) shown[j] = sign(j) * ref[static_cast<Eigen::Index>(j)];
    hv = {{"value", hypervolume(F, ref)}, {"reference_point", shown}, {"reference", given ? "given" : "inferred"}};
  }
  return {{"pareto_front", std::move(arr)}, {"hypervolume", std::move(hv)}};
}

void Study::optimize(Strategy& strategy, const TrialObjective& objective, int n_total, const std::string& worker,
                     const ProgressFn& progress) {
  if (n_total < 0) throw InputError("number of trials must be >= 0");
  WorkOptions options;
  options.budget = n_total;
  work(strategy, objective, worker, options, progress);
}

namespace {

struct Tally {
  int finished = 0;  // complete or failed, excluding trials that were not evaluated (counts_toward_budget)
  int counted = 0;   // finished + pending (running or queued; asked trials count once told)
  int waitable = 0;  // pending trials that will finish or be reaped (running) or claimed (queued)
};

Tally tally(const std::vector<Trial>& ts) {
  Tally c;
  for (const auto& t : ts) {
    if (!counts_toward_budget(t)) continue;
    if (awaits_ask_tell(t)) continue;  // counts once told: the workers' budget does not wait for it
    ++c.counted;
    if (t.state != TrialState::Pending) ++c.finished;
    else if (pending_phase(t) != PendingPhase::Asked) ++c.waitable;  // finishes, is reaped or is claimed
  }
  return c;
}

}  // namespace

std::vector<int> Study::work(Strategy& strategy, const TrialObjective& objective, const std::string& worker,
                             const WorkOptions& options, const ProgressFn& progress) {
  const std::optional<int> budget = options.budget ? options.budget : record_.budget;
  if (budget && *budget < 0) throw InputError("the budget (number of trials) must be >= 0");
  if (options.max_trials < 0) throw InputError("--max-trials must be >= 0");
  if (options.stale_after < 0) throw InputError("--stale-after must be >= 0 seconds");
  if (options.max_same_failures < 0) throw InputError("--fail-fast must be >= 0");
  if (!budget && options.max_trials == 0)
    throw InputError("study '" + record_.name + "' has no stored budget (it is set by `kbo optimize`): pass --max-trials N");
  double interval = options.heartbeat_interval;
  if (interval <= 0.0) interval = options.stale_after > 0.0 ? std::min(10.0, options.stale_after / 4.0) : 1.0;
  Heartbeat heartbeat(storage_, record_.name, worker, interval);

  // Pending trials of processes that died on this host: a `kbo worker` is given up as lost (its point
  // is re-offered); a killed single-process `kbo optimize` is resumed in place (claimed, same id).
  const auto lost = [](const Trial& t) { return is_dead_local_worker(t.worker, "worker"); };
  const auto claimable = [](const Trial& t) {
    return t.worker.empty() || is_dead_local_worker(t.worker, "optimize");
  };
  // The run's budget, for a strategy that plans by it (BOModelOptions::endgame_fraction).
  strategy.set_budget(budget);
  std::vector<int> done;
  int same_failures = 0;  // consecutive failures of this worker with the reason last_failure
  std::string last_failure;
  for (;;) {
    if (const int sig = stop_requested()) throw Interrupted(sig);
    if (options.max_trials > 0 && static_cast<int>(done.size()) >= options.max_trials) break;
    storage_->reap_lost(record_.name, options.stale_after, unix_now(), lost);
    std::optional<Trial> trial = storage_->claim_pending(record_.name, claimable, worker);
    if (!trial) {
      try {
        trial = suggest_and_reserve(strategy, worker, [&](const std::vector<Trial>& trials) {
          return budget && tally(trials).counted >= *budget;
        });
        record_trial_info(strategy, *trial);
      } catch (const BudgetTaken&) {
        // Every trial of the budget is finished or running elsewhere. Wait while some running trial may
        // still be lost (and re-offered); stop when all are finished or none can come back to us.
        const Tally c = tally(trials());
        if (c.finished >= *budget || c.waitable == 0) break;
        std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_interval));
        continue;
      }
    }
    if (const double s = pause_after_ask_seconds(); s > 0.0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
    if (const int sig = stop_requested()) {
      storage_->release(record_.name, trial->id, worker);
      throw Interrupted(sig);
    }
    storage_->heartbeat(record_.name, trial->id, worker);
    heartbeat.beat_for(trial->id);
    Evaluation ev;
    try {
      ev = objective(*trial);
    } catch (const std::exception& e) {
      ev = Evaluation::failed(std::string("objective threw: ") + e.what());
    }
    if (ev.interrupted || ev.cannot_run) {
      // Says nothing about the point: hand the trial back (the next run evaluates it, same id) and stop.
      heartbeat.idle();
      storage_->release(record_.name, trial->id, worker);
      if (ev.interrupted) throw Interrupted(stop_requested() ? stop_requested() : SIGINT);
      throw ObjectiveFailing("the objective cannot be run (" + ev.reason + "); trial " + std::to_string(trial->id) +
                             " was handed back and not counted: fix the command, then re-run to continue",
                             /*repeated=*/false);
    }
    // A wrong number of objective values is a bug of the objective, not a property of the point: hand the
    // trial back (nothing stored) and stop with the InputError, as for a changing number of constraints.
    if (ev.value && std::isfinite(*ev.value) && (n_objectives() > 1 || ev.values.size() > 1)) {
      try {
        check_values(ev.values.empty() ? std::vector<double>{*ev.value} : ev.values,
                     "the objective's result for trial " + std::to_string(trial->id));
      } catch (const InputError&) {
        heartbeat.idle();
        storage_->release(record_.name, trial->id, worker);
        throw;
      }
    }
    if (n_objectives() == 1) ev.values.clear();
    // A bad standard error is a bug of the objective, as a wrong number of values: hand the trial back.
    if (ev.value && std::isfinite(*ev.value) && ev.sem) {
      try {
        check_sem(ev.sem, "the objective's result for trial " + std::to_string(trial->id));
      } catch (const InputError&) {
        heartbeat.idle();
        storage_->release(record_.name, trial->id, worker);
        throw;
      }
    }
    // The heartbeat keeps beating until the result is stored: waiting for the write lock must not make
    // this trial look lost.
    Trial finished;
    try {
      finished = (ev.value && std::isfinite(*ev.value))
                     ? storage_->finish(record_.name, trial->id, TrialState::Complete, *ev.value, "", Teller{worker},
                                        ev.constraints, ev.values, ev.sem)
                     : storage_->finish(record_.name, trial->id, TrialState::Failed, std::nullopt,
                                        ev.value ? "non-finite value " + std::to_string(*ev.value)
                                                 : (ev.reason.empty() ? std::string("failed") : ev.reason),
                                        Teller{worker});
      heartbeat.idle();
    } catch (const ConstraintCountError&) {
      // A constraint list whose length changes is a bug of the objective, not a property of the point:
      // hand the trial back (nothing stored changed) and stop with the InputError.
      heartbeat.idle();
      storage_->release(record_.name, trial->id, worker);
      throw;
    } catch (const InputError& e) {
      heartbeat.idle();
      // Given up as lost while we were evaluating (heartbeats stalled longer than stale_after: its point
      // was re-offered as another trial, which counts instead), or told by hand with `kbo tell --force`.
      std::fprintf(stderr, "kbo: result of trial %d dropped: %s\n", trial->id, e.what());
      continue;
    }
    done.push_back(finished.id);
    if (progress) {
      const auto ts = trials();
      // Several objectives have no single best (their front is in to_json).
      progress(finished, tally(ts).finished, budget ? *budget : options.max_trials,
               n_objectives() > 1 ? std::nullopt : best_of(ts, record_.minimize));
    }
    if (finished.state == TrialState::Complete) {
      same_failures = 0;
    } else {
      same_failures = finished.reason == last_failure ? same_failures + 1 : 1;
      last_failure = finished.reason;
      if (options.max_same_failures > 0 && same_failures >= options.max_same_failures)
        throw ObjectiveFailing("the objective failed " + std::to_string(same_failures) +
                               " times in a row with the same reason (" + last_failure +
                               "); stopped early. The failed trials count toward the budget: fix the objective, "
                               "then re-run the same command to continue",
                               /*repeated=*/true);
    }
  }
  return done;
}

}  // namespace kbo
