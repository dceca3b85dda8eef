"""Ways in for other libraries' users: kbo's GP-BO as an Optuna sampler (Debian python3-optuna), and
Study.optimize with a concurrent.futures executor or a Dask cluster (Debian python3-distributed)."""
import concurrent.futures
import math

import numpy as np
import pytest

import kbo

optuna = pytest.importorskip("optuna")


def quadratic(p):
    """Module level, so that process pools can pickle it."""
    return (math.log10(p["lr"]) + 2) ** 2 + (p["layers"] - 4) ** 2 + (0.0 if p["opt"] == "adam" else 1.0)


def optuna_objective(trial):
    lr = trial.suggest_float("lr", 1e-4, 1.0, log=True)
    layers = trial.suggest_int("layers", 1, 6)
    opt = trial.suggest_categorical("opt", ["adam", "sgd"])
    return quadratic({"lr": lr, "layers": layers, "opt": opt})


def test_kbo_sampler_runs_an_optuna_study_over_a_mixed_space():
    from kbo.integrations.optuna import KboSampler

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    KboSampler()  # constructible with no arguments
    sampler = KboSampler(seed=0)
    relative = []
    original = sampler.sample_relative
    sampler.sample_relative = lambda *a: relative.append(original(*a)) or relative[-1]
    study = optuna.create_study(sampler=sampler)
    study.optimize(optuna_objective, n_trials=14)
    assert len(study.trials) == 14
    for t in study.trials:
        assert 1e-4 <= t.params["lr"] <= 1.0 and isinstance(t.params["layers"], int)
        assert 1 <= t.params["layers"] <= 6 and t.params["opt"] in ("adam", "sgd")
    # Every trial after the first (no search space is known before one completes) came from kbo over all
    # three parameters: trials 1-4 from its Sobol initial design, then from its model.
    kbo_points = [r for r in relative if r]
    assert len(kbo_points) == 14 - 1 and all(set(r) == {"lr", "layers", "opt"} for r in kbo_points)
    assert study.best_value < 1.0  # optimum 0 (random points average ~5)


def test_kbo_sampler_sees_running_trials_as_pending():
    from kbo.integrations.optuna import KboSampler

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=KboSampler(seed=1))
    study.optimize(lambda t: (t.suggest_float("a", -1, 1) - 0.3) ** 2 + t.suggest_float("b", -1, 1) ** 2, n_trials=8)
    # Two trials asked without a tell: the second must not repeat the first (the running one is pending),
    # and neither may repeat a finished trial.
    t1 = study.ask()
    p1 = (t1.suggest_float("a", -1, 1), t1.suggest_float("b", -1, 1))
    t2 = study.ask()
    p2 = (t2.suggest_float("a", -1, 1), t2.suggest_float("b", -1, 1))
    seen = {(t.params["a"], t.params["b"]) for t in study.trials if t.state.is_finished()}
    assert p1 != p2 and p1 not in seen and p2 not in seen


def test_study_optimize_with_a_process_pool():
    s = kbo.Study(None, "pool", {"lr": kbo.Float(1e-4, 1.0, log=True), "layers": kbo.Int(1, 6),
                                "opt": kbo.Categorical(["adam", "sgd"])}, seed=0)
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        res = s.optimize(quadratic, 8, executor=pool)
    assert res.states.count("complete") == 8
    assert res.best_value == pytest.approx(quadratic(res.best_params))


def test_study_optimize_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        s = kbo.Study(None, "dask", [(-1, 1), (-1, 1)], seed=0)
        res = s.optimize(lambda x: float(np.sum(np.asarray(x) ** 2)), 7, executor=client)
    assert res.states.count("complete") == 7
    # Two at a time: each suggestion saw the other running trial as pending, so no point repeats.
    assert len({tuple(np.round(x, 12)) for x in res.X}) == 7
