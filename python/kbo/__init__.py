"""kbo: Bayesian optimisation with structure-aware Gaussian-process kernels.

The Python face of the kbo C++ library: the same engine, studies and storage as the `kbo` command line.

    import kbo
    res = kbo.minimize(lambda p: (p["C"] - 3) ** 2 + (p["kernel"] != "rbf"),
                       {"C": kbo.Float(0.01, 100, log=True), "kernel": kbo.Categorical(["rbf", "poly"])}, iters=20)
    res.best_params, res.best_value        # {"C": 2.9988, "kernel": "rbf"}, 1.4e-06
    res.trials[0].params                   # every trial's values, in the order of the dict

    res = kbo.minimize(lambda x: float((x ** 2).sum()), [(-1, 1), (-1, 1)], iters=20, seed=0)
    res.best_x, res.best_value, res.X, res.values

Options are the CLI's (`kbo optimize --help`), with '_' for '-': kbo.minimize(..., fit_restarts=3,
beta=2.0, acq_optimizer="cmaes") runs what `kbo optimize --fit-restarts 3 --beta 2 --acq-optimizer cmaes`
runs, and the same seed gives the same trials. Studies kept in `storage="sqlite:PATH"` are shared with
`kbo optimize/ask/tell/show`.

Errors: kbo.InputError (a ValueError) for bad input, kbo.NumericalError (a RuntimeError), kbo.StorageError (an
OSError: disk full, database server unreachable; committed trials are kept).
"""
from __future__ import annotations

import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _kbo
from . import kernels, kfo, plot  # noqa: F401  (public submodules; plot imports matplotlib only when used)
from ._kbo import GP, InputError, NumericalError, Problem, StorageError, Trial, problem, problem_names
from ._params import Categorical, Fixed, Float, Int, Param, params_spec
from ._util import bounds_pairs, storage_url

__version__ = "0.1.0"

Callback = Callable[[Trial, int, int, Optional[Trial]], Any]


