#pragma once
// Set-valued test problems and the BO-over-sets baselines of paper 001 (docs/papers.md#sets-baselines,
// #sets-synthetic-functions).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kbo/sets/set_space.hpp"
#include "kbo/strategy/strategy.hpp"

namespace kbo::bench {

/// A set function to MINIMISE: f(X) = (1/m) Σ_i g(x_i) over sets of m elements of `element_box`.
struct SetProblem {
  std::string name;
  int m = 0, d = 0;
  Box element_box;
  std::function<double(const Vec& flat_set)> f;
  double optimum = 0.0;  // min f = min g (all elements at a minimiser of g)
};

/// Synthetic 1 (d = 1): g(x) = sin(2‖x‖) + |0.05‖x‖| on [−10, 10] (domain: ASSUMPTION,
/// docs/papers.md#sets-synthetic-functions).
SetProblem synthetic1(int m = 20);
/// Synthetic 2 (d = 2): g(x) = −Σ_{i=1..8} N(x; μ_i, I₂) on [−10, 10]², μ_i on the circle of radius 6
/// around the origin at angles 2πi/8 (the paper's means are only drawn in its Fig. 3: ASSUMPTION).
SetProblem synthetic2(int m = 20);
std::vector<Vec> synthetic2_means();

/// "Split" baseline (docs/papers.md#sets-baselines): m independent GP-BO problems on R^d. Observed sets are
/// ordered by ascending ℓ2 norm; the i-th elements with the shared y form the i-th data set; each BO proposes
/// one element and the m proposals form the next set. Sub-strategies use `config` with seeds seed+i.
class SplitStrategy : public Strategy {
 public:
  SplitStrategy(const StrategyConfig& config, std::shared_ptr<const SetSpace> space);
  Vec suggest(const Mat& X, const Vec& y, const Mat& pending, int trial_index) override;
  std::string name() const override { return "split"; }

 private:
  std::shared_ptr<const SetSpace> space_;
  std::vector<std::unique_ptr<Strategy>> parts_;
};

/// The methods of Table 2 / Fig. 4: "vector", "split", "set" (full set kernel), "approx-L" (approximate
/// set kernel with L elements). Every GP method maximises UCB with CMA-ES (the set kernel on the
/// canonical region by sorting), as in the paper. InputError for unknown names.
std::unique_ptr<Strategy> make_set_method(const std::string& method, const SetProblem& problem,
                                          const StrategyConfig& base_config);

struct SetRunResult {
  std::vector<double> best_so_far;  // after each evaluation (minimisation)
  double seconds = 0.0;             // wall time of the whole run, objective evaluations included
  double model_seconds = 0.0;       // time spent in suggest()
  double cpu_seconds = 0.0;         // process CPU time of the whole run (all threads)
  Vec best_set;
};
/// Runs `budget` evaluations of problem.f with `strategy` (ask/tell loop, no pending points).
SetRunResult run_set_bo(Strategy& strategy, const SetProblem& problem, int budget);

}  // namespace kbo::bench
