#pragma once
// The trust region of BOStrategy's local steps (BOModelOptions::local_radius), as TuRBO keeps it (Eriksson
// et al. 2019, "Scalable global optimization via local Bayesian optimization"): a radius that halves after
// `fail` consecutive local steps that did not improve the incumbent and doubles after `succ` consecutive
// ones that did. It is not stored anywhere: it is replayed from the trial history at every suggestion, so a
// resumed study, another worker or a fresh `kbo ask` process sees the same radius as the process that
// took the steps.
#include <functional>

#include "kbo/core/linalg.hpp"

namespace kbo {

struct TrustRegionRule {
  double initial = 0.1;  // half width of the region (unit-cube units) before the first local step
  double min = 1e-6;     // bounds of the half width
  double max = 0.5;
  int fail = 4;          // consecutive failed local steps that halve it
  int succ = 3;          // consecutive successful local steps that double it
  // After `restart` halvings in a row with no successful local step in between (0 ⇒ never), the next
  // scheduled local step is a global step instead and the region restarts at `initial` around the incumbent
  // then: TuRBO restarts a region whose radius collapsed; counting only halvings without a success keeps a
  // region that still improves, however slowly, converging (a collapse measured on the radius alone stopped
  // the precise convergence BBOB d = 2 needs: docs/bench/bbob.md).
  int restart = 0;
  // The restart's step: a global step (true; the region restarts at `initial`), or none — the region is
  // reset at once to the radius at which a local step last succeeded (`initial` if none did since the region
  // began), the scale where progress was last made: a reset to `initial` undid the convergence of long runs.
  bool restart_global = true;
  // At most this many restarts in a history (0 ⇒ no limit). A converged region fails most of its steps
  // as a stalled one does; in a short end-game a restart is what a stalled region needs, in a long one
  // (hundreds of steps) restarts that keep firing after convergence hold the region at scales where no
  // step can succeed (Ackley-10 after 1,000 evaluations: 1.5e-4 instead of 1e-5; docs/bench/bbob.md).
  int restart_max = 0;
};

struct TrustRegion {
  double radius = 0.0;   // half width now
  int local_steps = 0;   // local steps replayed
  int successes = 0;     // current run of successful / failed local steps (reset when the radius changes)
  int failures = 0;
  int halvings = 0;      // how often the radius was halved / doubled
  int doublings = 0;
  int restarts = 0;      // restarts of the region (with restart_global: scheduled steps taken as global steps)
  double success_radius = 0.0;  // the radius of the last successful local step (initial if none yet)
  int stalled = 0;       // halvings since the last successful local step or restart
  bool restart_due = false;  // the next scheduled local step is a restart (stalled reached rule.restart)
};

/// Replays the local steps of a history. y: the values (to maximise) of the trials in the order they were
/// made; is_local(i): trial i was scheduled as a local step (with rule.restart, a scheduled step taken while
/// restart_due was a global restart step: it resets the region and is not counted in local_steps). A local
/// step succeeds when its value is strictly above every value before it (translation- and scale-invariant,
/// unlike TuRBO's 1e-3·|best| margin, which depends on the objective's offset). Other trials move the
/// incumbent but leave the counters alone.
TrustRegion replay_trust_region(const Vec& y, const std::function<bool(int)>& is_local, const TrustRegionRule& rule);

}  // namespace kbo
