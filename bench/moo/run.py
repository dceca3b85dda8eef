#!/usr/bin/env python3
"""`kbo bench moo`: multi-objective BO, kbo against Optuna's NSGA-II, Optuna's GPSampler and random search.

    kbo bench moo --out DIR [--seeds 10] [--problems all] [--methods kbo,nsga2,gp,random]
                  [--optuna /tmp/kbo-peers/optuna-v4.7.0] [--ask-time-n 200] [--report-only]

Problems (bench/moo/problems.py, as BoTorch defines them, every objective minimised): BraninCurrin (d = 2),
ZDT1/ZDT2/ZDT3 (d = 6), DTLZ2 (d = 6, 2 and 3 objectives), VehicleSafety (d = 5, 3 objectives); held out
(`--problems held-out`, reported in their own table): ZDT1 at d = 10, DTLZ1 and DTLZ7 (d = 6). Budget: 10
initial points + 90 steps. The hypervolume after 25, 50 and 100 evaluations is computed here for every
method alike (problems.hypervolume, exact, not kbo's), with BoTorch's reference point of each problem.
Methods:
  kbo     kbo.Study(directions=[...]) ask/tell with its defaults (logEHVI, reference point inferred), init=10
  nsga2   Optuna's NSGAIISampler (population 50 by default), seed
  gp      Optuna's GPSampler (multi-objective: its logEHVI), n_startup_trials=10, seed; needs --optuna DIR
          (bench/peers/setup_optuna_gp.sh) because Debian's Optuna 3.1 has no GPSampler
  random  Optuna's RandomSampler, seed
Every (method, problem, seed) run is one JSON file under DIR/runs/, so an interrupted bench resumes; each
method runs in its own subprocess (Optuna v4.7 from --optuna only for gp; Debian's 3.1 otherwise).
Time per ask: the wall time of the method's ask (study.ask() and reading the point).
DIR/moo.md holds the table (mean ± standard error over seeds) and DIR/summary.json the numbers."""
import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from problems import ALL_PROBLEMS, HELD_OUT, PROBLEMS, hypervolume  # noqa: E402

METHODS = ["kbo", "gp", "nsga2", "random"]
CHECKPOINTS = [25, 50, 100]
N_INIT, BUDGET = 10, 100


def run_kbo(name, seed):
    import kbo
    f, bounds, ref = ALL_PROBLEMS[name]
    study = kbo.Study(bounds=bounds, directions=["minimize"] * len(ref), init=N_INIT, seed=seed)
    values, ask_seconds = [], []
    for _ in range(BUDGET):
        t0 = time.perf_counter()
        trial = study.ask()
        x = list(trial.x)
        ask_seconds.append(time.perf_counter() - t0)
        v = f(x)
        study.tell(trial, v)
        values.append(v)
    return values, ask_seconds


def run_optuna(name, seed, method):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    f, bounds, ref = ALL_PROBLEMS[name]
    if method == "nsga2":
        sampler = optuna.samplers.NSGAIISampler(seed=seed)
    elif method == "gp":
        sampler = optuna.samplers.GPSampler(seed=seed, n_startup_trials=N_INIT)
    else:
        sampler = optuna.samplers.RandomSampler(seed=seed)
    study = optuna.create_study(directions=["minimize"] * len(ref), sampler=sampler)
    values, ask_seconds = [], []
    for _ in range(BUDGET):
        t0 = time.perf_counter()
        trial = study.ask()
        x = [trial.suggest_float(f"x{i}", lo, hi) for i, (lo, hi) in enumerate(bounds)]
        ask_seconds.append(time.perf_counter() - t0)
        v = f(x)
        study.tell(trial, v)
        values.append(v)
    return values, ask_seconds


def worker(args):
    """Runs every missing (problem, seed) of one method in this process."""
    out = pathlib.Path(args.out) / "runs"
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(args.seeds):  # seeds outermost: an interrupted bench has every problem at fewer seeds
        for name in args.problems:
            path = out / f"{args.method}_{name}_{seed}.json"
            if path.exists():
                continue
            values, ask_seconds = run_kbo(name, seed) if args.method == "kbo" else run_optuna(name, seed, args.method)
            ref = ALL_PROBLEMS[name][2]
            record = {"method": args.method, "problem": name, "seed": seed, "values": values,
                      "ask_seconds": ask_seconds,
                      "hypervolume": {str(n): hypervolume(values[:n], ref) for n in CHECKPOINTS}}
            path.write_text(json.dumps(record))
            print(f"{args.method} {name} seed {seed}: HV@100 {record['hypervolume']['100']:.6g}, "
                  f"ask {statistics.mean(ask_seconds[N_INIT:]):.3f} s", file=sys.stderr, flush=True)


def ask_time(n, seed=0, objectives=2):
    """Seconds (wall, and CPU of this process) of one kbo ask on BraninCurrin with n complete trials, median
    of 3: with both objectives, or (objectives=1, the reference of the same run) the first alone."""
    import random
    import kbo
    f, bounds, ref = PROBLEMS["branincurrin"]
    rng = random.Random(seed)
    if objectives == 2:
        study = kbo.Study(bounds=bounds, directions=["minimize", "minimize"], init=N_INIT, seed=seed)
        g = f
    else:
        study = kbo.Study(bounds=bounds, init=N_INIT, seed=seed)
        g = lambda x: f(x)[0]  # noqa: E731
    for _ in range(n):
        x = [rng.random(), rng.random()]
        study.tell(x, g(x))
    times, cpu = [], []
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        trial = study.ask()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        study.tell(trial, g(list(trial.x)))
    return statistics.median(times), times, statistics.median(cpu)


