// kbo dashboard: a local web page (http://127.0.0.1:PORT/) listing the studies of a storage and showing the
// selected one with the views of `kbo report`, live: the page polls /api/view and redraws when a trial changes.
// Read-only: the storage is opened with StorageAccess::ReadOnly, so the dashboard can never write to it.
//
//   GET /                        the viewer page (web/src, embedded)
//   GET /api/studies             [{name, direction, n_trials, n_complete, n_failed, n_pending, best_value}]
//   GET /api/view?study=NAME     the study's view JSON (kbo/analysis/study_view.hpp); 404 for an unknown study
// Served only to Host values of its own address (DNS rebinding), with a Content-Security-Policy, and so that
// stalled clients cannot hold up others (dashboard_http.hpp); views of large studies are capped and cached
// (dashboard_data.hpp).
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <iostream>
#include <thread>

#include <httplib.h>

#include "command.hpp"
#include "dashboard_data.hpp"
#include "dashboard_http.hpp"
#include "kbo/analysis/view_trials.hpp"
#include "kbo/storage/storage.hpp"
#include "study_options.hpp"
#include "viewer_page.hpp"

namespace kbo::cli {
namespace {

constexpr int kPollMilliseconds = 1500;

void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

// Runs `fn` for a request: InputError (unknown study) → 404, StorageError (database busy or gone) → 503,
// anything else → 500, each with {"error": message}.
void answer(httplib::Response& res, const std::function<std::string()>& fn) {
  try {
    std::string body = fn();
    res.status = 200;
    res.set_header("Cache-Control", "no-store");
    res.set_content(std::move(body), "application/json");
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
               "as `kbo report` does (convergence, the Pareto front and hypervolume of a study with several "
               "objectives, parallel coordinates, GP slices, importances, settings, trial table), redrawn while workers run. Reads only: it never writes to the storage. Ctrl-C stops it."};
  StudyOptionParser parser(app, kWhere);
  parser.needs_persistent_storage();
  int port = 8080;
  app.add_option("--port", port, "TCP port on 127.0.0.1 (default 8080; 0: any free port, printed at start)");
  std::vector<std::string> allowed_hosts;
  app.add_option("--allow-host", allowed_hosts,
                 "also answer requests for this Host, NAME or NAME:PORT (repeatable; e.g. behind a reverse proxy). "
                 "Others than 127.0.0.1:PORT and localhost:PORT get 403, so a web page cannot read the studies "
                 "through a name of its own pointed at 127.0.0.1");
  std::size_t max_trials = kDefaultMaxListedTrials;
  app.add_option("--max-trials", max_trials,
                 "list at most this many trials per view (default " + std::to_string(kDefaultMaxListedTrials) +
                     "; 0: all): a larger study shows a sample that keeps every improvement of the best value, "
                     "the pending and most recent trials, and says so on the page");
  parse(app, argc, argv);
  const StudyOptions o = parser.resolve();
  require_persistent_storage(o);
  if (port > 65535) throw InputError("--port must be in 0..65535 (got " + std::to_string(port) + ")");
  for (const std::string& h : allowed_hosts) check_allow_host(h);
  // Ctrl-C/SIGTERM/SIGHUP are taken by this thread with sigtimedwait: every thread started from here on (the
  // server's, kbo's thread pool) inherits them blocked, and while this thread waits the kernel delivers them to
  // it, so stopping is an ordinary call instead of work inside a signal handler.
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto data = std::make_shared<DashboardData>(normalize_storage_url(o.storage), max_trials);
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
    answer(res, [&] { return data->studies().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); });
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
  harden_dashboard_server(server, HostAllowList(host, port, allowed_hosts), viewer_csp(/*live=*/true));

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