class Result:
    """What kbo.minimize/maximize and Study.optimize return.

    best_params: the best complete trial's parameters {name: value} in the order the space was given (the
    dict passed as bounds), with each value in its type (float, int, the choice); None for a box or set space
    or when no trial is complete. params: every trial's {name: value} (None for a box or set space).
    best_value, best_trial: the best complete trial's value and id (None if there is none); for a noisy study
    (a trial reports a sem, or two evaluations of one point differ) the recommended trial's.
    recommended: for a noisy study the trial of the best posterior mean under its fitted model, else the best
    observed trial; {"trial", "x", ("params"), "value", "mean", "sd", "by"} (mean and sd: the model's posterior
    there in the objective's units, None without a fitted model; by: "posterior_mean" or "best_observed");
    best_observed: the trial of the best observed value, {"trial", "x", ("params"), "value"}. Both None without
    a complete trial (and for several objectives).
    best_x: the best point as the model sees it, the ENCODED vector (a log parameter as its natural log, a
    categorical as one 0/1 coordinate per choice, in the order of the space); for a box or set space it is
    the point itself. trials: every trial of the study (kbo.Trial, with .params); X: (n, D) array of their
    encoded points; values: (n,) array of their values (nan for failed/pending trials); states: their
    states; interrupted: True if Ctrl-C stopped a run started with catch_interrupt=True (completed trials are
    kept); study: the kbo.Study.
    """

    def __init__(self, study: "Study", interrupted: bool = False):
        self.study = study
        self.interrupted = interrupted
        self._dict = study.to_dict()
        self.trials: List[Trial] = study.trials
        self.best_trial: Optional[int] = self._dict["best_trial"]
        self.best_value: Optional[float] = self._dict["best_value"]
        self.best_x: Optional[np.ndarray] = None if self._dict["best_x"] is None else np.array(self._dict["best_x"])
        self.recommended: Optional[Dict[str, Any]] = self._dict.get("recommended")
        self.best_observed: Optional[Dict[str, Any]] = self._dict.get("best_observed")
        self.X = np.array([t.x for t in self.trials], dtype=float).reshape(len(self.trials), study.dim)
        self.values = np.array([np.nan if t.value is None else t.value for t in self.trials], dtype=float)
        self.states: List[str] = [t.state for t in self.trials]
        # Params spaces: the best point and every trial's point as {name: typed value}, in the space's order
        # (the JSON object of to_dict() is sorted by name).
        order = study._s.param_names
        self.best_params: Optional[Dict[str, Any]] = (
            None if self._dict.get("best_params") is None else {k: self._dict["best_params"][k] for k in order})
        self.params: Optional[List[Dict[str, Any]]] = (
            [t.params for t in self.trials] if "best_params" in self._dict else None)
        # Several objectives: the non-dominated complete (feasible) trials, each {"id", "values", "x"(,
        # "params")}, and {"value", "reference_point", "reference"} of the hypervolume they dominate; None
        # for one objective.
        self.pareto_front: Optional[List[Dict[str, Any]]] = self._dict.get("pareto_front")
        self.hypervolume: Optional[Dict[str, Any]] = self._dict.get("hypervolume")

    @property
    def minimize(self) -> bool:
        return self.study.direction == "minimize"

    def best_so_far(self) -> np.ndarray:
        """Best value among the first i+1 trials, for every i (nan until the first complete trial)."""
        v = np.where(np.isnan(self.values), np.inf if self.minimize else -np.inf, self.values)
        best = np.minimum.accumulate(v) if self.minimize else np.maximum.accumulate(v)
        return np.where(np.isinf(best), np.nan, best)

    def to_dict(self) -> Dict[str, Any]:
        """The `kbo show --json` object of the study (trials as dicts)."""
        return dict(self._dict)

    def __repr__(self) -> str:
        n_ok = self.states.count("complete")
        best = f"best_params={self.best_params!r}" if self.params is not None else f"best_x={self.best_x!r}"
        return (f"Result(best_value={self.best_value!r}, best_trial={self.best_trial}, "
                f"{best}, trials={len(self.trials)} ({n_ok} complete)"
                f"{', interrupted' if self.interrupted else ''})")


