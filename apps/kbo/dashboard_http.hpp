#pragma once
// How `kbo dashboard` serves HTTP safely on a local port (cpp-httplib):
//  - Host allow-list against DNS rebinding: a web page the user visits may point its own name at 127.0.0.1,
//    but its requests then carry that name in Host. Only the bound address and localhost (with the port) and
//    names given with --allow-host (a reverse proxy) are answered; others get 403 and one line.
//  - Every response carries a Content-Security-Policy (the page's scripts by hash, no framing),
//    X-Frame-Options: DENY and X-Content-Type-Options: nosniff.
//  - Stalled clients cannot starve others: each connection has its own thread (created when it arrives, at
//    most kMaxConnectionThreads at once, so idle and half-sent connections do not queue the rest behind them)
//    and is closed after kReadTimeoutSeconds without a byte of its request or kKeepAliveSeconds idle.
#include <string>
#include <vector>

#include <httplib.h>

namespace kbo::cli {

inline constexpr std::size_t kMaxConnectionThreads = 256;
inline constexpr int kReadTimeoutSeconds = 3;
inline constexpr int kKeepAliveSeconds = 3;  // above the page's 1.5 s poll, so a browser reuses its connection
inline constexpr std::size_t kKeepAliveRequests = 100;

/// The Host values a dashboard answers.
class HostAllowList {
 public:
  /// `port` is the bound one; `extra` are --allow-host values, NAME (any port) or NAME:PORT (InputError for a
  /// value that is not a host name or address, with an optional port).
  HostAllowList(const std::string& bound_address, int port, const std::vector<std::string>& extra);
  /// Whether a request with this Host header (case-insensitive; "" when absent) is answered.
  bool allows(const std::string& host_header) const;

 private:
  struct Entry {
    std::string name;  // lower case; IPv6 literals with their brackets
    int port;          // -1: any
  };
  std::vector<Entry> entries_;
};

/// Checks an --allow-host value (InputError naming it if malformed).
void check_allow_host(const std::string& value);

/// Applies the rules above to `server` before it listens: `csp` is the page's policy (frame-ancestors is added).
void harden_dashboard_server(httplib::Server& server, const HostAllowList& hosts, const std::string& csp);

}  // namespace kbo::cli
