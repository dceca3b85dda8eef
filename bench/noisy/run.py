#!/usr/bin/env python3
"""`kbo bench noisy`: noisy objectives, kbo against Optuna's GPSampler, Optuna's TPE and random search, scored
by the TRUE value at each method's recommendation.

    kbo bench noisy --out DIR [--seeds 20] [--functions all] [--noise 0.01,0.05,0.2]
                    [--methods kbo,gp,tpe,random] [--variant NAME=JSON ...] [--budget 50]
                    [--optuna /tmp/kbo-peers/optuna-v4.7.0] [--report-only]

Cells: branin, hartmann6, ackley6-shifted, levy8, shekel10 (bench/noisy/problems.py) with Gaussian noise of
standard deviation 1 %, 5 % and 20 % of the function's range (--noise), and the real task svr-diabetes
(bench/noisy/real_task.py: SVR on scikit-learn's diabetes data, a shuffled 3-fold split per trial), whose
noise is its own. --functions takes names (all = the five and svr-diabetes). --seeds N is seeds 0..N-1;
"5-9" or "3,4" name seeds, so a suite runs in pieces into one DIR and the report merges them.
Every method gets --budget evaluations (default 50) and, for one seed, the same noise draw (synthetic: the
k-th evaluation's standard normal; real task: the k-th evaluation's split), so differences are paired.
Methods:
  kbo     kbo.minimize with its defaults (init 5 + budget - 5 steps), seed
  gp      Optuna's GPSampler(seed) with its defaults (deterministic_objective=False, 10 startup trials);
          needs --optuna DIR (bench/peers/setup_optuna_gp.sh) because Debian's Optuna 3.1 has no GPSampler
  tpe     Optuna's TPESampler(seed) with its defaults
  random  Optuna's RandomSampler(seed)
          (every Optuna peer from --optuna DIR when given, else Debian's Optuna 3.1; the runs record which)
  NAME    a kbo variant, --variant NAME='{"options": {"bo": {"noise_cap": 1}}}': kbo.minimize with these
          keyword options
Recommendation: kbo's Result.recommended when the module has it, else its best observed trial (the run
prints which); Optuna's study.best_trial (best observed noisy value) for gp, tpe and random, what a user of
them gets. Score: the true value at the recommendation minus the function's minimum (the real task: the
large-sample loss, not a regret). Each (method, cell, seed) run is one JSON file under DIR/runs/ (an
interrupted suite resumes); each method runs in its own subprocess with one thread for BLAS, OpenMP and torch.
DIR/noisy.md holds the tables and DIR/summary.json the numbers."""
import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import time
import zlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import real_task  # noqa: E402
from problems import FUNCTIONS, NOISE_LEVELS  # noqa: E402

PEERS = ["gp", "tpe", "random"]
METHODS = ["kbo"] + PEERS
ALL_FUNCTIONS = list(FUNCTIONS) + [real_task.NAME]
THREAD_VARIABLES = ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"]


# ---------------------------------------------------------------- one run

class Task:
    """One cell: a noisy objective over the evaluation index, its bounds and the true value of a point."""

    def __init__(self, function, level, seed, budget):
        self.function, self.level, self.seed = function, level, seed
        if function == real_task.NAME:
            self.bounds, self.minimum = real_task.BOUNDS, 0.0
            self.splits = [1000 * seed + k for k in range(budget)]
        else:
            fn = FUNCTIONS[function]
            self.bounds, self.minimum, self.sd = fn.bounds, fn.minimum, level * fn.range
            rng = np.random.default_rng([seed, zlib.crc32(function.encode()), round(level * 10000)])
            self.eps = rng.standard_normal(budget)
        self.xs, self.values, self.eval_seconds = [], [], 0.0

    def __call__(self, x):
        """The k-th evaluation's noisy value at x (k = evaluations so far)."""
        t0 = time.perf_counter()
        x = [float(v) for v in x]
        k = len(self.values)
        if self.function == real_task.NAME:
            v = real_task.cv_loss(x, self.splits[k])
        else:
            v = FUNCTIONS[self.function](x) + self.sd * float(self.eps[k])
        self.xs.append(x)
        self.values.append(v)
        self.eval_seconds += time.perf_counter() - t0
        return v

    def true_score(self, x):
        if self.function == real_task.NAME:
            return real_task.true_loss(x)
        return FUNCTIONS[self.function](x) - self.minimum