def mean_se(xs):
    if not xs:
        return None, None
    m = statistics.mean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, se


def report(args):
    runs = [json.loads(p.read_text()) for p in sorted((pathlib.Path(args.out) / "runs").glob("*.json"))]
    summary = {}
    for r in runs:
        s = summary.setdefault(r["problem"], {}).setdefault(r["method"], {"hv": {str(n): [] for n in CHECKPOINTS},
                                                                          "ask": []})
        for n in CHECKPOINTS:
            s["hv"][str(n)].append(r["hypervolume"][str(n)])
        s["ask"].append(statistics.mean(r["ask_seconds"][N_INIT:]))
    methods = [m for m in METHODS if any(m in v for v in summary.values())]
    lines = []
    for title, group in (("Problems", PROBLEMS), ("Held-out problems (never tuned on)", HELD_OUT)):
        names = [name for name in group if name in summary]
        if not names:
            continue
        lines += [f"{title}: hypervolume (mean ± standard error over seeds (seeds)):", "",
                  "| problem | evals | " + " | ".join(methods) + " |", "|---|---|" + "---|" * len(methods)]
        wins = {m: [0, 0] for m in methods if m != "kbo"}
        for name in names:
            for n in CHECKPOINTS:
                cells = []
                for m in methods:
                    hv = summary[name].get(m, {}).get("hv", {}).get(str(n), [])
                    mu, se = mean_se(hv)
                    cells.append("—" if mu is None else f"{mu:.4g} ± {se:.2g} ({len(hv)})")
                lines.append(f"| {name} | {n} | " + " | ".join(cells) + " |")
            kbo_hv = mean_se(summary[name].get("kbo", {}).get("hv", {}).get("100", []))[0]
            for m in wins:
                other = mean_se(summary[name].get(m, {}).get("hv", {}).get("100", []))[0]
                if kbo_hv is not None and other is not None:
                    wins[m][1] += 1
                    wins[m][0] += kbo_hv >= other
        lines += ["", "Time per ask (mean over the 90 model steps, seconds; mean ± standard error over seeds):", "",
                  "| problem | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
        for name in names:
            cells = []
            for m in methods:
                mu, se = mean_se(summary[name].get(m, {}).get("ask", []))
                cells.append("—" if mu is None else f"{mu:.3f} ± {se:.2g}")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines += ["", "kbo's mean hypervolume after 100 evaluations ≥ the method's, problems: " +
                  ", ".join(f"{m} {w}/{t}" for m, (w, t) in wins.items()), ""]
    text = "\n".join(lines) + "\n"
    (pathlib.Path(args.out) / "moo.md").write_text(text)
    (pathlib.Path(args.out) / "summary.json").write_text(json.dumps(summary, indent=1))
    print(text)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--problems", default="all", help="all (the selection), held-out, or names, comma-separated")
    p.add_argument("--methods", default=",".join(METHODS))
    p.add_argument("--optuna", default="", help="Optuna v4.7 source directory (for gp)")
    p.add_argument("--ask-time-n", type=int, default=0, help="also time one kbo ask at n trials (2 objectives)")
    p.add_argument("--report-only", action="store_true")
    p.add_argument("--method", help=argparse.SUPPRESS)  # a worker subprocess
    args = p.parse_args()
    groups = {"all": list(PROBLEMS), "held-out": list(HELD_OUT)}
    args.problems = [name for part in args.problems.split(",") for name in groups.get(part, [part])]
    for name in args.problems:
        if name not in ALL_PROBLEMS:
            p.error(f"unknown problem '{name}' (allowed: all, held-out, {', '.join(ALL_PROBLEMS)})")
    if args.method:
        worker(args)
        return
    if not args.report_only:
        for m in args.methods.split(","):
            if m not in METHODS:
                p.error(f"unknown method '{m}' (allowed: {', '.join(METHODS)})")
            env = dict(os.environ)
            if m == "gp":
                if not args.optuna:
                    print("gp: skipped (needs --optuna DIR from bench/peers/setup_optuna_gp.sh)", file=sys.stderr)
                    continue
                env["PYTHONPATH"] = args.optuna + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
            cmd = [sys.executable, __file__, "--out", args.out, "--seeds", str(args.seeds), "--problems",
                   ",".join(args.problems), "--method", m]
            subprocess.run(cmd, env=env, check=True)
        if args.ask_time_n > 0:
            med, times, cpu = ask_time(args.ask_time_n)
            ref_med, ref_times, ref_cpu = ask_time(args.ask_time_n, objectives=1)
            load = open("/proc/loadavg").read().split()[:3]
            rec = {"n": args.ask_time_n, "median_seconds": med, "seconds": times, "median_cpu_seconds": cpu,
                   "one_objective_median_seconds": ref_med, "one_objective_median_cpu_seconds": ref_cpu,
                   "loadavg": load}
            (pathlib.Path(args.out) / "ask_time.json").write_text(json.dumps(rec))
            print(f"kbo ask at n = {args.ask_time_n}: 2 objectives {med:.3f} s (CPU {cpu:.3f} s), one objective "
                  f"(gpucb, same run) {ref_med:.3f} s (CPU {ref_cpu:.3f} s); load {' '.join(load)}")
    report(args)


if __name__ == "__main__":
    main()
