// kbo dashboard: a local web page (http://127.0.0.1:PORT/) listing the studies of a storage and showing the
// selected one with the views of `kbo report`, live: the page polls /api/view and redraws when a trial changes.
// Read-only: the storage is opened with StorageAccess::ReadOnly, so the dashboard can never write to it.
//
//   GET /                        the viewer page (web/src, embedded)
//   GET /api/studies             [{name, direction, n_trials, n_complete, n_failed, n_pending, best_value}]
//   GET /api/view?study=NAME     the study's view JSON (kbo/analysis/study_view.hpp); 404 for an unknown study
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <httplib.h>

#include "command.hpp"
#include "kbo/analysis/study_analysis.hpp"
#include "kbo/analysis/study_view.hpp"
#include "kbo/storage/storage.hpp"
#include "study_options.hpp"
#include "viewer_page.hpp"

namespace kbo::cli {
namespace {

constexpr int kPollMilliseconds = 1500;

/// What the analysis depends on: the complete trials' ids and values. A poll that sees the same ones reuses
/// the last fit (it costs up to a second), so an idle study or new pending trials cost one storage read.
std::size_t analysis_key(const std::vector<Trial>& trials) {
  std::string bytes;
  for (const Trial& t : trials)
    if (t.state == TrialState::Complete && t.value) {
      bytes.append(reinterpret_cast<const char*>(&t.id), sizeof t.id);
      bytes.append(reinterpret_cast<const char*>(&*t.value), sizeof(double));
    }
  return std::hash<std::string>{}(bytes) ^ trials.size();
}

class DashboardData {
 public:
  explicit DashboardData(std::string url) : url_(std::move(url)) {}

  nlohmann::json studies() {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::shared_ptr<Storage> storage = connect();
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& name : storage->study_names()) {
      const nlohmann::json s = Study::open(storage, name).to_json();
      list.push_back({{"name", name},
                      {"direction", s["direction"]},
                      {"n_trials", s["n_trials"]},
                      {"n_complete", s["n_complete"]},
                      {"n_failed", s["n_failed"]},
                      {"n_pending", s["n_pending"]},
                      {"best_value", s["best_value"]}});
    }
    return list;
  }

  /// The view of study `name` (InputError if there is none), its analysis cached per analysis_key.
  nlohmann::json view(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Study study = Study::open(connect(), name);
    nlohmann::json view = study_view_base(study);
    view.erase("generated_at");  // the page re-renders only when the study changed
    const std::vector<Trial> trials = study.trials();
    const std::size_t key = analysis_key(trials);
    auto it = analyses_.find(name);
    if (it == analyses_.end() || it->second.first != key)
      it = analyses_.insert_or_assign(name, std::make_pair(key, analyze_study(study.record(), trials))).first;
    view["analysis"] = it->second.second;
    return view;
  }

 private:
  // A read-only SQLite connection reads a snapshot when no writer had the file open (`immutable`, see
  // SqliteStorage::open_read_only), so each request opens its own (cheap: no server); PostgreSQL connections
  // see every commit and are kept.
  std::shared_ptr<Storage> connect() {
    if (!storage_ || url_.rfind("sqlite:", 0) == 0) storage_ = open_storage(url_, StorageAccess::ReadOnly);
    return storage_;
  }

  std::mutex mutex_;
  std::string url_;
  std::shared_ptr<Storage> storage_;
  std::map<std::string, std::pair<std::size_t, nlohmann::json>> analyses_;
};

void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

// Runs `fn` for a request: InputError (unknown study) → 404, StorageError (database busy or gone) → 503,
// anything else → 500, each with {"error": message}.
void answer(httplib::Response& res, const std::function<nlohmann::json()>& fn) {
  try {
    send_json(res, 200, fn());
  } catch (const InputError& e) {
    send_json(res, 404, {{"error", e.what()}});
  } catch (const StorageError& e) {
    send_json(res, 503, {{"error", e.what()}});
  } catch (const std::exception& e) {
    send_json(res, 500, {{"error", e.what()}});
  }
}

int run_dashboard(int argc, char** argv) {
  CLI::App app{"Serve a live web page on http://127.0.0.1:PORT/ that lists the studies of a storage and shows each "
               "as `kbo report` does (convergence, parallel coordinates, GP slices, importances, settings, trial "
               "table), redrawn while workers run. Reads only: it never writes to the storage. Ctrl-C stops it."};
  StudyOptionParser parser(app, kWhere);
  parser.needs_persistent_storage();
  int port = 8080;
  app.add_option("--port", port, "TCP port on 127.0.0.1 (default 8080; 0: any free port, printed at start)");
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  require_persistent_storage(o);
  if (port > 65535) throw InputError("--port must be in 0..65535 (got " + std::to_string(port) + ")");
  // Ctrl-C/SIGTERM/SIGHUP are taken by this thread with sigtimedwait: every thread started from here on (the
  // server's, kbo's thread pool) inherits them blocked, and while this thread waits the kernel delivers them to
  // it, so stopping is an ordinary call instead of work inside a signal handler.
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto data = std::make_shared<DashboardData>(normalize_storage_url(o.storage));
  data->studies();  // a storage that cannot be read fails here, before the server starts
  const nlohmann::json selected = parser.given("study") ? nlohmann::json(o.study) : nlohmann::json(nullptr);
  if (!selected.is_null()) data->view(o.study);  // InputError naming the studies for a wrong --study

  const std::string page =
      viewer_page({{"mode", "live"}, {"study", selected}, {"poll_ms", kPollMilliseconds}}, "kbo dashboard");
  httplib::Server server;
  server.Get("/", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(page, "text/html; charset=utf-8");
  });
  server.Get("/api/studies", [&](const httplib::Request&, httplib::Response& res) {
    answer(res, [&] { return data->studies(); });
  });
  server.Get("/api/view", [&](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("study")) return send_json(res, 400, {{"error", "missing ?study=NAME"}});
    answer(res, [&] { return data->view(req.get_param_value("study")); });
  });

  const std::string host = "127.0.0.1";
  if (port == 0) {
    port = server.bind_to_any_port(host);
    if (port < 0) throw InputError("--port 0: no free port on " + host);
  } else if (!server.bind_to_port(host, port)) {
    throw InputError("--port " + std::to_string(port) + ": " + host + ":" + std::to_string(port) +
                     " is in use (or not allowed); choose another with --port N, or --port 0 for any free port");
  }

  // (signals: see above) The timeout notices a server that stopped by itself.
  std::atomic<bool> listening{true};
  std::thread listener([&] {
    server.listen_after_bind();
    listening = false;
  });
  // httplib's stop() does nothing until listen has marked the server running, so a Ctrl-C right after the
  // startup line would be lost: announce the URL only once the server is running.
  while (!server.is_running() && listening) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::cout << "kbo dashboard: http://" << host << ":" << port << "/  (storage " << o.storage
            << ", read-only; Ctrl-C to stop)" << std::endl;
  const timespec tick{0, 200 * 1000 * 1000};
  int signal = -1;
  while (signal < 0 && listening) signal = sigtimedwait(&signals, nullptr, &tick);
  server.stop();
  listener.join();
  if (signal < 0) {
    std::cerr << "kbo dashboard: the server stopped unexpectedly" << std::endl;
    return 1;
  }
  std::cout << "kbo dashboard: stopped" << std::endl;
  return 0;
}

}  // namespace
KBO_COMMAND("dashboard", "serve a live web page of a storage's studies on 127.0.0.1 (read-only)", run_dashboard);
}  // namespace kbo::cli
