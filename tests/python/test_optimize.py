"""kbo.minimize / kbo.maximize: round trips, identity with `kbo optimize`, failing objectives, Ctrl-C."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kbo


def sphere(x):
    return float(((x - 0.3) ** 2).sum())


def test_minimize_round_trip():
    res = kbo.minimize(sphere, [(-1, 1), (0, 2)], init=4, iters=6, seed=1)
    assert len(res.trials) == 10 and res.X.shape == (10, 2) and res.values.shape == (10,)
    assert res.states == ["complete"] * 10
    # every recorded value is f at the recorded point, inside the bounds
    np.testing.assert_array_equal(res.values, [sphere(x) for x in res.X])
    assert np.all(res.X[:, 0] >= -1) and np.all(res.X[:, 0] <= 1) and np.all(res.X[:, 1] >= 0)
    i = int(np.argmin(res.values))
    assert res.best_trial == i and res.best_value == res.values[i]
    np.testing.assert_array_equal(res.best_x, res.X[i])
    np.testing.assert_array_equal(res.best_so_far(), np.minimum.accumulate(res.values))
    assert res.to_dict()["n_complete"] == 10 and not res.interrupted


def test_maximize_and_trials_as_dicts():
    res = kbo.maximize(lambda x: -sphere(x), [(-1, 1), (0, 2)], init=3, iters=3, seed=2)
    assert res.study.direction == "maximize"
    assert res.best_value == res.values.max()
    d = res.to_dict()
    assert d["direction"] == "maximize" and [t["id"] for t in d["trials"]] == list(range(6))
    assert [t["value"] for t in d["trials"]] == list(res.values)


def test_objective_gets_a_float_array_of_the_space_dimension():
    seen = []

    def f(x):
        seen.append((type(x), x.dtype, x.shape))
        return 0.0

    kbo.minimize(f, np.array([[0.0, 1.0]] * 3), init=2, iters=1, seed=0)
    assert seen == [(np.ndarray, np.float64, (3,))] * 3


def _cli_trials(out):
    return np.array([t["x"] for t in out["trials"]]), np.array([t["value"] for t in out["trials"]])


@pytest.mark.parametrize(
    "problem,dim,kwargs,flags",
    [
        ("ackley-shifted", 6, {}, []),
        ("branin", 2, dict(kernel="rbf", acq="ei", fit_restarts=1),
         ["--kernel", "rbf", "--acq", "ei", "--fit-restarts", "1"]),
        ("branin", 2, dict(beta=2.5, fit_restarts=1), ["--beta", "2.5", "--fit-restarts", "1"]),
        ("rastrigin", 2, dict(invariance="signflip"), ["--invariance", "signflip"]),
    ],
)
def test_same_trials_as_cli(run_cli, problem, dim, kwargs, flags):
    """Same problem, options and seed => the very same trials as `kbo optimize --json`."""
    p = kbo.problem(problem, dim)
    res = kbo.minimize(p, init=3, iters=4, seed=11, **kwargs)
    out = run_cli("optimize", "--problem", problem, "--dim", dim, "--init", 3, "--iters", 4, "--seed", 11, "--json",
                  *flags)
    X, y = _cli_trials(out)
    np.testing.assert_array_equal(res.X, X)
    np.testing.assert_array_equal(res.values, y)
    assert res.best_value == out["best_value"]


def test_ackley_shifted_10d_from_cli(run_cli, kbo_bin):
    """`--problem ackley-shifted --dim 10` (the long runs of docs/bench/scale.md) is Ackley's closed form at the documented shift;
    d = 11 is a one-line input error."""
    shift = np.array([0.137, -0.213, 0.071, -0.319, 0.241, -0.089, 0.183, -0.127, 0.293, -0.057])
    out = run_cli("optimize", "--problem", "ackley-shifted", "--dim", 10, "--init", 3, "--iters", 1, "--json")
    X, y = _cli_trials(out)
    assert X.shape == (4, 10)
    z = 65.536 * (X - 0.5 - shift)
    ackley = (-20 * np.exp(-0.2 * np.sqrt(np.mean(z**2, axis=1))) - np.exp(np.mean(np.cos(2 * np.pi * z), axis=1))
              + 20 + np.e)
    np.testing.assert_allclose(y, ackley, rtol=1e-12, atol=1e-12)
    p = subprocess.run([str(kbo_bin), "optimize", "--problem", "ackley-shifted", "--dim", "11"], capture_output=True,
                       text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "1 <= d <= 10" in p.stderr, p.stderr


def test_python_objective_same_trials_as_cli_problem(run_cli):
    """A pure-Python objective returning the same numbers as the built-in problem gives the same study."""
    branin = kbo.problem("branin")
    res = kbo.minimize(lambda x: branin(x), [(-5, 10), (0, 15)], init=3, iters=3, seed=4)
    out = run_cli("optimize", "--problem", "branin", "--init", 3, "--iters", 3, "--seed", 4, "--json")
    X, y = _cli_trials(out)
    np.testing.assert_array_equal(res.X, X)
    np.testing.assert_array_equal(res.values, y)


def test_set_space_round_trip():
    # a set of 3 points in [0, 1]: the objective is invariant under reordering the elements
    res = kbo.minimize(lambda x: float(np.sum((np.sort(x) - [0.2, 0.5, 0.8]) ** 2)), [(0, 1)], space="set",
                       set_size=3, init=4, iters=3, seed=0)
    assert res.X.shape == (7, 3) and res.study.space["type"] == "set"


def test_objective_failures_mark_trials_failed_and_the_run_goes_on():
    calls = []

    def f(x):
        calls.append(x)
        n = len(calls)
        if n == 2:
            raise ValueError("bad point")
        if n == 3:
            return None
        if n == 4:
            return float("nan")
        return sphere(x)

    res = kbo.minimize(f, [(0, 1)], init=3, iters=4, seed=0)
    assert len(calls) == 7 and len(res.trials) == 7
    by_id = {t.id: t for t in res.trials}
    assert by_id[1].state == "failed" and by_id[1].reason == "ValueError: bad point"
    assert by_id[2].state == "failed" and by_id[2].reason == "objective returned NoneType (expected a number)"
    assert by_id[3].state == "failed" and "non-finite" in by_id[3].reason
    assert [t.state for t in res.trials].count("complete") == 4
    assert np.isnan(res.values[1]) and res.best_value == np.nanmin(res.values)


def test_keyboard_interrupt_keeps_completed_trials_with_catch_interrupt():
    calls = []

    def f(x):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return sphere(x)

    with pytest.warns(RuntimeWarning, match="interrupted"):
        res = kbo.minimize(f, [(0, 1), (0, 1)], init=2, iters=10, seed=0, catch_interrupt=True)
    assert res.interrupted and len(calls) == 4
    assert res.states == ["complete"] * 3 + ["failed"]
    assert res.trials[3].reason == "interrupted (KeyboardInterrupt)"


def test_callback_sees_every_trial_and_its_exception_propagates():
    seen = []
    kbo.minimize(sphere, [(0, 1)], init=2, iters=2, seed=0,
                 callback=lambda t, done, total, best: seen.append((t.id, done, total, best.id)))
    assert [s[:3] for s in seen] == [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 4, 4)]

    def bad(t, *_):
        if t.id == 1:
            raise RuntimeError("stop here")

    study = kbo.Study(bounds=[(0, 1)], init=2)
    with pytest.raises(RuntimeError, match="stop here"):
        study.optimize(sphere, 5, callback=bad)
    assert [t.state for t in study.trials] == ["complete", "complete"]


def test_sigint_between_trials_stops_cleanly(tmp_path, run_cli):
    """A real Ctrl-C (SIGINT) while C++ works, with catch_interrupt=True: the run returns the finished trials,
    none is pending. (Without it KeyboardInterrupt is raised: tests/python/test_interrupt.py.)"""
    db = tmp_path / "s.db"
    script = textwrap.dedent(f"""
        import os, signal, sys, warnings
        import kbo
        # Python leaves SIGINT ignored when its parent ignored it (a job started with `&` by a script, as CI
        # may be): restore the handler that turns it into KeyboardInterrupt, as in an interactive session.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        warnings.simplefilter("ignore")
        p = kbo.problem("hartmann6")
        def cb(t, done, total, best):
            if done == 4:
                os.kill(os.getpid(), signal.SIGINT)   # as if Ctrl-C were pressed now
        res = kbo.minimize(p, init=3, iters=50, seed=0, storage="sqlite:{db}", study="s", callback=cb,
                           catch_interrupt=True)
        print(res.interrupted, len(res.trials))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "4"]
    shown = run_cli("show", "--storage", f"sqlite:{db}", "--study", "s", "--json")
    assert shown["n_complete"] == 4 and shown["n_pending"] == 0


