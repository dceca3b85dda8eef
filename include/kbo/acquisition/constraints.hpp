#pragma once
// Outcome constraints (Gardner et al. 2014; Gelbart et al. 2014): each constraint c_j(x) <= 0 is modelled
// by its own GP, and the acquisition is weighted by the probability that a point is feasible,
//   a_c(x) = a(x) + Σ_j log P(c_j(x) <= 0),
// in log space, so that tiny probabilities never underflow to 0 (and gradients stay informative far from
// the feasible region). For log-EI / log-PI this is exactly log(EI · PoF) (EI with the incumbent the best
// FEASIBLE value); for UCB it adds a log-barrier that excludes points that are surely infeasible and leaves
// points that are surely feasible unchanged. Before any feasible point is known the base is dropped: the
// search maximises the probability of feasibility alone.
#include <memory>
#include <vector>

#include "kbo/acquisition/acquisition.hpp"

namespace kbo {

/// log P(c(x) <= 0) for a GP fitted to the NEGATED constraint values −c (so that feasibility is the GP
/// being >= 0): log Φ(μ/σ), the log-PI of −c over the incumbent 0.
std::unique_ptr<Acquisition> log_probability_of_feasibility(const GP& negated_constraint_gp);

class ConstrainedAcquisition : public Acquisition {
 public:
  /// base may be nullptr (no feasible point yet: maximise the probability of feasibility).
  ConstrainedAcquisition(std::unique_ptr<Acquisition> base, std::vector<std::unique_ptr<Acquisition>> log_feasibility);
  double value(const Vec& x) const override;
  double value_and_gradient(const Vec& x, Vec& grad) const override;
  Vec values(const Mat& X) const override;
  const Acquisition* base() const { return base_.get(); }

 private:
  std::unique_ptr<Acquisition> base_;
  std::vector<std::unique_ptr<Acquisition>> parts_;
};

}  // namespace kbo