def kbo_recommendation(result):
    """(point, how): Result.recommended when this kbo has it (a point, an object or dict with x, or a method
    returning one), else the best observed trial's point."""
    rec = getattr(result, "recommended", None)
    if callable(rec):  # a method rather than an attribute
        rec = rec()
    if rec is not None:
        x = getattr(rec, "x", None)
        how = "Result.recommended"
        if x is None and isinstance(rec, dict):
            x = rec.get("x")
            if rec.get("by"):  # which rule chose it (the posterior mean, or the best observed value)
                how += f" (by {rec['by']})"
        return [float(v) for v in (rec if x is None else x)], how
    return [float(v) for v in result.best_x], "best observed (Result.best_x)"


def kbo_init(bounds, options):
    """The number of initial points kbo uses with these options (its default unless they set init)."""
    import kbo
    return kbo.Study(bounds=bounds, **options)._s.n_init


def run_kbo(task, budget, options):
    import kbo
    init = kbo_init(task.bounds, options)
    result = kbo.minimize(task, task.bounds, iters=budget - init, seed=task.seed, **options)
    x, how = kbo_recommendation(result)
    return x, how


def run_optuna(task, budget, method):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if method == "gp":
        import torch
        torch.set_num_threads(1)
        sampler = optuna.samplers.GPSampler(seed=task.seed)
    elif method == "tpe":
        sampler = optuna.samplers.TPESampler(seed=task.seed)
    else:
        sampler = optuna.samplers.RandomSampler(seed=task.seed)
    study = optuna.create_study(sampler=sampler)
    for _ in range(budget):
        trial = study.ask()
        x = [trial.suggest_float(f"x{i}", lo, hi) for i, (lo, hi) in enumerate(task.bounds)]
        study.tell(trial, task(x))
    best = study.best_trial
    how = f"best observed (study.best_trial, Optuna {optuna.__version__})"
    return [best.params[f"x{i}"] for i in range(len(task.bounds))], how


def run_one(method, function, level, seed, budget, variant):
    task = Task(function, level, seed, budget)
    t0 = time.perf_counter()
    if method in PEERS:
        x, how = run_optuna(task, budget, method)
    else:
        x, how = run_kbo(task, budget, variant or {})
    seconds = time.perf_counter() - t0
    best = int(np.argmin(task.values))
    record = {"method": method, "function": function, "noise": level, "seed": seed, "budget": budget,
              "xs": task.xs, "values": task.values, "recommended_x": x, "recommendation": how,
              "true": task.true_score(x), "true_at_best_observed": task.true_score(task.xs[best]),
              "optimizer_seconds_per_eval": (seconds - task.eval_seconds) / budget}
    return record


def cell_key(function, level):
    return f"{function}@{'cv' if function == real_task.NAME else f'{level:g}'}"


def cells_of(functions, levels):
    return [(f, None if f == real_task.NAME else lv) for f in functions
            for lv in ([None] if f == real_task.NAME else levels)]


