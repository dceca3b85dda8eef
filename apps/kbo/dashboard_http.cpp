// Safe HTTP serving of `kbo dashboard` (dashboard_http.hpp).
#include "dashboard_http.hpp"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "kbo/core/error.hpp"

namespace kbo::cli {
namespace {

struct HostPort {
  std::string name;  // lower case
  int port = -1;     // -1: none given
};

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_'; }
bool is_ipv6_char(char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.'; }

// "name", "name:port", "[v6]" or "[v6]:port" → its parts; nullopt for anything else.
std::optional<HostPort> parse_host(const std::string& text) {
  HostPort out;
  std::string rest;
  if (!text.empty() && text[0] == '[') {
    const size_t close = text.find(']');
    if (close == std::string::npos || close == 1) return std::nullopt;
    out.name = text.substr(0, close + 1);
    if (!std::all_of(out.name.begin() + 1, out.name.end() - 1, is_ipv6_char)) return std::nullopt;
    rest = text.substr(close + 1);
  } else {
    const size_t colon = text.find(':');
    out.name = text.substr(0, colon);
    if (out.name.empty() || !std::all_of(out.name.begin(), out.name.end(), is_name_char)) return std::nullopt;
    rest = colon == std::string::npos ? "" : text.substr(colon);
  }
  if (!rest.empty()) {
    if (rest[0] != ':' || rest.size() < 2 || rest.size() > 6 ||
        !std::all_of(rest.begin() + 1, rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    out.port = std::stoi(rest.substr(1));
    if (out.port > 65535) return std::nullopt;
  }
  std::transform(out.name.begin(), out.name.end(), out.name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// One thread per connection, created when the connection is accepted, at most `max` at once (the accept loop
// waits for one to end beyond that, leaving new connections in the kernel's backlog). httplib's own pool has
// a fixed number of threads, so a few idle or half-sent connections held every thread and queued the rest.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  explicit ConnectionThreads(std::size_t max) : max_(max) {}

  void enqueue(std::function<void()> fn) override {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return running_ < max_; });
    ++running_;
    std::thread([this, fn = std::move(fn)] {
      fn();
      std::lock_guard<std::mutex> done(mutex_);
      --running_;
      changed_.notify_all();
    }).detach();
  }

  // The server has stopped accepting: wait for the connections in progress (each ends within its timeouts).
  void shutdown() override {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return running_ == 0; });
  }

 private:
  std::size_t max_;
  std::size_t running_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
};

}  // namespace

void check_allow_host(const std::string& value) {
  if (!parse_host(value))
    throw InputError("--allow-host '" + value +
                     "' is not a host name or address with an optional port (e.g. dash.example.org or "
                     "dash.example.org:443)");
}

HostAllowList::HostAllowList(const std::string& bound_address, int port, const std::vector<std::string>& extra) {
  entries_.push_back({bound_address, port});
  entries_.push_back({"localhost", port});
  for (const std::string& e : extra) {
    check_allow_host(e);
    const HostPort hp = *parse_host(e);
    entries_.push_back({hp.name, hp.port});
  }
}

bool HostAllowList::allows(const std::string& host_header) const {
  const std::optional<HostPort> host = parse_host(host_header);
  if (!host) return false;
  const int port = host->port < 0 ? 80 : host->port;  // no port in Host: HTTP's default
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.name == host->name && (e.port < 0 || e.port == port); });
}

void harden_dashboard_server(httplib::Server& server, const HostAllowList& hosts, const std::string& csp) {
  server.new_task_queue = [] { return new ConnectionThreads(kMaxConnectionThreads); };
  server.set_read_timeout(kReadTimeoutSeconds, 0);
  server.set_write_timeout(10, 0);
  server.set_keep_alive_timeout(kKeepAliveSeconds);
  server.set_keep_alive_max_count(kKeepAliveRequests);
  server.set_payload_max_length(64 * 1024);  // the dashboard takes GET requests only
  server.set_default_headers({{"Content-Security-Policy", csp + "; frame-ancestors 'none'"},
                              {"X-Frame-Options", "DENY"},
                              {"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"}});
  server.set_pre_routing_handler([hosts](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    if (hosts.allows(host)) return httplib::Server::HandlerResponse::Unhandled;
    res.status = 403;
    std::string shown = host.substr(0, 100);
    for (char& c : shown)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    res.set_content("kbo dashboard: Host '" + shown +
                        "' is not this server's address; start it with --allow-host NAME to serve that name\n",
                    "text/plain; charset=utf-8");
    return httplib::Server::HandlerResponse::Handled;
  });
}

}  // namespace kbo::cli
