// Batch runs (q simulated workers) of the A-GP-UCB baselines (HyperGpucbStrategy: fixed, MAP, HMC
// lengthscales) under three fantasy modes, on Branin: the measurement behind "Shared pieces: clamp and
// fantasy in the baselines" in docs/bench/adaptive.md. Protocol as `kbo bench parallel`: 4 uniform initial
// points, then batches of q suggestions, each asked with the batch's earlier points pending.
// Prints per (mode, fantasy): mean ± std over seeds of the final simple regret, suggestions within 1e-9
// of a pending point, suggestions the strategy replaced by a random point, and a checksum of all points.
// Build and run: scripts/adaptive_batch_fantasy.sh [build dir] [seeds] [q] [budget]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kbo/adaptive/agpucb.hpp"
#include "kbo/optimize/problems.hpp"

using namespace kbo;

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 5;
  const int q = argc > 2 ? std::atoi(argv[2]) : 4;
  const int budget = argc > 3 ? std::atoi(argv[3]) : 40;
  const Problem p = make_problem("branin");
  auto space = std::make_shared<BoxSpace>(p.bounds);
  const int D = space->dim();
  for (HyperMode mode : {HyperMode::Fixed, HyperMode::Map, HyperMode::Hmc}) {
    for (std::string fantasy : {"kriging_believer", "constant_liar_worst", "none"}) {
      std::vector<double> finals;
      int repeats = 0, replaced = 0;
      double checksum = 0.0;
      for (int seed = 0; seed < seeds; ++seed) {
        StrategyConfig c;
        c.n_init = 4;
        c.init_method = SamplingMethod::Uniform;
        c.seed = static_cast<std::uint64_t>(seed);
        c.acq_optimizer.raw_samples = 256;
        c.acq_optimizer.num_starts = 4;
        c.acq_optimizer.threads = 1;
        c.fantasy = fantasy;
        BaselineOptions o;
        o.mode = mode;
        o.theta = {0.2};
        o.hmc_warmup = 40;
        o.hmc_samples = 20;
        o.hmc_keep = 4;
        o.hmc_leapfrog = 6;
        HyperGpucbStrategy s(c, space, o);
        Mat X(0, D);
        Vec y(0);
        double best = 1e300;
        int index = 0;
        auto tell = [&](const Mat& batch) {
          for (Eigen::Index i = 0; i < batch.rows(); ++i) {
            const double f = p.f(batch.row(i).transpose());
            best = std::min(best, f);
            X.conservativeResize(X.rows() + 1, Eigen::NoChange);
            X.row(X.rows() - 1) = batch.row(i);
            y.conservativeResize(y.size() + 1);
            y[y.size() - 1] = -f;
            checksum += batch.row(i).sum() * (1 + 1e-3 * index);
          }
        };
        Mat design(c.n_init, D);
        for (int i = 0; i < c.n_init; ++i) design.row(i) = s.suggest(X, y, Mat(0, D), index++).transpose();
        tell(design);
        while (index < budget) {
          const int b = std::min(q, budget - index);
          Mat pending(0, D);
          for (int k = 0; k < b; ++k) {
            const Vec x = s.suggest(X, y, pending, index++);
            if (s.last_info().value("repeat_replaced_by_random", false)) ++replaced;
            for (Eigen::Index r = 0; r < pending.rows(); ++r)
              if ((space->bounds().to_unit(pending.row(r).transpose()) - space->bounds().to_unit(x)).norm() < 1e-9)
                ++repeats;
            pending.conservativeResize(pending.rows() + 1, Eigen::NoChange);
            pending.row(pending.rows() - 1) = x.transpose();
          }
          tell(pending);
        }
        finals.push_back(best - p.optimum);
      }
      double m = 0, v = 0;
      for (double f : finals) m += f / finals.size();
      for (double f : finals) v += (f - m) * (f - m) / std::max<size_t>(1, finals.size() - 1);
      const char* name = mode == HyperMode::Fixed ? "fixed" : mode == HyperMode::Map ? "map" : "hmc";
      std::printf("%-6s %-20s simple regret %.4f ± %.4f  repeats %d  replaced %d  checksum %.10g\n", name,
                  fantasy.c_str(), m, std::sqrt(v), repeats, replaced, checksum);
    }
  }
}