def worker(args, variants):
    """Runs every missing (cell, seed) of one method in this process."""
    out = pathlib.Path(args.out) / "runs"
    out.mkdir(parents=True, exist_ok=True)
    cells = cells_of(args.functions, args.noise)
    todo = [(s, f, lv) for s in args.seeds for f, lv in cells  # seeds outermost: a partial suite covers every cell
            if not (out / f"{args.method}_{cell_key(f, lv)}_{s}.json").exists()]
    print(f"{args.method}: {len(todo)} runs to do", file=sys.stderr, flush=True)
    if args.method not in PEERS:
        import kbo
        print(f"{args.method}: kbo from {os.path.dirname(kbo.__file__)}", file=sys.stderr)
    t_start = time.time()
    for k, (seed, function, level) in enumerate(todo, 1):
        path = out / f"{args.method}_{cell_key(function, level)}_{seed}.json"
        r = run_one(args.method, function, level, seed, args.budget, variants.get(args.method))
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(r))
        tmp.replace(path)  # a run is complete on disk or absent
        elapsed = time.time() - t_start
        if k == 1:
            print(f"{args.method}: recommendation: {r['recommendation']}", file=sys.stderr)
        print(f"[{args.method} {k}/{len(todo)}] {cell_key(function, level)} seed {seed}: true {r['true']:.4g} "
              f"(best observed's {r['true_at_best_observed']:.4g}), {r['optimizer_seconds_per_eval']:.3f} s/eval "
              f"| elapsed {elapsed:.0f} s, left ~{elapsed / k * (len(todo) - k):.0f} s", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- report

def mean_se(xs):
    if not xs:
        return None, None
    return statistics.mean(xs), (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan"))


def fmt(mu, se, n=None):
    if mu is None:
        return "—"
    spread = "" if se != se else f" ± {se:.2g}"  # one seed: no standard error
    return f"{mu:.4g}{spread}" + ("" if n is None else f" ({n})")


def paired_tables(by, cells, kbos, pairs, summary):
    """The paired differences kbo-method − peer per cell, and the win counts (lines of noisy.md)."""
    lines = ["", "Paired difference (kbo-method − peer) of the true score over the seeds both have: mean ± "
              "standard error (pairs); negative = kbo better.", "",
              "| cell | " + " | ".join(f"{k} − {p}" for k, p in pairs) + " |", "|---|" + "---|" * len(pairs)]
    for c in cells:
        row = []
        for k, p in pairs:
            common = sorted(set(by[c].get(k, {})) & set(by[c].get(p, {})))
            d = [by[c][k][s]["true"] - by[c][p][s]["true"] for s in common]
            mu, se = mean_se(d)
            summary["paired"].setdefault(c, {})[f"{k}-{p}"] = {"n": len(d), "mean": mu, "se": se}
            row.append(fmt(mu, se, len(d)))
        lines.append(f"| {c} | " + " | ".join(row) + " |")
    lines += ["", "Wins: cells where the kbo-method's mean paired difference is < 0 (in brackets: < −1 paired "
              "standard error, i.e. not a tie), synthetic cells and the real task separately.", ""]
    for k, p in pairs:
        syn = [c for c in cells if not c.startswith(real_task.NAME) and summary["paired"][c][f"{k}-{p}"]["n"]]
        real = [c for c in cells if c.startswith(real_task.NAME) and summary["paired"][c][f"{k}-{p}"]["n"]]

        def count(cs):
            ds = [summary["paired"][c][f"{k}-{p}"] for c in cs]
            return (sum(d["mean"] < 0 for d in ds),
                    sum(d["se"] == d["se"] and d["mean"] < -d["se"] for d in ds), len(ds))
        w, ws, n = count(syn)
        rw, rws, rn = count(real)
        summary["wins"][f"{k}-{p}"] = {"synthetic": [w, ws, n], "real": [rw, rws, rn]}
        lines.append(f"- {k} vs {p}: synthetic {w}/{n} [{ws}/{n}], real task {rw}/{rn} [{rws}/{rn}]")
    lines += ["", "Acceptance (mean true score better than GPSampler's and TPE's on >= 12 of the 15 synthetic cells "
              "and on the real task; it needs all 15 + 1 cells of both peers):", ""]
    for k in kbos:
        wins = [summary["wins"].get(f"{k}-{p}") for p in ("gp", "tpe")]
        if any(w is None or w["synthetic"][2] < 15 or w["real"][2] < 1 for w in wins):
            verdict = "not evaluable (cells missing)"
        else:
            met = all(w["synthetic"][0] >= 12 and w["real"][0] == 1 for w in wins)
            verdict = "met" if met else "not met"
        summary.setdefault("acceptance", {})[k] = verdict
        lines.append(f"- {k}: {verdict}")
    return lines


def best_evaluated_table(by, cells, methods, summary):
    """The true regret of the best point each method EVALUATED (the score a perfect choice among its own trials
    would get), beside the table of recommendations: the gap between the two is what the noise cost the
    choice, the rest is the search. Synthetic cells only (the real task's true value is too costly for every
    trial)."""
    lines = ["", "Best true regret among the points each method evaluated (mean ± standard error over seeds): the "
             "score of a perfect choice among its own trials; synthetic cells.", "",
             "| cell | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for c in cells:
        if c.startswith(real_task.NAME):
            continue
        row = []
        for m in methods:
            xs = []
            for r in by[c].get(m, {}).values():
                fn = FUNCTIONS[r["function"]]
                xs.append(float(fn.f(np.array(r["xs"])).min() - fn.minimum))
            mu, se = mean_se(xs)
            summary["cells"][c][m]["best_evaluated_mean"] = mu
            row.append(fmt(mu, se))
        lines.append(f"| {c} | " + " | ".join(row) + " |")
    return lines


def report(out, functions, levels):
    runs = [json.loads(p.read_text()) for p in sorted((out / "runs").glob("*.json"))]
    by = {}  # cell -> method -> seed -> record
    for r in runs:
        by.setdefault(cell_key(r["function"], r["noise"]), {}).setdefault(r["method"], {})[r["seed"]] = r
    present = {m for c in by.values() for m in c}
    kbos = [m for m in sorted(present) if m not in PEERS]
    kbos = (["kbo"] if "kbo" in kbos else []) + [m for m in kbos if m != "kbo"]
    methods = kbos + [m for m in PEERS if m in present]
    peers = [m for m in PEERS if m in present]
    cells = [cell_key(f, lv) for f, lv in cells_of(functions, levels) if cell_key(f, lv) in by]
    summary = {"cells": {}, "paired": {}, "wins": {}, "recommendation": {}}
    for r in runs:
        summary["recommendation"].setdefault(r["method"], set()).add(r["recommendation"])
    summary["recommendation"] = {m: sorted(v) for m, v in summary["recommendation"].items()}
    lines = ["True score at the recommendation (regret f(x) − f* for the functions, large-sample 1 − R² for "
             "svr-diabetes; lower is better): mean ± standard error over seeds (seeds).", "",
             "| cell | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for c in cells:
        row = []
        for m in methods:
            xs = [r["true"] for r in by[c].get(m, {}).values()]
            mu, se = mean_se(xs)
            summary["cells"].setdefault(c, {})[m] = {"n": len(xs), "mean": mu, "se": se, "true_by_seed": {
                str(seed): by[c][m][seed]["true"] for seed in sorted(by[c].get(m, {}))}}
            row.append(fmt(mu, se, len(xs)))
        lines.append(f"| {c} | " + " | ".join(row) + " |")
    lines += best_evaluated_table(by, cells, methods, summary)
    pairs = [(k, p) for k in kbos for p in peers]
    if pairs:
        lines += paired_tables(by, cells, kbos, pairs, summary)
    lines += ["", "Optimiser time per evaluation (seconds, wall time of the run minus the evaluations, over the "
              "budget), mean over every run:", "",
              "| " + " | ".join(methods) + " |", "|" + "---|" * len(methods)]
    lines.append("| " + " | ".join(
        f"{statistics.mean(r['optimizer_seconds_per_eval'] for r in runs if r['method'] == m):.3f}"
        for m in methods) + " |")
    lines += ["", "Recommendation: " + "; ".join(f"{m}: {', '.join(v)}" for m, v in
                                                 summary["recommendation"].items())]
    text = "\n".join(lines) + "\n"
    (out / "noisy.md").write_text(text)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(text)


# ---------------------------------------------------------------- command line

class OneLineErrors(argparse.ArgumentParser):
    """Bad input is one line naming the problem, exit status 2 (as every kbo command)."""

    def error(self, message):
        print(f"kbo bench noisy: {message}", file=sys.stderr)
        sys.exit(2)


def parse_seeds(text):
    """'20' -> 0..19; '5-9' and '3,4' (anything with '-' or ',') -> those seeds."""
    if "-" not in text and "," not in text:
        return list(range(int(text)))
    out = []
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def check_variant(options):
    """Raises what kbo.minimize raises for these options (one evaluation of a 2-d sphere)."""
    import kbo
    kbo.minimize(lambda x: sum(v * v for v in x), [(-1, 1), (-1, 1)], iters=0, **{"init": 1, **options})


def main():
    ap = OneLineErrors(prog="kbo bench noisy", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seeds", default="20")
    ap.add_argument("--functions", default="all")
    ap.add_argument("--noise", default=",".join(f"{lv:g}" for lv in NOISE_LEVELS))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                    help="an extra kbo method: NAME='{\"options\": {\"bo\": {\"noise_cap\": 1}}}'")
    ap.add_argument("--budget", type=int, default=50)
    ap.add_argument("--optuna", default="", help="Optuna v4.7 source directory (for gp)")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--method", help=argparse.SUPPRESS)  # a worker subprocess
    a = ap.parse_args()
    try:
        a.seeds = parse_seeds(a.seeds)
        a.noise = [float(v) for v in a.noise.split(",")]
    except ValueError as e:
        ap.error(f"--seeds is a count or a list such as 0-9,12; --noise a list of fractions ({e})")
    if not a.seeds or min(a.seeds) < 0:
        ap.error("--seeds: give at least one seed >= 0")
    if any(not 0.0 < lv <= 1.0 for lv in a.noise):
        ap.error("--noise: fractions of the range in (0, 1], such as 0.01,0.05,0.2")
    a.functions = ALL_FUNCTIONS if a.functions == "all" else a.functions.split(",")
    bad = [f for f in a.functions if f not in ALL_FUNCTIONS]
    if bad:
        ap.error(f"unknown function(s) {', '.join(bad)} (allowed: {', '.join(ALL_FUNCTIONS)}, all)")
    if a.budget < 12:
        ap.error("--budget must be >= 12 (above every method's initial design)")
    variants = {}
    for v in a.variant:
        name, _, text = v.partition("=")
        try:
            variants[name] = json.loads(text)
        except json.JSONDecodeError as e:
            ap.error(f"--variant {name}: not JSON ({e})")
        if not isinstance(variants[name], dict) or not name or name in METHODS or "_" in name:
            ap.error(f"--variant {v!r}: expected NAME='{{...}}' with a new NAME (no '_')")
    if a.method:
        worker(a, variants)
        return
    methods = a.methods.split(",") + [v for v in variants if v not in a.methods.split(",")]
    bad = [m for m in methods if m not in METHODS and m not in variants]
    if bad:
        ap.error(f"unknown method(s) {', '.join(bad)} (allowed: {', '.join(METHODS)}, or a --variant NAME)")
    for name, options in variants.items():  # a bad option is one line now, not a worker's traceback later
        try:
            check_variant(options)
        except Exception as e:  # kbo.InputError, or TypeError for an unknown keyword of kbo.minimize
            ap.error(f"--variant {name}: {e}")
    out = pathlib.Path(a.out)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    if not a.report_only:
        for m in methods:
            env = dict(os.environ, **{v: "1" for v in THREAD_VARIABLES})
            if m == "gp" and not a.optuna:
                print("gp: skipped (needs --optuna DIR from bench/peers/setup_optuna_gp.sh)", file=sys.stderr)
                continue
            if m in PEERS and a.optuna:  # every Optuna peer from the same release
                env["PYTHONPATH"] = a.optuna + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
            cmd = [sys.executable, __file__, "--out", a.out, "--seeds", ",".join(map(str, a.seeds)) + ",",
                   "--functions", ",".join(a.functions), "--noise", ",".join(map(repr, a.noise)),
                   "--budget", str(a.budget), "--method", m] + [f"--variant={v}" for v in a.variant]
            code = subprocess.run(cmd, env=env).returncode
            if code:
                sys.exit(code)  # the worker said why; the runs it finished are on disk
    report(out, a.functions, a.noise)


if __name__ == "__main__":
    main()