def test_keywords_are_typed_and_checked_like_flags():
    # A typo is Python's own error for an unknown keyword.
    with pytest.raises(TypeError, match="unexpected keyword 'iter'"):
        kbo.minimize(lambda x: 0.0, [(0, 1)], iter=10)
    # The budget and seed names of Optuna / scikit-optimize / bayes_opt get kbo's names in the error.
    with pytest.raises(TypeError, match=r"unexpected keyword 'n_trials': the budget is init= initial points \+ iters="):
        kbo.minimize(lambda x: 0.0, [(0, 1)], n_trials=30)
    with pytest.raises(TypeError, match="unexpected keyword 'random_state': the seed is seed="):
        kbo.minimize(lambda x: 0.0, [(0, 1)], random_state=0)
    with pytest.raises(TypeError, match="kbo.maximize maximizes; use kbo.minimize to minimize"):
        kbo.maximize(lambda x: 0.0, [(0, 1)], direction="minimize")
    # One strategy name everywhere: the old Python-only alias is a clear error.
    with pytest.raises(kbo.InputError, match=r"unknown strategy 'standard' \(allowed: gpucb, random, agpucb, moo\)"):
        kbo.minimize(lambda x: 0.0, [(0, 1)], strategy="standard", iters=1)
    # An option the strategy does not use is an error naming the key (not a flag) and the strategy.
    with pytest.raises(kbo.InputError, match="option 'acq' is not used by strategy 'agpucb'"):
        kbo.minimize(lambda x: 0.0, [(0, 1)], strategy="agpucb", acq="ei", iters=1)
    # Typed values: a wrong type names the key; nested options are checked before the first evaluation.
    calls = []
    with pytest.raises(kbo.InputError, match="beta must be a finite number"):
        kbo.minimize(lambda x: calls.append(x) or 0.0, [(0, 1)], beta="high")
    with pytest.raises(kbo.InputError, match="unknown section 'zzz'"):
        kbo.minimize(lambda x: calls.append(x) or 0.0, [(0, 1)], options={"zzz": 1})
    with pytest.raises(kbo.InputError, match="options.bo.noise_floor"):
        kbo.minimize(lambda x: calls.append(x) or 0.0, [(0, 1)], options={"bo": {"noise_floor": "x"}})
    assert calls == []
    # Booleans, ints and dicts go through as values (no argv text): ard=False, seed as a numpy int.
    r = kbo.minimize(lambda x: float(x[0] ** 2), [(-1, 1)], ard=False, seed=np.int64(3), init=2, iters=1)
    assert len(r.trials) == 3


