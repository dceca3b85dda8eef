"""`kbo bench noisy`: its test functions against published optima and kbo's own C++ problems, the noise scale,
and a small run of the command as a user runs it."""
import json
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import kbo

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench" / "noisy"))
from problems import FUNCTIONS  # noqa: E402
from run import Task  # noqa: E402

# Published minima (Surjanovic & Bingham's library of test functions; Shekel with m = 10), to the digits given:
# the tolerance is half a unit of the last one.
PUBLISHED = {"branin": (0.397887, 5e-7), "hartmann6": (-3.32237, 5e-6), "ackley6-shifted": (0.0, 1e-12),
             "levy8": (0.0, 1e-12), "shekel10": (-10.5364, 5e-5)}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_known_minimum_is_reached_and_no_sampled_point_is_lower(name):
    fn = FUNCTIONS[name]
    value, tol = PUBLISHED[name]
    assert fn(fn.minimiser) == pytest.approx(value, abs=tol)
    assert fn.minimum == pytest.approx(fn(fn.minimiser), abs=1e-12)
    lo, hi = np.array(fn.bounds).T
    X = lo + np.random.default_rng(1).random((20000, fn.dim)) * (hi - lo)
    assert fn.f(X).min() >= fn.minimum - 1e-12


@pytest.mark.parametrize("name,kbo_name,dim", [("branin", "branin", 0), ("hartmann6", "hartmann6", 0),
                                               ("ackley6-shifted", "ackley-shifted", 6)])
def test_functions_equal_kbos_implementation(name, kbo_name, dim):
    fn, p = FUNCTIONS[name], kbo.problem(kbo_name, dim)
    lo, hi = np.array(fn.bounds).T
    assert np.allclose(p.bounds, np.array(fn.bounds))
    for x in lo + np.random.default_rng(2).random((50, fn.dim)) * (hi - lo):
        assert fn(x) == pytest.approx(p(x), rel=1e-12, abs=1e-12)


def test_range_is_close_to_the_analytic_one_for_branin():
    # Branin's largest value on its box is at (-5, 0): 308.129...
    u, v = -5.0, 0.0
    top = (v - 5.1 / (4 * math.pi ** 2) * u ** 2 + 5 / math.pi * u - 6) ** 2 + 10 * (1 - 1 / (8 * math.pi)) * math.cos(u) + 10
    assert FUNCTIONS["branin"].range == pytest.approx(top - 0.397887, rel=0.02)
    assert FUNCTIONS["branin"].range <= top - 0.397887


@pytest.mark.parametrize("name,level", [("hartmann6", 0.05), ("levy8", 0.2), ("shekel10", 0.01)])
def test_noise_has_the_stated_scale_and_is_shared_by_methods_of_one_seed(name, level):
    n = 4000
    fn = FUNCTIONS[name]
    a, b, other = Task(name, level, 3, n), Task(name, level, 3, n), Task(name, level, 4, n)
    x = fn.minimiser
    noise = np.array([a(x) for _ in range(n)]) - fn(x)
    sd = level * fn.range
    # The sample sd of n normals lies within 4 of its standard errors (sd / sqrt(2n)) of sd.
    assert abs(noise.std() - sd) < 4 * sd / math.sqrt(2 * n)
    assert abs(noise.mean()) < 4 * sd / math.sqrt(n)
    assert [b(x) for _ in range(5)] == [fn(x) + e for e in noise[:5]]
    assert [other(x) for _ in range(5)] != [fn(x) + e for e in noise[:5]]


def test_bench_noisy_runs_as_a_user_runs_it(tmp_path, kbo_bin):
    out = tmp_path / "out"
    p = subprocess.run([str(kbo_bin), "bench", "noisy", "--out", str(out), "--seeds", "2", "--functions", "branin",
                        "--noise", "0.05", "--methods", "random,kbo", "--budget", "20"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "recommendation:" in p.stderr  # the kbo worker says which recommendation it scores
    summary = json.loads((out / "summary.json").read_text())
    cell = summary["cells"]["branin@0.05"]
    assert cell["kbo"]["n"] == 2 and cell["random"]["n"] == 2
    branin = kbo.problem("branin")
    diffs = {}
    for path in sorted((out / "runs").glob("*.json")):
        r = json.loads(path.read_text())
        assert len(r["values"]) == 20
        # The score is the noise-free value at the recommended point (kbo's C++ Branin), minus the minimum.
        assert r["true"] == pytest.approx(branin(r["recommended_x"]) - 0.397887, abs=1e-5)
        if r["recommendation"].startswith("best observed"):
            assert r["recommended_x"] == pytest.approx(r["xs"][int(np.argmin(r["values"]))])
        diffs.setdefault(r["seed"], {})[r["method"]] = r["true"]
    d = [diffs[s]["kbo"] - diffs[s]["random"] for s in (0, 1)]
    paired = summary["paired"]["branin@0.05"]["kbo-random"]
    assert paired["n"] == 2 and paired["mean"] == pytest.approx(np.mean(d))
    assert paired["se"] == pytest.approx(np.std(d, ddof=1) / math.sqrt(2))
    assert "| branin@0.05 |" in (out / "noisy.md").read_text()


def test_bench_noisy_bad_input_is_one_line_and_exit_2(tmp_path, kbo_bin):
    for args in (["--functions", "nope"], ["--methods", "kbo,cma"], ["--noise", "2"]):
        p = subprocess.run([str(kbo_bin), "bench", "noisy", "--out", str(tmp_path), *args], capture_output=True,
                           text=True)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, (args, p.stderr)
        assert p.stderr.startswith("kbo bench noisy: ")
