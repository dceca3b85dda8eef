"""Hyperparameter search for scikit-learn estimators with kbo's Bayesian optimisation.

    import kbo
    from kbo.sklearn import KboSearchCV
    from sklearn.svm import SVC

    search = KboSearchCV(SVC(), {"C": kbo.Float(1e-2, 1e3, log=True), "gamma": kbo.Float(1e-5, 1e-1, log=True),
                                 "kernel": kbo.Categorical(["rbf", "poly", "sigmoid"])}, n_iter=30, cv=5)
    search.fit(X, y)
    search.best_params_, search.best_score_, search.best_estimator_, search.cv_results_

KboSearchCV is a scikit-learn BaseSearchCV (the base class of GridSearchCV and RandomizedSearchCV), so it has
their whole contract: fit / predict / score through the refitted best estimator, best_params_, best_score_,
best_index_, best_estimator_, cv_results_ (one row per candidate, in the order evaluated), refit, scoring
(one metric or several with refit=NAME), n_jobs, error_score, return_train_score. Only how candidates are
chosen differs: an in-memory kbo study over `param_distributions` (a dict of kbo.Float, kbo.Int,
kbo.Categorical, kbo.Fixed, or a list of choices) proposes them, `batch_size` at a time, and is told every
candidate's mean cross-validated score (maximised); a candidate whose fits all failed (score nan) is told as a
failed trial, which the strategy avoids. The first round is kbo's initial design (min(5, n_iter) Sobol
points), as kbo.minimize starts.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import numpy as np
from sklearn.model_selection._search import BaseSearchCV

import kbo

__all__ = ["KboSearchCV"]


class KboSearchCV(BaseSearchCV):
    """Search over an estimator's parameters with kbo's GP-BO, scored by cross-validation.

    estimator: a scikit-learn estimator (cloned for every fit).
    param_distributions: {name: kbo.Float(low, high, log=...) | kbo.Int(low, high, log=...) |
    kbo.Categorical([...]) | kbo.Fixed(value) | [choices]} — the estimator's parameters (``step__name`` for a
    Pipeline's). The estimator receives each value in its type (a float, an int, the choice).
    n_iter: candidates in all (default 20). batch_size: candidates per round after the initial design
    (default 1: each sees every earlier score; larger batches let n_jobs fit several candidates at once, the
    batch's running candidates are pending to the strategy so they differ). random_state: the kbo study's seed
    (an int; None means 0, so a search is reproducible unless a seed is asked to vary). kbo_options: other
    options of the kbo study by keyword (kernel, acq, init, strategy, ...; see kbo.minimize).
    scoring, n_jobs, refit, cv, verbose, pre_dispatch, error_score, return_train_score: as GridSearchCV.
    """

    # As RandomizedSearchCV's: no default exists for these (scikit-learn's checks know not to construct one).
    _required_parameters = ["estimator", "param_distributions"]

    def __init__(self, estimator: Any, param_distributions: Mapping[str, Any], *, n_iter: int = 20,
                 batch_size: int = 1, scoring: Any = None, n_jobs: Optional[int] = None, refit: Any = True,
                 cv: Any = None, verbose: int = 0, pre_dispatch: Any = "2*n_jobs", random_state: Optional[int] = None,
                 error_score: Any = np.nan, return_train_score: bool = False,
                 kbo_options: Optional[Dict[str, Any]] = None):
        super().__init__(estimator=estimator, scoring=scoring, n_jobs=n_jobs, refit=refit, cv=cv, verbose=verbose,
                         pre_dispatch=pre_dispatch, error_score=error_score, return_train_score=return_train_score)
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.batch_size = batch_size
        self.random_state = random_state
        self.kbo_options = kbo_options

    def _check_search_parameters(self) -> None:
        if not isinstance(self.param_distributions, Mapping) or not self.param_distributions:
            raise ValueError("param_distributions must be a non-empty dict {name: kbo.Float/Int/Categorical/Fixed "
                             f"or a list of choices}} (got {self.param_distributions!r})")
        for name, p in self.param_distributions.items():
            if not isinstance(p, (kbo.Param, list, tuple)):
                raise ValueError(f"param_distributions[{name!r}]: expected kbo.Float, kbo.Int, kbo.Categorical, "
                                 f"kbo.Fixed or a list of choices (got {p!r})")
        for key, value in (("n_iter", self.n_iter), ("batch_size", self.batch_size)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{key} must be a positive integer (got {value!r})")
        if self.random_state is not None and (isinstance(self.random_state, bool) or
                                              not isinstance(self.random_state, (int, np.integer))):
            raise ValueError("random_state must be an int or None (kbo seeds its study with an integer; got "
                             f"{type(self.random_state).__name__})")

    def _score_key(self, results: Dict[str, Any]) -> str:
        if "mean_test_score" in results:
            return "mean_test_score"
        if isinstance(self.refit, str) and f"mean_test_{self.refit}" in results:
            return f"mean_test_{self.refit}"
        raise ValueError("with several scoring metrics, KboSearchCV needs refit=<metric name> to know which score "
                         "to maximise")

    def _run_search(self, evaluate_candidates) -> None:
        self._check_search_parameters()
        n_iter = int(self.n_iter)
        options = dict(self.kbo_options or {})
        options.setdefault("init", min(5, n_iter))
        seed = 0 if self.random_state is None else int(self.random_state)
        study = kbo.Study(None, "KboSearchCV", dict(self.param_distributions), direction="maximize", seed=seed,
                          **options)
        asked = 0
        first = True
        while asked < n_iter:
            size = min(n_iter - asked, options["init"] if first else int(self.batch_size))
            size = max(size, 1)
            first = False
            trials = [study.ask() for _ in range(size)]
            asked += size
            results = evaluate_candidates([dict(t.params) for t in trials])
            scores = results[self._score_key(results)][-size:]
            for t, score in zip(trials, scores):
                if np.isfinite(score):
                    study.tell(t, float(score))
                else:
                    study.tell_failed(t, "every cross-validation fit failed (score nan)")
