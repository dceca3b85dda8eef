#pragma once
// Acquisition maximisation front-end: multi-start (Sobol candidates → best few → L-BFGS polish with
// analytic gradients, in parallel over the machine's cores), CMA-ES (multi-start) or DIRECT.
#include <functional>
#include <string>

#include "kbo/acquisition/acquisition.hpp"
#include "kbo/core/fields.hpp"
#include "kbo/optimize/cmaes.hpp"
#include "kbo/core/space.hpp"

namespace kbo {

enum class AcqOptimizerType { MultiStart, Cmaes, Direct };
template <>
struct EnumNames<AcqOptimizerType> {
  static constexpr std::array<std::pair<AcqOptimizerType, const char*>, 3> table{
      {{AcqOptimizerType::MultiStart, "multistart"}, {AcqOptimizerType::Cmaes, "cmaes"},
       {AcqOptimizerType::Direct, "direct"}}};
};
AcqOptimizerType parse_acq_optimizer(const std::string& name);  // "multistart" | "cmaes" | "direct"

// X(type, name, default): the fields stored with a study (see kbo/core/fields.hpp).
#define KBO_ACQ_OPTIMIZER_FIELDS(X)                                                                         \
  X(AcqOptimizerType, type, AcqOptimizerType::MultiStart)                                                   \
  X(int, raw_samples, 512)       /* Sobol candidates scored before polishing */                              \
  X(int, num_starts, 8)          /* best candidates polished (plus the `extra_starts`) */                    \
  X(int, max_evaluations, 200)   /* per local run (L-BFGS / CMA-ES); total for DIRECT */                     \
  X(double, cmaes_sigma0, 0.1)   /* CMA-ES initial step (fraction of the box width) for each start */

struct AcqOptimizerOptions {
  KBO_ACQ_OPTIMIZER_FIELDS(KBO_FIELD_MEMBER)
  // Per process / per suggestion, never stored: the strategy sets the seed for each suggestion.
  int threads = 0;           // 0 ⇒ std::thread::hardware_concurrency()
  std::uint64_t seed = 0;
  bool operator==(const AcqOptimizerOptions&) const = default;
};

/// visit_fields(object, visitor): visitor(name, field) for every field of the list, in order.
KBO_VISIT_FIELDS(AcqOptimizerOptions, KBO_ACQ_OPTIMIZER_FIELDS)

/// Which points the caller accepts as a result (empty: all).
using Admissible = std::function<bool(const Vec&)>;

/// Maximises `acq` over `space` (its box; candidates and results canonicalised by the space).
/// `extra_starts` (e.g. the incumbent, rows) are always among the starting points.
/// With `admissible`, the result is the best polished start it accepts; when it refuses every one (they all
/// climbed into the refused region), the best accepted start before polishing; only when it refuses those
/// too, the best of all. OptResult::inadmissible counts the refused polished starts. DIRECT: its point if
/// accepted, else the best accepted extra start (inadmissible 1).
OptResult maximize_acquisition(const Acquisition& acq, const Space& space, const AcqOptimizerOptions& options,
                               const Mat& extra_starts = Mat(), const Admissible& admissible = {});

/// Same, for a plain objective (used e.g. by A-GP-UCB's inner searches and KFO). With MultiStart the
/// objective must fill the gradient (L-BFGS); use Cmaes or Direct for gradient-free objectives. With
/// threads != 1 the objective is called from several threads at once and must be thread-safe.
OptResult maximize_objective(const Objective& f, const Space& space, const AcqOptimizerOptions& options,
                             const Mat& extra_starts = Mat());

}  // namespace kbo