class Study:
    """A named, persistent sequence of trials with ask/tell, the same object as the CLI's studies.

    Study(storage=None, name=None, bounds=None, *, direction=None, problem=None, **options)

    storage: None (in memory, this object only), "sqlite:PATH" (or a file path such as "s.db"; malformed
    shapes raise kbo.InputError naming the allowed ones), shared with `kbo optimize/ask/tell/show --storage
    sqlite:PATH --study NAME`; name: the study's name ("default"). Left out, both come from config= if it
    sets them (relative paths in a config file are relative to the file). With bounds ((D, 2) array of [lower, upper]) or problem
    (a built-in problem name or kbo.Problem) the study is created if absent (direction default
    "minimize"); without them an existing study is opened with its stored configuration, which the given
    options override (as `kbo ask`). options: the CLI's study options with '_' for '-': kernel, ard, acq,
    beta, beta_schedule, init, init_method, fit_restarts, seed, acq_optimizer, strategy, invariance,
    invariant_kernel, space ("box" | "set"), set_size, set_kernel, set_L, options (dict), config (TOML file).
    """

    def __init__(self, storage: Any = None, name: Optional[str] = None, bounds: Any = None, *,
                 direction: Optional[str] = None, problem: Union[str, Problem, None] = None, **options: Any):
        # storage and name left out defer to a config file's (whose relative paths are relative to it);
        # without one they are memory and "default".
        kwargs: Dict[str, Any] = {}
        if storage is not None or "config" not in options:
            kwargs["storage"] = storage_url(storage)
        if name is not None or "config" not in options:
            kwargs["study"] = "default" if name is None else str(name)
        if bounds is not None and problem is not None:
            raise ValueError("give bounds or problem, not both (a problem has its own bounds)")
        if isinstance(bounds, Mapping):
            # Named, typed parameters: a params space, stored as a list so that its order is the dict's.
            kwargs["params"] = params_spec(bounds)
        elif bounds is not None:
            kwargs["bounds"] = bounds_pairs(bounds)
        elif isinstance(problem, Problem):
            kwargs.update(problem=problem.name, dim=problem.dim)
        elif problem is not None:
            kwargs["problem"] = str(problem)
        elif storage is None and "config" not in options:
            raise ValueError("an in-memory study (storage=None) needs bounds=... or problem=...")
        directions = options.pop("directions", None)
        if direction is not None and directions is not None:
            raise ValueError("give direction (one objective) or directions (several), not both")
        if directions is not None:
            if isinstance(directions, str) or not isinstance(directions, Sequence):
                raise ValueError(f"directions must be a list such as ['minimize', 'maximize'] (got {directions!r})")
            kwargs["directions"] = [str(d) for d in directions]
        if direction is not None:
            if direction not in ("minimize", "maximize"):
                raise ValueError(f"direction must be 'minimize' or 'maximize' (got {direction!r})")
            kwargs[direction] = True
        for key in ("storage", "study", "bounds", "problem", "dim", "minimize", "maximize"):
            if key in options:
                raise TypeError(f"unexpected keyword '{key}' (use the Study argument for it)")
        kwargs.update(options)
        try:
            self._s = _kbo._Study(kwargs)
        except InputError as e:
            # A study created by an older kbo stored a dict's parameters sorted by name: reopen it as it is.
            if not (isinstance(bounds, Mapping) and "exists with a different space" in str(e)):
                raise
            kwargs["params"] = {name: (p.split("=", 1)[1] if isinstance(p, str) else
                                       {k: v for k, v in p.items() if k != "name"})
                                for name, p in zip(bounds, kwargs["params"])}
            try:
                self._s = _kbo._Study(kwargs)
            except InputError:
                raise e from None

    # ---- identity ----
    @property
    def name(self) -> str:
        return self._s.name

    @property
    def storage(self) -> str:
        return self._s.storage

    @property
    def direction(self) -> str:
        return "minimize" if self._s.minimize else "maximize"

    @property
    def directions(self) -> List[str]:
        """One "minimize" | "maximize" per objective (one entry for a one-objective study)."""
        return list(self._s.directions)

    @property
    def dim(self) -> int:
        return self._s.dim

    @property
    def bounds(self) -> np.ndarray:
        """(D, 2) array of [lower, upper] (for set spaces: the box of every coordinate)."""
        return self._s.bounds

    @property
    def space(self) -> Dict[str, Any]:
        return self._s.space

    @property
    def named(self) -> bool:
        """True for a space of named parameters (the objective receives a dict)."""
        return self._s.named

    def params(self, trial: Union[Trial, Any]) -> Dict[str, Any]:
        """The named, typed values of a trial (or of a point x) of a params space."""
        return self._s.params_of(trial.x if isinstance(trial, Trial) else trial)

    @property
    def config(self) -> Dict[str, Any]:
        """The stored strategy configuration (as `kbo show --json` would print it)."""
        return self._s.config

    # ---- ask / tell ----
    def ask(self) -> Trial:
        """The next trial to evaluate: the first queued point (enqueue(), `kbo enqueue`), handed out once,
        else a new pending trial at the strategy's next suggestion (the GIL is released meanwhile)."""
        return self._s.ask()

    def tell(self, trial: Union[Trial, int, Dict[str, Any], Sequence[float], np.ndarray],
             value: Union[float, Sequence[float]], constraints: Optional[Sequence[float]] = None,
             sem: Optional[float] = None) -> Trial:
        """Completes a pending trial (a kbo.Trial or its id) with a finite value (in the study's direction);
        a study with several objectives takes a sequence of values, one per direction. Given a point instead
        ({name: value} for named parameters, or an array), adds a NEW complete trial evaluated elsewhere (warm
        start). constraints: outcome constraint values (feasible iff all <= 0). sem: the standard error of the
        value (a noisy objective's known noise, finite and >= 0; one objective only): the model adds its square
        to the learned noise of this observation."""
        cons = [] if constraints is None else [float(c) for c in constraints]
        if sem is not None:
            if not np.isscalar(value):
                raise InputError("sem is supported for studies with one objective (a single value)")
            sem = float(sem)
            if isinstance(trial, Mapping) or isinstance(trial, (list, tuple, np.ndarray)):
                return self._s.add_evaluated(_point(trial), float(value), cons, sem)
            return self._s.tell(_trial_id(trial), float(value), cons, sem)
        if not np.isscalar(value):
            values = [float(v) for v in np.asarray(value, dtype=float).ravel()]
            if isinstance(trial, Mapping) or isinstance(trial, (list, tuple, np.ndarray)):
                return self._s.add_evaluated_values(_point(trial), values, cons)
            return self._s.tell_values(_trial_id(trial), values, cons)
        if isinstance(trial, Mapping) or isinstance(trial, (list, tuple, np.ndarray)):
            return self._s.add_evaluated(_point(trial), float(value), cons)
        return self._s.tell(_trial_id(trial), float(value), cons)

    def enqueue(self, point: Union[Dict[str, Any], Sequence[float], np.ndarray]) -> Trial:
        """Queues a point ({name: value} for named parameters, or an array) to be evaluated next: the next
        ask() returns it (or optimize(), `kbo ask`, `kbo optimize`, `kbo worker` evaluates it) before the
        model is asked (warm start); it is handed out exactly once."""
        return self._s.enqueue(_point(point))

    def tell_failed(self, trial: Union[Trial, int], reason: str = "failed") -> Trial:
        """Marks a pending trial failed with a reason (its point is then avoided)."""
        return self._s.fail(_trial_id(trial), str(reason))

    @property
    def trials(self) -> List[Trial]:
        return self._s.trials()

    @property
    def best(self) -> Optional[Trial]:
        return self._s.best()

    def to_dict(self) -> Dict[str, Any]:
        """The `kbo show --json` object."""
        return self._s.to_json()

    def view(self) -> Dict[str, Any]:
        """What `kbo report` shows: the `kbo show --json` object plus the stored config and the analysis of a GP
        fitted to the complete trials (parameters, slices, partial dependences, importances); kbo.plot draws it."""
        return self._s.view()

    def strategy_info(self) -> Dict[str, Any]:
        """Diagnostics of the last suggestion (fitted hyperparameters, beta, ...)."""
        return self._s.strategy_info()

    # ---- optimisation loop ----
    def optimize(self, f: Callable[[np.ndarray], float], n_trials: Optional[int] = None, *,
                 n_total: Optional[int] = None, callback: Optional[Callback] = None,
                 verbose: bool = False, executor: Any = None, n_parallel: Optional[int] = None,
                 catch_interrupt: bool = False) -> Result:
        """Runs ask -> f(x) -> tell (Study::optimize, the loop of `kbo optimize`) for n_trials more trials, or
        until the study has n_total finished trials. f gets a 1-d float array and returns a number; an
        exception in f marks the trial failed with the exception's last line and the run goes on; a
        non-number or nan/inf marks it failed too. callback(trial, finished, total, best) runs after
        every trial. verbose=True prints a line per finished trial on stderr (its value or failure, time,
        trials finished of the budget, elapsed, time per trial, ETA, best so far). Ctrl-C
        (KeyboardInterrupt) stops the run: completed trials are kept, the trial being evaluated is recorded as
        failed with the reason "interrupted (KeyboardInterrupt)", and KeyboardInterrupt is raised again, so a
        script (or a loop over several runs) stops as it would elsewhere. catch_interrupt=True returns the
        Result with interrupted=True instead (the run's trials so far; a warning says so).

        f may return a number, (value, [c1, ...]) or {"value": v, "constraints": [c1, ...]} (outcome
        constraints, feasible iff every c_i <= 0). A noisy f may return (value, sem) or {"value": v, "sem": s}
        with the standard error of the value. On a space of named parameters f receives a dict.

        executor: any concurrent.futures.Executor (a ProcessPoolExecutor, ...) or a Dask distributed.Client:
        n_parallel trials (default: the executor's worker count, else 2) are evaluated at once; each new
        suggestion sees the running ones as pending. f must then be picklable (a module-level function)."""
        if executor is not None:
            if n_total is None and n_trials is None:
                raise ValueError("give exactly one of n_trials (more trials) or n_total (finished trials in all)")
            return _optimize_with_executor(self, f, n_trials, n_total, callback, executor, n_parallel)
        if (n_trials is None) == (n_total is None):
            raise ValueError("give exactly one of n_trials (more trials) or n_total (finished trials in all)")
        if n_total is None:
            if n_trials < 0:
                raise ValueError("n_trials must be >= 0")
            n_total = sum(t.state != "pending" for t in self.trials) + n_trials
        if not callable(f):
            raise ValueError("f must be callable: f(x: numpy array of shape (D,)) -> float")
        if not isinstance(verbose, bool):
            raise ValueError(f"verbose must be True or False (got {verbose!r})")
        if verbose:
            callback = _progress_printer(callback, sum(t.state != "pending" for t in self.trials))
        interrupted = self._s.optimize(f, int(n_total), callback)
        if interrupted and not catch_interrupt:
            raise KeyboardInterrupt
        if interrupted:
            warnings.warn("kbo: interrupted by KeyboardInterrupt; returning the finished trials", RuntimeWarning,
                          stacklevel=3)
        return Result(self, interrupted)

    def __repr__(self) -> str:
        return f"<kbo.Study {self.name!r} in {self.storage} ({self.direction}, {len(self.trials)} trials)>"


