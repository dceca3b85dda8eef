"""Named parameters come back as the user gave them (Optuna's habits): Trial.params and Result.best_params in
the order of the dict, each value in its type; best_x is the encoded point."""
import math

import numpy as np
import pytest

import kbo

# Deliberately not alphabetical.
SPACE = {"zeta": kbo.Float(1e-3, 10.0, log=True), "alpha": kbo.Int(1, 5), "mode": kbo.Categorical(["a", "b", "c"]),
         "batch": kbo.Fixed(32)}


def f(p):
    return (math.log(p["zeta"]) - 1.0) ** 2 + 0.1 * (p["alpha"] - 2) ** 2 + {"a": 0.0, "b": 0.5, "c": 1.0}[p["mode"]]


def test_trial_params_and_best_params_keep_the_dicts_order(tmp_path):
    res = kbo.minimize(f, SPACE, init=5, iters=3, seed=0, storage=f"sqlite:{tmp_path / 's.db'}", study="o")
    order = ["zeta", "alpha", "mode", "batch"]
    assert list(res.best_params) == order
    assert all(list(t.params) == order for t in res.trials)
    assert all(list(p) == order for p in res.params)
    best = res.trials[[t.id for t in res.trials].index(res.best_trial)]
    assert best.params == res.best_params
    assert isinstance(res.best_params["alpha"], int) and res.best_params["mode"] in ("a", "b", "c")
    assert f(res.best_params) == pytest.approx(res.best_value)
    # best_x is the encoding: ln zeta, alpha, the one-hot of mode.
    x = res.best_x
    assert x.shape == (5,)
    assert x[0] == pytest.approx(math.log(res.best_params["zeta"]))
    assert x[1] == res.best_params["alpha"]
    assert list(x[2:]) == [1.0 if c == res.best_params["mode"] else 0.0 for c in "abc"]
    # Reopened from the store (a new object): the same order.
    again = kbo.Study(f"sqlite:{tmp_path / 's.db'}", "o")
    assert list(again.trials[0].params) == order
    assert list(again.params(again.trials[0])) == order


def test_ask_and_callbacks_give_params():
    study = kbo.Study(None, "o", SPACE)
    t = study.ask()
    assert list(t.params) == ["zeta", "alpha", "mode", "batch"]
    seen = []
    study.tell(t, f(t.params))
    study.optimize(f, n_trials=2, callback=lambda trial, *_: seen.append(list(trial.params)))
    assert seen == [["zeta", "alpha", "mode", "batch"]] * 2


def test_box_space_trials_have_no_params():
    res = kbo.minimize(lambda x: float(np.sum(x ** 2)), [(-1, 1)], init=2, iters=0, seed=0)
    assert res.best_params is None and res.trials[0].params is None


def test_a_study_stored_sorted_by_name_reopens_from_a_dict_in_another_order(tmp_path, run_cli):
    # `--params` as a JSON object (and kbo before the dict's order was kept) stores the parameters sorted by
    # name: the same dict in the user's order opens that study (its stored order is then the order shown).
    url = f"sqlite:{tmp_path / 'old.db'}"
    run_cli("ask", "--storage", url, "--study", "old", "--params",
            '{"zeta": {"type": "float", "low": 0.001, "high": 10, "log": true}, "alpha": {"type": "int", "low": 1, '
            '"high": 5}}')
    study = kbo.Study(url, "old", {"zeta": kbo.Float(1e-3, 10.0, log=True), "alpha": kbo.Int(1, 5)})
    assert [p["name"] for p in study.space["params"]] == ["alpha", "zeta"]
    assert list(study.trials[0].params) == ["alpha", "zeta"]
    with pytest.raises(kbo.InputError, match="exists with a different space"):
        kbo.Study(url, "old", {"zeta": kbo.Float(1e-3, 1.0, log=True), "alpha": kbo.Int(1, 5)})
