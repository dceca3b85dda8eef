"""kbo's GP-BO as an Optuna sampler: an Optuna user tries kbo by changing one line.

    import optuna, kbo.integrations.optuna
    study = optuna.create_study(sampler=kbo.integrations.optuna.KboSampler())
    study.optimize(objective, n_trials=40)

Relative sampling: at every trial the search space shared by the completed trials (Optuna's intersection
search space) becomes a kbo params space (FloatDistribution -> kbo.Float, IntDistribution -> kbo.Int,
CategoricalDistribution -> kbo.Categorical over the choices' positions), the completed (and failed) trials
are told to an in-memory kbo study, the running ones are pending (so parallel Optuna workers get different
points), and kbo suggests the next point: while fewer than n_startup_trials trials exist, a point of kbo's
space-filling initial design (Sobol, as kbo.minimize starts), then GP-BO. Parameters outside that space, and
all of the first trial's (no space is known before a trial completes), are sampled independently by
`independent_sampler` (default Optuna's RandomSampler), as Optuna's own GP/TPE samplers fall back.

Multi-objective studies (optuna.create_study(directions=[...])) run kbo's multi-objective strategy: one GP
per objective and logEHVI (2-3 objectives) or random Chebyshev scalarisations (more).
"""
from __future__ import annotations

import math
import random
from typing import Any, Dict, Optional, Sequence

import optuna
from optuna.distributions import BaseDistribution, CategoricalDistribution, FloatDistribution, IntDistribution
from optuna.samplers import BaseSampler, RandomSampler
try:  # Optuna >= 3.2
    from optuna.search_space import IntersectionSearchSpace
except ImportError:  # Debian bookworm's Optuna 3.1
    from optuna.samplers import IntersectionSearchSpace
from optuna.trial import FrozenTrial, TrialState

import kbo

__all__ = ["KboSampler"]


def _spec(dist: BaseDistribution) -> Any:
    """A kbo parameter for an Optuna distribution (None: not representable, sampled independently)."""
    if isinstance(dist, FloatDistribution):
        if dist.step is not None:  # a grid low + k*step: an integer k
            return kbo.Int(0, int(round((dist.high - dist.low) / dist.step)))
        return kbo.Float(dist.low, dist.high, log=dist.log)
    if isinstance(dist, IntDistribution):
        if dist.step != 1:
            return kbo.Int(0, (dist.high - dist.low) // dist.step)
        return kbo.Int(dist.low, dist.high, log=dist.log)
    if isinstance(dist, CategoricalDistribution):
        return kbo.Categorical(list(range(len(dist.choices))))
    return None


def _to_kbo(dist: BaseDistribution, value: Any) -> Any:
    if isinstance(dist, FloatDistribution) and dist.step is not None:
        return int(round((value - dist.low) / dist.step))
    if isinstance(dist, IntDistribution) and dist.step != 1:
        return int((value - dist.low) // dist.step)
    if isinstance(dist, CategoricalDistribution):
        return dist.to_internal_repr(value)
    return value


def _from_kbo(dist: BaseDistribution, value: Any) -> Any:
    if isinstance(dist, FloatDistribution):
        v = dist.low + value * dist.step if dist.step is not None else float(value)
        return min(max(v, dist.low), dist.high)
    if isinstance(dist, IntDistribution):
        return int(dist.low + value * dist.step) if dist.step != 1 else int(value)
    if isinstance(dist, CategoricalDistribution):
        return dist.to_external_repr(int(value))
    return value


class KboSampler(BaseSampler):
    """An Optuna sampler running kbo's GP-BO (one objective, or several: kbo's multi-objective strategy).

    KboSampler(seed=None, n_startup_trials=5, independent_sampler=None, **options): n_startup_trials is the
    size of kbo's initial design (kbo.minimize's init); options are kbo's study options (kernel, acq, beta,
    fit_restarts, ...; see kbo.minimize)."""

    def __init__(self, seed: Optional[int] = None, n_startup_trials: int = 5,
                 independent_sampler: Optional[BaseSampler] = None, **options: Any):
        if n_startup_trials < 1:
            raise ValueError("n_startup_trials must be >= 1")
        # seed None: a fresh random seed per sampler (as Optuna's samplers), fixed for its study.
        self._seed = random.SystemRandom().randrange(2 ** 31) if seed is None else int(seed)
        self._n_startup = int(n_startup_trials)
        self._independent = independent_sampler or RandomSampler(seed=seed)
        self._search_space = IntersectionSearchSpace()
        self._options = dict(options)

    def reseed_rng(self) -> None:
        self._independent.reseed_rng()

    def infer_relative_search_space(self, study: optuna.Study, trial: FrozenTrial) -> Dict[str, BaseDistribution]:
        space = {}
        for name, dist in self._search_space.calculate(study).items():
            if dist.single() or _spec(dist) is None:
                continue
            space[name] = dist
        return space

    def sample_relative(self, study: optuna.Study, trial: FrozenTrial,
                        search_space: Dict[str, BaseDistribution]) -> Dict[str, Any]:
        if not search_space:
            return {}
        several = len(study.directions) > 1
        done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
                if all(n in t.params for n in search_space) and t.values is not None
                and all(math.isfinite(v) for v in t.values)]
        failed = [t for t in study.get_trials(deepcopy=False, states=(TrialState.FAIL,))
                  if all(n in t.params for n in search_space)]
        running = [t for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
                   if t.number != trial.number and all(n in t.params for n in search_space)]
        names = sorted(search_space)
        params = {n: _spec(search_space[n]) for n in names}
        directions = ["maximize" if d == optuna.study.StudyDirection.MAXIMIZE else "minimize"
                      for d in study.directions]
        options = dict(self._options)
        # One seed for the whole study: the initial design is one Sobol sequence, as in kbo.minimize
        # (its i-th point goes to the study's i-th trial).
        options.setdefault("seed", self._seed)
        if several:
            s = kbo.Study(None, "optuna", params, directions=directions, init=self._n_startup, **options)
        else:
            s = kbo.Study(None, "optuna", params, direction=directions[0], init=self._n_startup, **options)
        for t in done:
            point = {n: _to_kbo(search_space[n], t.params[n]) for n in names}
            s.tell(point, [float(v) for v in t.values] if several else float(t.value))
        for t in failed:  # avoided by the model, and they take their place in the initial design
            s.enqueue({n: _to_kbo(search_space[n], t.params[n]) for n in names})
            s.tell_failed(s.ask(), "failed in Optuna")
        for t in running:  # pending: the model fantasises them, so parallel workers spread out
            s.enqueue({n: _to_kbo(search_space[n], t.params[n]) for n in names})
            s.ask()  # hands the queued point out (pending, asked), so the ask below is a new suggestion
        suggestion = s.params(s.ask())
        return {n: _from_kbo(search_space[n], suggestion[n]) for n in names}

    def sample_independent(self, study: optuna.Study, trial: FrozenTrial, param_name: str,
                           param_distribution: BaseDistribution) -> Any:
        return self._independent.sample_independent(study, trial, param_name, param_distribution)
