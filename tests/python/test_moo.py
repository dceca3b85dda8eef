"""Studies with several objectives from Python: kbo.minimize(directions=...), kbo.Study ask/tell with value
sequences, Result.pareto_front against brute force, bad input, and Optuna's multi-objective studies through
KboSampler."""
import math

import numpy as np
import pytest

import kbo


def two_objectives(x):
    # f1 = x0, f2 = (1 - x0)^2 + x1: the front is x1 = 0 (both minimised)
    return [float(x[0]), float((1 - x[0]) ** 2 + x[1])]


def dominated(v, others):
    return any(all(o[j] <= v[j] for j in range(len(v))) and any(o[j] < v[j] for j in range(len(v))) for o in others)


def test_minimize_with_directions_gives_the_pareto_front():
    res = kbo.minimize(two_objectives, [(0, 1), (0, 1)], directions=["minimize", "minimize"], init=6, iters=6, seed=0)
    values = [t.values for t in res.trials]
    assert all(len(v) == 2 for v in values)
    front_ids = [p["id"] for p in res.pareto_front]
    assert front_ids == [t.id for t in res.trials if not dominated(t.values, values)]
    for p in res.pareto_front:
        assert p["values"] == pytest.approx(two_objectives(np.array(p["x"])))
    hv = res.hypervolume
    assert hv["reference"] == "inferred" and len(hv["reference_point"]) == 2
    # independent 2-D sweep
    ref = hv["reference_point"]
    pts = sorted(p["values"] for p in res.pareto_front)
    area, top = 0.0, ref[1]
    for a, b in pts:
        if a < ref[0] and b < top:
            area += (ref[0] - a) * (top - b)
            top = b
    assert hv["value"] == pytest.approx(area)
    assert res.best_value is None  # several objectives have no single best


def test_study_ask_tell_with_a_maximised_objective():
    s = kbo.Study(None, "m", [(0, 1)], directions=["minimize", "maximize"], init=3, seed=1)
    assert s.directions == ["minimize", "maximize"]
    for _ in range(6):
        t = s.ask()
        s.tell(t, [float(t.x[0]), float(t.x[0] ** 2)])
    d = s.to_dict()
    # with f2 = f1^2 maximised and f1 minimised, no trial dominates another unless values tie
    assert len(d["pareto_front"]) == 6
    s.tell([0.5], [0.5, 0.3])  # a new point: nothing with f1 <= 0.5 has f2 >= 0.3, so it joins the front
    assert any(p["values"] == [0.5, 0.3] for p in s.to_dict()["pareto_front"])


def test_bad_values_raise_and_store_nothing():
    s = kbo.Study(None, "bad", [(0, 1)], directions=["minimize", "minimize"], init=2, seed=0)
    t = s.ask()
    with pytest.raises(kbo.InputError, match="2 objectives"):
        s.tell(t, [1.0])
    with pytest.raises(kbo.InputError, match="2 objectives"):
        s.tell(t, 1.0)
    assert [x.state for x in s.trials] == ["pending"]
    with pytest.raises(kbo.InputError, match="unknown direction 'up'"):
        kbo.Study(None, "bad2", [(0, 1)], directions=["minimize", "up"])
    with pytest.raises(kbo.InputError, match="3 values"):
        kbo.minimize(lambda x: [1.0, 2.0, 3.0], [(0, 1)], directions=["minimize", "minimize"], init=2, iters=0)


def test_optuna_multi_objective_study_with_kbo_sampler():
    optuna = pytest.importorskip("optuna")
    from kbo.integrations.optuna import KboSampler

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(directions=["minimize", "minimize"], sampler=KboSampler(seed=0))
    study.optimize(lambda t: two_objectives([t.suggest_float("a", 0, 1), t.suggest_float("b", 0, 1)]), n_trials=14)
    assert len(study.trials) == 14
    # kbo's steps find the front x1 = 0: the best trials lie close to it
    front = study.best_trials
    assert front and min(t.params["b"] for t in front) < 0.05
