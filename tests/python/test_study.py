"""kbo.Study: ask/tell from Python, and one SQLite study shared with `kbo optimize/ask/tell/show`."""
import numpy as np
import pytest

import kbo


def test_ask_tell_round_trip():
    s = kbo.Study(bounds=[(-2, 2)], init=2, seed=5)
    t0 = s.ask()
    assert t0.id == 0 and t0.state == "pending" and t0.x.shape == (1,)
    s.tell(t0, float(t0.x[0] ** 2))
    t1 = s.ask()
    s.tell_failed(t1.id, "simulator crashed")
    t2 = s.ask()
    assert s.trials[2].state == "pending"
    s.tell(t2, 0.5)
    states = [(t.id, t.state, t.reason) for t in s.trials]
    assert states == [(0, "complete", ""), (1, "failed", "simulator crashed"), (2, "complete", "")]
    assert s.best.id in (0, 2) and s.best.value == min(t0.x[0] ** 2, 0.5)
    with pytest.raises(ValueError, match="not pending|pending"):
        s.tell(t2, 1.0)  # already complete


def test_study_continued_from_python_and_back(tmp_path, run_cli):
    url = f"sqlite:{tmp_path / 'shared.db'}"
    run_cli("optimize", "--problem", "branin", "--init", 3, "--iters", 1, "--storage", url, "--study", "b",
            "--seed", 2, "--json")
    # Python opens the CLI's study with its stored configuration and continues it
    s = kbo.Study(url, "b")
    assert s.direction == "minimize" and s.dim == 2 and len(s.trials) == 4 and s.config["seed"] == 2
    t = s.ask()
    assert t.id == 4
    s.tell(t, 123.25)
    shown = run_cli("show", "--storage", url, "--study", "b", "--json")
    assert shown["n_trials"] == 5 and shown["trials"][4]["value"] == 123.25
    np.testing.assert_array_equal(shown["trials"][4]["x"], t.x)
    # the CLI asks, Python tells
    asked = run_cli("ask", "--storage", url, "--study", "b")
    assert [x.state for x in s.trials][5] == "pending"
    s.tell(asked["trial"], 7.5)
    # and kbo optimize resumes the study Python extended (re-running the same command)
    out = run_cli("optimize", "--problem", "branin", "--init", 3, "--iters", 5, "--storage", url, "--study", "b",
                  "--seed", 2, "--json")
    assert out["n_trials"] == 8 and out["trials"][5]["value"] == 7.5


def test_minimize_on_a_cli_study_resumes_it(tmp_path, run_cli):
    url = f"sqlite:{tmp_path / 'r.db'}"
    branin = kbo.problem("branin")
    first = kbo.minimize(branin, init=3, iters=1, seed=0, storage=url, study="r")
    assert len(first.trials) == 4
    out = run_cli("optimize", "--problem", "branin", "--init", 3, "--iters", 3, "--storage", url, "--study", "r",
                  "--json")
    assert out["n_trials"] == 6
    again = kbo.minimize(branin, init=3, iters=4, seed=0, storage=url, study="r")
    assert len(again.trials) == 7
    np.testing.assert_array_equal(again.X[:6], np.array([t["x"] for t in out["trials"]]))


def test_study_errors(tmp_path):
    url = f"sqlite:{tmp_path / 'e.db'}"
    with pytest.raises(kbo.InputError, match="no study named 'nope'"):
        kbo.Study(url, "nope")
    kbo.Study(url, "box", [(0, 1), (0, 1)])
    with pytest.raises(ValueError, match="different space"):
        kbo.Study(url, "box", [(0, 1)])
    with pytest.raises(ValueError, match="in-memory study"):
        kbo.Study()
    s = kbo.Study(bounds=[(0, 1)])
    with pytest.raises(ValueError, match="finite"):
        s.tell(s.ask(), float("inf"))


def test_minimize_stores_the_budget_for_workers(tmp_path, run_cli):
    # As `kbo optimize`, a Python run stores init + iters as the study's budget, so `kbo worker` on the
    # study needs no --max-trials and stops there.
    url = f"sqlite:{tmp_path / 'w.db'}"
    kbo.minimize(kbo.problem("branin"), init=3, iters=1, seed=0, storage=url, study="w")
    assert run_cli("show", "--storage", url, "--study", "w", "--json")["budget"] == 4
    s = kbo.Study(url, "w")
    s.optimize(kbo.problem("branin"), n_total=6)
    assert run_cli("show", "--storage", url, "--study", "w", "--json")["budget"] == 6
    run_cli("worker", "--storage", url, "--study", "w", "--", "echo", "1", parse=False)  # budget met: returns
    assert len(s.trials) == 6
