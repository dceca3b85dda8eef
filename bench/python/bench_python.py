"""Binding overhead of the Python module: the shifted Ackley-6 BO run (5 Sobol + 50 BO steps) from Python
and from the CLI (`kbo optimize --problem ackley-shifted --dim 6`), same seeds, runs interleaved so both see
the same machine load.

    PYTHONPATH=build/python OPENBLAS_NUM_THREADS=1 nice -n 10 /usr/bin/python3 bench/python/bench_python.py \
        --kbo build/kbo --seeds 0 1 2 3 4 --out overhead.json

Three ways per seed: "cli" (the kbo executable, a subprocess), "python-problem" (kbo.minimize on the C++
problem object: every evaluation still goes C++ -> Python -> C++), "python-numpy" (kbo.minimize on a numpy
implementation of the same function). Wall and CPU time (the process's own CPU time for Python, the
child's for the CLI; all threads)."""
import argparse
import json
import os
import resource
import subprocess
import time

import numpy as np

import kbo

SHIFT = np.array([0.137, -0.213, 0.071, -0.319, 0.241, -0.089])  # src/optimize/problems.cpp


def ackley_shifted_numpy(u):
    x = 65.536 * (u - (0.5 + SHIFT[: u.size]))
    d = x.size
    return float(-20.0 * np.exp(-0.2 * np.sqrt(np.sum(x * x) / d)) - np.exp(np.sum(np.cos(2 * np.pi * x)) / d)
                 + 20.0 + np.e)


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cli(binary, seed, init, iters):
    c0, t0 = child_cpu(), time.perf_counter()
    out = subprocess.run([binary, "optimize", "--problem", "ackley-shifted", "--dim", "6", "--init", str(init),
                          "--iters", str(iters), "--seed", str(seed), "--json"], check=True, capture_output=True,
                         text=True).stdout
    wall, cpu = time.perf_counter() - t0, child_cpu() - c0
    d = json.loads(out)
    return wall, cpu, np.array([t["x"] for t in d["trials"]]), d["best_value"]


def run_python(f, seed, init, iters):
    c0, t0 = time.process_time(), time.perf_counter()
    res = kbo.minimize(f, [(0.0, 1.0)] * 6, init=init, iters=iters, seed=seed)
    return time.perf_counter() - t0, time.process_time() - c0, res.X, res.best_value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kbo", default="build/kbo")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--init", type=int, default=5)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--out", default="overhead.json")
    a = ap.parse_args()
    problem = kbo.problem("ackley-shifted", 6)
    # The numpy version must be the same function (up to rounding) for the comparison to mean anything.
    u = np.random.default_rng(0).uniform(0, 1, (100, 6))
    max_diff = max(abs(problem(x) - ackley_shifted_numpy(x)) for x in u)
    assert max_diff < 1e-12, max_diff
    ways = {"cli": lambda s: run_cli(a.kbo, s, a.init, a.iters),
            "python-problem": lambda s: run_python(problem, s, a.init, a.iters),
            "python-numpy": lambda s: run_python(ackley_shifted_numpy, s, a.init, a.iters)}
    load_start = os.getloadavg()
    rows = []
    for seed in a.seeds:
        got = {name: way(seed) for name, way in ways.items()}
        row = {"seed": seed}
        for name, (wall, cpu, X, best) in got.items():
            row[name] = {"wall_s": wall, "cpu_s": cpu, "best": best}
        row["python-problem"]["same_trials_as_cli"] = bool(np.array_equal(got["python-problem"][2], got["cli"][2]))
        row["python-numpy"]["same_trials_as_cli"] = bool(np.array_equal(got["python-numpy"][2], got["cli"][2]))
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {}
    for name in ways:
        wall = np.array([r[name]["wall_s"] for r in rows])
        cpu = np.array([r[name]["cpu_s"] for r in rows])
        summary[name] = {"wall_s_mean": wall.mean(), "cpu_s_mean": cpu.mean(),
                         "wall_s_per_iteration": wall.mean() / a.iters, "cpu_s_per_iteration": cpu.mean() / a.iters}
    for name in ("python-problem", "python-numpy"):
        summary[name]["wall_ratio_vs_cli"] = float(np.mean([r[name]["wall_s"] / r["cli"]["wall_s"] for r in rows]))
        summary[name]["cpu_ratio_vs_cli"] = float(np.mean([r[name]["cpu_s"] / r["cli"]["cpu_s"] for r in rows]))
        summary[name]["overhead_wall_s_per_iteration"] = float(
            np.mean([(r[name]["wall_s"] - r["cli"]["wall_s"]) / a.iters for r in rows]))
        summary[name]["overhead_cpu_s_per_iteration"] = float(
            np.mean([(r[name]["cpu_s"] - r["cli"]["cpu_s"]) / a.iters for r in rows]))
    # Pure cost of one objective call through the binding (C++ -> Python -> C++), no BO around it.
    x = np.full(6, 0.3)
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        problem(x)
    summary["problem_call_us"] = (time.perf_counter() - t0) / n * 1e6
    out = {"command": "see docstring", "init": a.init, "iters": a.iters, "seeds": a.seeds,
           "load_start": load_start, "load_end": os.getloadavg(), "rows": rows, "summary": summary}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
