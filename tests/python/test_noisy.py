"""Noisy objectives from Python: f returning (value, sem), Study.tell(..., sem=...), and Result.recommended /
Result.best_observed, shared with `kbo show`."""
import math

import numpy as np
import pytest

import kbo


def noisy_quadratic(x):
    # A known standard error with every value: 0.1 + |x0| / 10.
    return float(np.sum((x - 0.3) ** 2)), 0.1 + abs(float(x[0])) / 10


def test_objective_returning_value_and_sem(tmp_path, run_cli):
    url = f"sqlite:{tmp_path / 'n.db'}"
    s = kbo.Study(url, "n", bounds=[(-1, 1), (-1, 1)], init=4, seed=3)
    res = s.optimize(noisy_quadratic, n_trials=8)
    complete = [t for t in res.trials if t.state == "complete"]
    assert len(complete) == 8
    for t in complete:
        assert t.sem == pytest.approx(0.1 + abs(t.x[0]) / 10, rel=0, abs=1e-15)
    # The recommendation is a complete trial with its posterior; the best observed is the lowest value.
    rec, seen = res.recommended, res.best_observed
    assert rec["by"] == "posterior_mean" and math.isfinite(rec["mean"]) and rec["sd"] > 0
    assert rec["trial"] in [t.id for t in complete]
    assert seen["value"] == min(t.value for t in complete)
    assert res.best_trial == rec["trial"]  # noisy: best_* are the recommendation's
    shown = run_cli("show", "--storage", url, "--study", "n", "--json")
    assert shown["recommended"]["trial"] == rec["trial"] and shown["best_observed"] == seen
    assert [t["sem"] for t in shown["trials"]] == [t.sem for t in complete]
    # {"value": v, "sem": s} works too.
    s.optimize(lambda x: {"value": float(x[0] ** 2), "sem": 0.5}, n_trials=1)
    assert s.trials[-1].sem == 0.5


def test_tell_with_sem_and_bad_sems():
    s = kbo.Study(bounds=[(0, 1)], init=2, seed=1)
    t = s.ask()
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="sem"):
            s.tell(t, 1.0, sem=bad)
    assert s.trials[0].state == "pending"
    assert s.tell(t, 1.0, sem=0.25).sem == 0.25
    assert s.tell([0.5], 2.0, sem=0.0).sem == 0.0  # a point evaluated elsewhere
    assert s.tell([0.7], 2.0).sem is None
    with pytest.raises(ValueError, match="sem"):
        s.tell([0.9], 1.0, sem=-2)
    assert len(s.trials) == 3  # nothing stored by the refused tell
    moo = kbo.Study(bounds=[(0, 1)], directions=["minimize", "maximize"], init=2)
    with pytest.raises(ValueError, match="one objective"):
        moo.tell(moo.ask(), [1.0, 2.0], sem=0.1)


def test_an_objective_returning_a_bad_sem_stops_the_run():
    s = kbo.Study(bounds=[(0, 1)], init=2, seed=1)
    with pytest.raises(ValueError, match="sem"):
        s.optimize(lambda x: (1.0, -0.5), n_trials=2)
    assert all(t.state != "complete" for t in s.trials)


def test_deterministic_study_recommends_the_best_observed():
    res = kbo.minimize(lambda x: float((x[0] - 0.2) ** 2 + (x[1] + 0.1) ** 2), [(-1, 1), (-1, 1)], iters=10, init=5,
                       seed=4)
    assert res.recommended["trial"] == res.best_observed["trial"] == res.best_trial
    assert res.recommended["by"] == "best_observed" and math.isfinite(res.recommended["mean"])
