// WLAN simulator (see wlan.hpp).
#include "wlan.hpp"

#include <cmath>

#include "kbo/core/random.hpp"

namespace kbo::bench {

Wlan::Wlan(WlanConfig c) : cfg_(c) {
  if (cfg_.aps < 1 || cfg_.users < 1) throw InputError("wlan: need at least one AP and one user");
  Rng rng = make_rng(cfg_.user_seed);
  std::uniform_real_distribution<double> u(0.0, cfg_.side);
  users_.resize(cfg_.users, 2);
  for (int i = 0; i < cfg_.users; ++i) {
    users_(i, 0) = u(rng);
    users_(i, 1) = u(rng);
  }
}

double Wlan::throughput(const Vec& x) const {
  if (x.size() != dim()) throw InputError("wlan: expected " + std::to_string(dim()) + " coordinates");
  const int K = cfg_.aps;
  const double n0 = std::pow(10.0, cfg_.noise_dbm / 10.0);
  double total = 0.0;
  std::vector<double> p(K), d(K);
  for (int u = 0; u < cfg_.users; ++u) {
    int best = 0;
    for (int a = 0; a < K; ++a) {
      d[a] = std::hypot(x[2 * a] - users_(u, 0), x[2 * a + 1] - users_(u, 1));
      const double loss = cfg_.l0_db + 10.0 * cfg_.gamma * std::log10(std::max(d[a], cfg_.d0) / cfg_.d0);
      p[a] = std::pow(10.0, (cfg_.tx_power_dbm - loss) / 10.0);  // mW
      if (d[a] < d[best]) best = a;
    }
    double interference = 0.0;
    for (int a = 0; a < K; ++a)
      if (a != best) interference += p[a];
    const double sinr = p[best] / (n0 + interference);
    total += cfg_.bandwidth * std::log2(1.0 + sinr);
  }
  return total;
}

}  // namespace kbo::bench