def _parse_result(r: Any) -> Any:
    """(value, constraints, sem) from what an objective returned (see Study.optimize)."""
    cons: Optional[List[float]] = None
    sem: Optional[float] = None
    if isinstance(r, tuple) and len(r) == 2:
        if np.isscalar(r[1]):
            r, sem = r[0], float(r[1])
        else:
            r, cons = r[0], [float(c) for c in r[1]]
    elif isinstance(r, Mapping):
        if "value" not in r:
            raise ValueError('objective returned a dict without "value"')
        cons = [float(c) for c in r.get("constraints", [])]
        sem = None if r.get("sem") is None else float(r["sem"])
        r = r["value"]
    return float(r), cons, sem


def _optimize_with_executor(study: "Study", f: Callable[..., Any], n_trials: Optional[int], n_total: Optional[int],
                            callback: Optional[Callback], executor: Any, n_parallel: Optional[int]) -> Result:
    import concurrent.futures as cf

    if not callable(f):
        raise ValueError("f must be callable")
    ex = executor
    if not isinstance(ex, cf.Executor) and hasattr(ex, "get_executor"):
        ex = ex.get_executor()  # a Dask distributed.Client: its concurrent.futures face
    if not hasattr(ex, "submit"):
        raise ValueError(f"executor must be a concurrent.futures.Executor or a Dask Client (got {type(executor).__name__})")
    parallel = n_parallel or getattr(ex, "_max_workers", None) or 2
    if parallel < 1:
        raise ValueError("n_parallel must be >= 1")
    finished = sum(t.state != "pending" for t in study.trials)
    total = finished + n_trials if n_total is None else n_total
    named = study.named

    def arg(t: Trial) -> Any:
        return study.params(t) if named else np.asarray(t.x, dtype=float)

    running: Dict[Any, Trial] = {}
    while finished < total:
        while len(running) < parallel and finished + len(running) < total:
            t = study.ask()  # queued trials (warm starts) first, each handed out once
            running[ex.submit(f, arg(t))] = t
        done, _ = cf.wait(list(running), return_when=cf.FIRST_COMPLETED)
        for fut in done:
            t = running.pop(fut)
            try:
                value, cons, sem = _parse_result(fut.result())
                if not np.isfinite(value):
                    raise ValueError(f"non-finite value {value}")
                told = study.tell(t, value, cons, sem)
            except InputError:
                raise
            except Exception as e:  # the objective failed: the trial fails, the run goes on
                told = study.tell_failed(t, f"{type(e).__name__}: {e}".splitlines()[0])
            finished += 1
            if callback is not None:
                callback(told, finished, total, study.best)
    return Result(study)


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


