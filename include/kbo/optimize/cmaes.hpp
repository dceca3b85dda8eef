#pragma once
// CMA-ES (Hansen 2016 tutorial, (μ/μ_w, λ) with rank-one and rank-μ updates) maximising over a box.
// Candidates are clamped to the box and then passed through `project` (e.g. SetSpace canonicalisation),
// so the search stays in a canonical region.
#include <functional>

#include "kbo/optimize/optimizer.hpp"

namespace kbo {

struct CmaesOptions {
  double sigma0 = 0.3;       // initial step size as a fraction of the box width
  int population = 0;        // λ; 0 ⇒ 4 + floor(3 ln D)
  int max_evaluations = 2000;
  double tol_fun = 1e-10;    // stop when the best value changes less than this over 10+30D/λ generations
  double tol_x = 1e-10;      // stop when σ·max(sqrt(diag C)) < tol_x·width
  std::function<void(Vec&)> project;  // optional projection onto a canonical region
  std::uint64_t seed = 0;
  /// Optional batched objective: values at the rows of a matrix (one call per generation, e.g.
  /// Acquisition::values, which predicts all λ points with one GP solve). Must agree with f.
  std::function<Vec(const Mat&)> batch_objective;
};

OptResult cmaes_maximize(const Objective& f, const Vec& x0, const Box& box, const CmaesOptions& opt = {});

}  // namespace kbo
