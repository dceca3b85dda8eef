#!/usr/bin/env python3
"""Wall time per BO step, kbo vs Optuna's GPSampler, in one run (docs/bench/scale.md).

    bench/peers/setup_optuna_gp.sh /tmp/kbo-peers          # once: Debian torch + Optuna v4.7.0 source
    /usr/bin/python3 bench/peers/gp_step.py --optuna /tmp/kbo-peers/optuna-v4.7.0 --out docs/bench/scale/gp_step.json

Problem: Ackley-6 shifted (kbo's "ackley-shifted", d = 6: Ackley's [-32.768, 32.768]^6 mapped onto [0, 1]^6,
optimum moved off the centre), minimised. For each n the
same n uniform random points (numpy seed 1000 + n) and their values are given to each tool as completed
trials of a new in-memory study, as a user warm-starts a study:
  kbo:    kbo.Study(bounds=...) with default options, study.tell(x, value) per point (the Python module);
  Optuna: optuna.create_study(sampler=GPSampler(seed=...)) with default options, study.add_trial(...).
Then each tool makes 1 untimed step (its cold first fit) and --steps timed steps. A step is what a user
waits for: study.ask() plus reading the suggested point (Optuna: trial.suggest_float per coordinate; the
GP fit and the acquisition optimisation run inside ask for both tools, and kbo's ask includes its storage
reads and the reserving write). Each suggested point is evaluated and told (untimed) before the next step,
so n grows by one per step. kbo refits its hyperparameters at every step below 200 observations and from
there on every ceil(sqrt(n)) new observations (docs/bench/scale.md); --steps 24 (default) covers one
such period at n = 500, and the table gives the median (the acceptance figure) and the mean.

Each (tool, n) runs in its own subprocess, kbo and Optuna alternating at each n, so neither sees the
other's thread settings (kbo holds OpenBLAS at one thread; Optuna leaves numpy/scipy/torch at their
defaults). No BLAS environment variable is set by this script; run it without one, as a user would.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DIM = 6


def ackley_shifted(x):
    """kbo's "ackley-shifted" on [0, 1]^d (src/optimize/problems.cpp), recomputed here for Optuna's process."""
    import numpy as np
    ustar = 0.5 + np.array([0.137, -0.213, 0.071, -0.319, 0.241, -0.089])[: len(x)]
    z = 65.536 * (np.asarray(x, dtype=float) - ustar)  # Ackley's [-32.768, 32.768]^d on the unit cube, shifted
    d = len(z)
    return float(-20.0 * math.exp(-0.2 * math.sqrt(float(z @ z) / d)) - math.exp(float(np.cos(2 * math.pi * z).sum()) / d)
                 + 20.0 + math.e)


def observed_points(n):
    import numpy as np
    rng = np.random.default_rng(1000 + n)
    X = rng.uniform(0.0, 1.0, size=(n, DIM))
    return X, [ackley_shifted(x) for x in X]


# ---------------------------------------------------------------- one tool, one n (subprocess)

def run_kbo(n, steps, seed, options=None):
    import numpy as np
    import kbo
    X, y = observed_points(n)
    assert abs(kbo.problem("ackley-shifted", DIM)(X[0]) - y[0]) < 1e-9 * max(1.0, abs(y[0])), "objective mismatch"
    extra = {"options": options} if options else {}
    study = kbo.Study(bounds=np.array([[0.0, 1.0]] * DIM), seed=seed, **extra)
    for x, v in zip(X, y):
        study.tell(x, v)
    times, refits = [], []
    for step in range(steps + 1):
        t0 = time.perf_counter()
        trial = study.ask()
        x = np.array(trial.x)
        dt = time.perf_counter() - t0
        info = study.strategy_info()
        study.tell(trial, ackley_shifted(x))
        if step > 0:
            times.append(dt)
            refits.append(info.get("refit", "full"))
    return {"times": times, "refits": refits, "version": getattr(kbo, "__version__", "")}


def run_optuna(n, steps, seed):
    import numpy as np
    import optuna
    import torch
    from optuna.distributions import FloatDistribution
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    import warnings
    warnings.simplefilter("ignore")
    X, y = observed_points(n)
    names = [f"x{i}" for i in range(DIM)]
    dist = {k: FloatDistribution(0.0, 1.0) for k in names}
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.GPSampler(seed=seed))
    study.add_trials([optuna.trial.create_trial(params=dict(zip(names, map(float, x))), distributions=dist, value=v)
                      for x, v in zip(X, y)])
    times = []
    for step in range(steps + 1):
        t0 = time.perf_counter()
        trial = study.ask()
        x = np.array([trial.suggest_float(k, 0.0, 1.0) for k in names])
        dt = time.perf_counter() - t0
        study.tell(trial, ackley_shifted(x))
        if step > 0:
            times.append(dt)
    return {"times": times, "version": optuna.__version__, "torch": torch.__version__,
            "torch_threads": torch.get_num_threads(), "optuna_path": os.path.dirname(os.path.dirname(optuna.__file__))}


def optuna_quality(seeds, iters, n_init):
    """Optuna GPSampler (n_startup_trials = n_init) on `kbo bench bo`'s problems: best value after n_init + iters."""
    import numpy as np
    import optuna
    import kbo
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    import warnings
    warnings.simplefilter("ignore")
    out = {}
    for name in ("branin", "hartmann6", "ackley-shifted"):
        p = kbo.problem(name, DIM if name == "ackley-shifted" else 0)
        b = np.asarray(p.bounds)
        best = []
        for s in seeds:
            study = optuna.create_study(sampler=optuna.samplers.GPSampler(seed=s, n_startup_trials=n_init))
            study.optimize(lambda t: p(np.array([t.suggest_float(f"x{i}", b[i, 0], b[i, 1]) for i in range(len(b))])),
                           n_trials=n_init + iters)
            best.append(study.best_value)
        out[name] = {"best": best, "mean": statistics.fmean(best), "std": statistics.stdev(best) if len(best) > 1 else 0.0,
                     "optimum": p.optimum}
        print(f"optuna quality {name}: mean best {out[name]['mean']:.4g} ± {out[name]['std']:.3g}", file=sys.stderr)
    return out