def _duration(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s" if seconds < 60 else _clock(seconds)


def _progress_printer(callback: Optional[Callback], finished_before: int) -> Callback:
    """The callback of verbose=True: one line per finished trial on stderr (as `kbo optimize` prints when
    stderr is not a terminal), then the user's callback."""
    start = time.monotonic()
    last = [start]

    def report(trial: Trial, finished: int, total: int, best: Optional[Trial]) -> Any:
        now = time.monotonic()
        took, last[0] = now - last[0], now
        what = f"complete {trial.value:.6g}" if trial.state == "complete" else "failed"
        what += f" in {_duration(took)}"
        if trial.state == "failed":
            what += f" ({trial.reason})"
        line = f"[{finished}/{total}] trial {trial.id} {what} | elapsed {_clock(now - start)}"
        done_here = finished - finished_before
        if done_here > 0:
            per = (now - start) / done_here
            line += f", {_duration(per)}/trial"
            if finished < total:
                line += f", ETA {_clock(per * (total - finished))}"
        if best is not None:
            line += f" | best {best.value:.6g} (trial {best.id})"
        print(line, file=sys.stderr, flush=True)
        return None if callback is None else callback(trial, finished, total, best)

    return report


def _point(point: Any) -> Any:
    if isinstance(point, Mapping):
        return {str(k): (v.item() if isinstance(v, np.generic) else v) for k, v in point.items()}
    return [float(v) for v in np.asarray(point, dtype=float).ravel()]


def _trial_id(trial: Union[Trial, int]) -> int:
    if isinstance(trial, Trial):
        return trial.id
    if isinstance(trial, (int, np.integer)) and not isinstance(trial, bool):
        return int(trial)
    raise ValueError(f"trial must be a kbo.Trial or a trial id (got {type(trial).__name__})")


# Budget and seed keywords of the libraries users come from (Optuna, scikit-optimize, bayes_opt) and what
# kbo.minimize calls them: the TypeError for one says so instead of leaving the user to find it.
_PEER_KEYWORDS = {
    "n_trials": "the budget is init= initial points + iters= BO steps (Optuna's n_trials = init + iters; "
                "default 5 + 50), or Study.optimize(f, n_trials=...)",
    "n_calls": "the budget is init= initial points + iters= BO steps (n_calls = init + iters; default 5 + 50)",
    "n_iter": "the BO steps are iters= (after init= initial points)",
    "n_initial_points": "the initial points are init= (default 5)",
    "n_random_starts": "the initial points are init= (default 5)",
    "init_points": "the initial points are init= (default 5)",
    "random_state": "the seed is seed=",
}


def _run(direction: str, f: Callable[[np.ndarray], float], bounds: Any, iters: Optional[int], storage: Any,
         study: Optional[str], callback: Optional[Callback], verbose: bool, catch_interrupt: bool,
         options: Dict[str, Any]) -> Result:
    for key, hint in _PEER_KEYWORDS.items():
        if key in options:
            raise TypeError(f"unexpected keyword '{key}': {hint}")
    if "directions" in options:  # several objectives: f returns one value per direction
        direction = None
    elif "direction" in options:  # Optuna's create_study(direction=...)
        other = "maximize" if direction == "minimize" else "minimize"
        raise TypeError(f"unexpected keyword 'direction': kbo.{direction} {direction}s; use kbo.{other} to {other}")
    if not callable(f):
        raise ValueError("f must be callable: f(x: numpy array of shape (D,)) -> float")
    problem_arg = None
    if isinstance(bounds, Mapping) and not bounds:
        raise InputError("params: no parameters given (the dict is empty)")
    if bounds is None:
        if not isinstance(f, Problem):
            raise ValueError("bounds are needed: a (D, 2) array of [lower, upper] rows (or pass a kbo.Problem as f)")
        problem_arg = f
    # Only what the caller gave goes to the study: an option given explicitly that the strategy does not use
    # is an error, so defaults are never passed (they are the library's).
    s = Study(storage, study, bounds, direction=direction, problem=problem_arg,
              iters=iters, **options)
    # As `kbo optimize`: run until init + iters trials are finished (a re-run on the same storage resumes).
    return s.optimize(f, n_total=s._s.n_init + s._s.iters, callback=callback, verbose=verbose,
                      catch_interrupt=catch_interrupt)


def minimize(f: Callable[[np.ndarray], float], bounds: Any = None, *, iters: Optional[int] = None,
             storage: Any = None, study: Optional[str] = None, callback: Optional[Callback] = None,
             verbose: bool = False, catch_interrupt: bool = False, **options: Any) -> Result:
    """Minimises f over the box `bounds` with Bayesian optimisation: init Sobol points, then iters BO steps
    (default 5 + 50).

    f: callable taking a 1-d float array of length D, returning a number, (value, [c1, ...]) or
    {"value": v, "constraints": [...]} (outcome constraints, feasible iff all c_i <= 0; a kbo.Problem works
    too, and then bounds may be omitted). bounds: a dict of named parameters {"lr": kbo.Float(1e-5, 1e-1,
    log=True), "layers": kbo.Int(1, 8), "opt": kbo.Categorical(["adam", "sgd"]), "seed": kbo.Fixed(0)} (f then
    receives a dict; docs/spaces.md), or a (D, 2) array-like of [lower, upper] rows (space="set": the box of
    ONE element, with set_size=M; points are then flat arrays of M * d). storage: None (memory) or
    "sqlite:PATH" with study=NAME: persisted and shared with the CLI; re-running resumes. callback(trial,
    finished, total, best) after every trial; verbose=True prints a progress line per trial on stderr.
    Ctrl-C raises KeyboardInterrupt after recording the running trial as interrupted (catch_interrupt=True
    returns a Result with interrupted=True instead; see Study.optimize).
    Options by keyword, with the CLI's names ('_' for '-'): strategy (gpucb | agpucb | random), kernel (rbf | matern12 | matern32 | matern52), acq (ucb | ei | pi),
    init, seed, beta, beta_schedule, fit_restarts, init_method, acq_optimizer, ard, fantasy, invariance,
    invariant_kernel, space ("box" | "set"), set_size, set_kernel, set_L, options={...}, config="study.toml".
    An unknown keyword is a TypeError (for other libraries' names, such as Optuna's n_trials or
    scikit-optimize's n_calls and random_state, it names kbo's); an option the chosen strategy does not use
    is a kbo.InputError.

    The same options and seed give the same trials as `kbo optimize`. Returns a kbo.Result: res.best_params
    (named parameters, in the dict's order), res.best_value, res.trials (each with .params); res.best_x is
    the encoded point (see kbo.Result)."""
    return _run("minimize", f, bounds, iters, storage, study, callback, verbose, catch_interrupt, options)


def maximize(f: Callable[[np.ndarray], float], bounds: Any = None, *, iters: Optional[int] = None,
             storage: Any = None, study: Optional[str] = None, callback: Optional[Callback] = None,
             verbose: bool = False, catch_interrupt: bool = False, **options: Any) -> Result:
    """As kbo.minimize, maximising f (`kbo optimize --maximize`)."""
    return _run("maximize", f, bounds, iters, storage, study, callback, verbose, catch_interrupt, options)


__all__ = ["minimize", "maximize", "Study", "Result", "Trial", "GP", "Problem", "problem", "problem_names",
           "kernels", "kfo", "plot", "InputError", "NumericalError", "StorageError", "Float", "Int", "Categorical",
           "Fixed", "Param"]
