// kbo pending: list a study's pending trials (running, asked, queued) and abandon stale ones.
#include <cstdio>
#include <iostream>
#include <map>

#include "command.hpp"
#include "kbo/storage/storage.hpp"
#include "kbo/storage/stored_text.hpp"
#include "study_options.hpp"

namespace kbo::cli {
namespace {

/// Why a pending trial looks abandoned now ("" if it does not): an asked trial past its lease, a running
/// trial whose heartbeat is older than stale_after or whose process on this host is gone.
std::string staleness(const Trial& t, double stale_after, double now) {
  switch (pending_phase(t)) {
    case PendingPhase::Asked:
      return t.lease_until > 0.0 && now > t.lease_until ? "lease expired" : "";
    case PendingPhase::Running:
      // Silence counts from the ask when the worker never beat (killed between its ask and first heartbeat).
      if (stale_after > 0.0 && now - last_sign_of_life(t) > stale_after) return "no heartbeat";
      if (is_dead_local_worker(t.worker, "worker") || is_dead_local_worker(t.worker, "optimize")) return "process gone";
      return "";
    case PendingPhase::Queued:
      return "";
  }
  return "";
}

std::string age(double seconds) {
  char buf[32];
  if (seconds < 120) std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 7200) std::snprintf(buf, sizeof buf, "%.0f min", seconds / 60);
  else std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
  return buf;
}

int run_pending(int argc, char** argv) {
  CLI::App app{
      "List the pending trials of a study: 'running' (a worker evaluates it and heart-beats), 'asked' (handed "
      "out by `kbo ask`, waiting for `kbo tell` within its lease) or 'queued' (no owner: the next `kbo optimize` "
      "or `kbo worker` takes it). --abandon ID and --stale give trials up by hand: they become failed "
      "'abandoned', which neither counts toward the budget nor is re-run (optimize/worker loops re-offer the "
      "points of expired leases and lost workers themselves)."};
  StudyOptionParser parser(app, kWhere | kOutput);
  parser.needs_persistent_storage();
  std::vector<int> abandon;
  bool stale = false, force = false;
  double stale_after = 60.0;
  app.add_option("--abandon", abandon, "abandon this pending trial (repeatable)");
  app.add_flag("--stale", stale, "abandon every stale trial: asked past its lease, running without a heartbeat for "
                                 "--stale-after seconds (since its ask, if it never beat) or whose process on this "
                                 "host is gone");
  app.add_option("--stale-after", stale_after, "seconds without heartbeat that make a running trial stale (default 60)");
  app.add_flag("--force", force, "--abandon also a trial that a live worker is running");
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  if (!(stale_after > 0.0)) throw InputError("--stale-after must be > 0 seconds");
  require_persistent_storage(o);
  Study study = Study::open(open_storage(o.storage, StorageAccess::Existing), o.study);

  const double now = unix_now();
  std::map<int, bool> to_abandon;  // id → forced
  for (int id : abandon) to_abandon[id] = force;
  if (stale) {
    // A stale running trial's worker is gone or silent: no need for --force.
    for (const auto& t : study.trials())
      if (t.state == TrialState::Pending && !staleness(t, stale_after, now).empty()) to_abandon[t.id] = true;
  }
  nlohmann::json abandoned = nlohmann::json::array();
  for (const auto& [id, forced] : to_abandon) {
    study.abandon(id, forced);
    abandoned.push_back(id);
  }

  nlohmann::json rows = nlohmann::json::array();
  for (const auto& t : study.trials()) {
    if (t.state != TrialState::Pending) continue;
    nlohmann::json r = {{"id", t.id},
                        {"phase", to_string(pending_phase(t))},
                        {"worker", t.worker},
                        {"created_at", t.created_at},
                        {"x", std::vector<double>(t.x.data(), t.x.data() + t.x.size())}};
    if (t.heartbeat_at > 0.0) r["heartbeat_at"] = t.heartbeat_at;
    if (t.lease_until > 0.0) r["lease_until"] = t.lease_until;
    const std::string why = staleness(t, stale_after, now);
    if (!why.empty()) r["stale"] = why;
    rows.push_back(std::move(r));
  }
  if (o.json) {
    std::cout << nlohmann::json{{"study", study.name()}, {"pending", rows}, {"abandoned", abandoned}}.dump() << std::endl;
    return 0;
  }
  for (int id : abandoned) std::cout << "abandoned trial " << id << "\n";
  if (rows.empty()) {
    std::cout << "no pending trials in study '" << terminal_text(study.name()) << "'\n";
    return 0;
  }
  char line[256];
  std::snprintf(line, sizeof line, "%6s  %-8s %-9s %-28s  %s\n", "trial", "phase", "age", "worker", "status");
  std::cout << line;
  for (const auto& r : rows) {
    std::string status;
    if (r.contains("heartbeat_at")) status = "heartbeat " + age(now - r["heartbeat_at"].get<double>()) + " ago";
    if (r.contains("lease_until")) {
      const double left = r["lease_until"].get<double>() - now;
      status = left > 0 ? "lease ends in " + age(left) : "lease ended " + age(-left) + " ago";
    }
    if (r.contains("stale")) status += " (stale: " + r["stale"].get<std::string>() + ")";
    std::snprintf(line, sizeof line, "%6d  %-8s %-9s %-28s  %s\n", r["id"].get<int>(),
                  r["phase"].get<std::string>().c_str(), age(now - r["created_at"].get<double>()).c_str(),
                  r["worker"].get<std::string>().empty() ? "-" : terminal_text(r["worker"].get<std::string>()).c_str(),
                  status.c_str());
    std::cout << line;
  }
  return 0;
}

}  // namespace
KBO_COMMAND("pending", "list pending trials (running/asked/queued); --abandon ID, --stale", run_pending);
}  // namespace kbo::cli