def test_verbose_prints_a_progress_line_per_trial_on_stderr(capsys):
    import re
    seen = []
    res = kbo.minimize(sphere, [(0, 1)], init=3, iters=2, seed=0, verbose=True,
                       callback=lambda t, finished, total, best: seen.append(t.id))
    err = capsys.readouterr().err.splitlines()
    assert seen == [0, 1, 2, 3, 4]  # the user's callback still runs
    assert len(err) == 5
    for i, line in enumerate(err):
        m = re.fullmatch(r"\[(\d)/5\] trial (\d) complete (\S+) in \S+ s \| elapsed \d\d:\d\d.* \| best (\S+) \(trial (\d)\)",
                         line)
        assert m, line
        assert int(m.group(1)) == i + 1 and int(m.group(2)) == i
        assert float(m.group(3)) == pytest.approx(res.values[i], rel=1e-5)
        best = int(np.argmin(res.values[: i + 1]))
        assert int(m.group(5)) == best and float(m.group(4)) == pytest.approx(res.values[best], rel=1e-5)
    assert "ETA" in err[0] and "ETA" not in err[-1]
    # Resumed on the same study: counts continue from the trials already finished.
    study = res.study
    study.optimize(sphere, n_trials=1, verbose=True)
    assert capsys.readouterr().err.startswith("[6/6] trial 5 complete ")
    # Default: silent.
    kbo.minimize(sphere, [(0, 1)], init=2, iters=0, seed=0)
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match="verbose"):
        kbo.minimize(sphere, [(0, 1)], init=2, iters=0, verbose="yes")


def test_a_bbob_function_runs_from_the_cli_as_a_user_would(run_cli):
    """`kbo optimize --problem bbob:1:2 --dim 3`: the sphere of instance 2; its fopt is the problem's optimum and
    BO gets close to it (random search in [-5, 5]^3 with 20 points is ~10 away)."""
    res = run_cli("optimize", "--problem", "bbob:1:2", "--dim", "3", "--iters", "15", "--json")
    fopt = kbo.problem("bbob:1:2", 3).optimum
    assert res["best_value"] >= fopt - 1e-9
    assert res["best_value"] - fopt < 1.0


def test_agpucb_defaults_find_a_narrow_global_minimum_in_any_units():
    # well-1d of `kbo bench adaptive-suite` in units of a million: a broad minimum at 0.75 and a narrow, deeper
    # one at 0.15 (width 0.025). strategy="agpucb" with its defaults only (targets are standardised) finds it
    # within 5 + 45 evaluations; GP-UCB as docs/bench/adaptive.md measured it (before its noise cap and
    # end-game) with the same seed stays on the broad one.
    def f(x):
        x = float(x[0])
        return 1e6 * (-np.exp(-(x - 0.75) ** 2 / (2 * 0.15 ** 2)) - 1.4 * np.exp(-(x - 0.15) ** 2 / (2 * 0.025 ** 2)))

    a = kbo.minimize(f, [(0, 1)], strategy="agpucb", iters=45, seed=12)
    g = kbo.minimize(f, [(0, 1)], iters=45, seed=12, options={"bo": {"noise": "free", "endgame_fraction": 0}})
    assert a.best_value < -1.0e6 - 1e3
    assert g.best_value > -1.0e6 - 1e3
