#pragma once
// WLAN access-point placement simulator (paper 003, App. E; docs/papers.md#invariance-wlan): K APs placed in a
// square area, U users at fixed random positions, each user associated to its NEAREST AP. Received power by the
// log-distance path-loss model P[dBm] = P_tx − (L0 + 10 γ log10(max(d, d0)/d0)); SINR of user u with AP a:
// P_{a,u} / (N0 + Σ_{a'≠a} P_{a',u}) (all in mW, every AP transmitting: worst-case interference);
// QoS = Shannon capacity B log2(1 + SINR) in Mbps; objective = Σ_u QoS (to MAXIMISE). Invariant under
// permutations of the APs (blocks of 2 coordinates: x = (x_1, y_1, ..., x_K, y_K)).
//
// The paper's constants were lost in the available text; kbo's choices (WlanConfig defaults):
// 4 APs, 40 users uniform on a 100 m x 100 m area (seed 2024), B = 20 MHz, P_tx = 20 dBm,
// L0 = 40 dB at d0 = 1 m (free space at 2.4 GHz), γ = 3 (indoor), N0 = −90 dBm.
#include <cstdint>

#include "kbo/core/linalg.hpp"

namespace kbo::bench {

struct WlanConfig {
  int aps = 4;
  int users = 40;
  double side = 100.0;        // m
  double bandwidth = 20.0;    // MHz
  double tx_power_dbm = 20.0;
  double l0_db = 40.0;        // path loss at d0
  double d0 = 1.0;            // m
  double gamma = 3.0;
  double noise_dbm = -90.0;
  std::uint64_t user_seed = 2024;
};

class Wlan {
 public:
  explicit Wlan(WlanConfig c = {});
  int dim() const { return 2 * cfg_.aps; }
  /// Sum of the users' Shannon capacities (Mbps) for AP positions x (metres, 2K entries).
  double throughput(const Vec& x) const;
  const Mat& users() const { return users_; }  // U x 2
  const WlanConfig& config() const { return cfg_; }

 private:
  WlanConfig cfg_;
  Mat users_;
};

}  // namespace kbo::bench
