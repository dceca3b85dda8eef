// Probability-of-feasibility weighting of acquisitions (see kbo/acquisition/constraints.hpp).
#include "kbo/acquisition/constraints.hpp"

#include "kbo/core/error.hpp"

namespace kbo {

std::unique_ptr<Acquisition> log_probability_of_feasibility(const GP& negated_constraint_gp) {
  return std::make_unique<LogProbabilityOfImprovement>(negated_constraint_gp, 0.0);
}

ConstrainedAcquisition::ConstrainedAcquisition(std::unique_ptr<Acquisition> base,
                                               std::vector<std::unique_ptr<Acquisition>> log_feasibility)
    : base_(std::move(base)), parts_(std::move(log_feasibility)) {
  if (!base_ && parts_.empty()) throw InputError("constrained acquisition: needs a base or a constraint");
}

double ConstrainedAcquisition::value(const Vec& x) const {
  double v = base_ ? base_->value(x) : 0.0;
  for (const auto& p : parts_) v += p->value(x);
  return v;
}

double ConstrainedAcquisition::value_and_gradient(const Vec& x, Vec& grad) const {
  grad = Vec::Zero(x.size());
  Vec g;
  double v = 0.0;
  if (base_) {
    v = base_->value_and_gradient(x, g);
    grad += g;
  }
  for (const auto& p : parts_) {
    v += p->value_and_gradient(x, g);
    grad += g;
  }
  return v;
}

Vec ConstrainedAcquisition::values(const Mat& X) const {
  Vec v = base_ ? base_->values(X) : Vec::Zero(X.rows());
  for (const auto& p : parts_) v += p->values(X);
  return v;
}

}  // namespace kbo