# ---------------------------------------------------------------- driver

def fail(message, code=2):
    print(f"gp_step: {message}", file=sys.stderr)
    sys.exit(code)


def child(tool, n, steps, seed, path, options=""):
    env = dict(os.environ)
    env["PYTHONPATH"] = path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-W", "ignore", os.path.abspath(__file__), "--child", tool, str(n), str(steps), str(seed), options]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{tool} at n = {n} failed:\n{r.stderr[-3000:]}", 1)
    return json.loads(r.stdout.strip().splitlines()[-1])


def summary(times):
    return {"median": statistics.median(times), "mean": statistics.fmean(times), "max": max(times), "min": min(times)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 500])
    ap.add_argument("--steps", type=int, default=24, help="timed steps per (tool, n) (default 24)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="5 steps per (tool, n), no quality runs")
    ap.add_argument("--kbo", default=os.path.join(ROOT, "build", "python"), help="directory holding the kbo module")
    ap.add_argument("--optuna", action="append", default=[],
                    help="Optuna source tree (setup_optuna_gp.sh prints it); repeat for several Optuna versions")
    ap.add_argument("--quality", type=int, default=0, metavar="SEEDS",
                    help="also run Optuna's GPSampler on kbo bench bo's problems (5 + 50) with this many seeds")
    ap.add_argument("--out", help="write the results as JSON here (and the table as .md beside it)")
    ap.add_argument("--kbo-options", default="", metavar="JSON",
                    help='kbo study options (e.g. \'{"bo": {"full_refit_below": 200}}\'), to time a variant; default: none')
    ap.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        tool, n, steps, seed = a.child[0], int(a.child[1]), int(a.child[2]), int(a.child[3])
        opts = json.loads(a.child[4]) if a.child[4] else None
        res = run_kbo(n, steps, seed, opts) if tool == "kbo" else run_optuna(n, steps, seed)
        print(json.dumps(res))
        return
    for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        if v in os.environ:
            print(f"gp_step: warning: {v}={os.environ[v]} is set; users run without it", file=sys.stderr)
    if not a.optuna:
        fail("give --optuna DIR (run bench/peers/setup_optuna_gp.sh, it prints DIR)")
    for path in a.optuna:
        if not os.path.isfile(os.path.join(path, "optuna", "__init__.py")):
            fail(f"--optuna {path}: not an Optuna source tree (no optuna/__init__.py); run bench/peers/setup_optuna_gp.sh")
    steps = 5 if a.quick else a.steps
    if steps < 1 or any(n < 11 for n in a.sizes):
        fail("--steps must be >= 1 and every --sizes value >= 11 (past both tools' initial designs)")
    results = {"problem": "ackley-shifted", "dim": DIM, "steps": steps, "seed": a.seed, "sizes": [],
               "kbo_options": json.loads(a.kbo_options) if a.kbo_options else {}}
    t_start = time.time()
    for n in a.sizes:
        row = {"n": n, "load_before": os.getloadavg()}
        r = child("kbo", n, steps, a.seed, a.kbo, a.kbo_options)
        row["kbo"] = summary(r["times"]) | {"times": r["times"], "refits": r["refits"]}
        print(f"n={n} kbo: median {row['kbo']['median']:.4f} s, mean {row['kbo']['mean']:.4f} s "
              f"({r['refits'].count('full')} full and {r['refits'].count('warm')} warm refits in {steps} steps)",
              file=sys.stderr)
        row["optuna"] = []
        for path in a.optuna:
            o = child("optuna", n, steps, a.seed, path)
            results.setdefault("optuna_versions", {})[path] = {k: o[k] for k in ("version", "torch", "torch_threads")}
            row["optuna"].append(summary(o["times"]) | {"times": o["times"], "version": o["version"], "path": path})
            print(f"n={n} optuna {o['version']}: median {row['optuna'][-1]['median']:.4f} s, "
                  f"mean {row['optuna'][-1]['mean']:.4f} s", file=sys.stderr)
        row["load_after"] = os.getloadavg()
        results["sizes"].append(row)
    if a.quality and not a.quick:
        env_path = os.pathsep.join([a.optuna[0], a.kbo])
        r = subprocess.run([sys.executable, "-W", "ignore", "-c",
                            f"import sys, json; sys.path[:0] = {env_path.split(os.pathsep)!r}; "
                            f"sys.argv = ['x']; import importlib.util as u; "
                            f"s = u.spec_from_file_location('g', {os.path.abspath(__file__)!r}); m = u.module_from_spec(s); "
                            f"s.loader.exec_module(m); print(json.dumps(m.optuna_quality(list(range({a.quality})), 50, 5)))"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"quality run failed:\n{r.stderr[-3000:]}", 1)
        sys.stderr.write(r.stderr)
        results["optuna_quality"] = json.loads(r.stdout.strip().splitlines()[-1])
    results["seconds"] = time.time() - t_start
    md = table(results)
    print(md)
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        with open(a.out, "w") as f:
            json.dump(results, f, indent=1)
        with open(os.path.splitext(a.out)[0] + ".md", "w") as f:
            f.write(md)


def table(res):
    heads = ["n", "kbo median (s)", "kbo mean (s)", "kbo θ refits: full / warm / none"]
    versions = [o["version"] for o in res["sizes"][0]["optuna"]]
    for v in versions:
        heads += [f"Optuna {v} median (s)", f"Optuna {v} mean (s)", f"Optuna {v} / kbo (medians)"]
    heads.append("load (1 min) before, after")
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for r in res["sizes"]:
        k = r["kbo"]
        cells = [str(r["n"]), f"{k['median']:.4f}", f"{k['mean']:.4f}", " / ".join(str(k["refits"].count(w)) for w in ("full", "warm", "none"))]
        for o in r["optuna"]:
            cells += [f"{o['median']:.4f}", f"{o['mean']:.4f}", f"**{o['median'] / k['median']:.1f}×**"]
        cells.append(f"{r['load_before'][0]:.1f}, {r['load_after'][0]:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    out = "\n".join(lines) + "\n"
    if "optuna_quality" in res:
        out += "\n| problem | Optuna GPSampler mean best ± std (5 + 50) |\n|---|---|\n"
        for name, q in res["optuna_quality"].items():
            out += f"| {name} | {q['mean']:.4g} ± {q['std']:.3g} |\n"
    return out


if __name__ == "__main__":
    main()
