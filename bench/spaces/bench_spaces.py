"""Benchmarks of docs/bench/spaces.md: mixed-space tuning (kbo vs Optuna TPE vs random), constrained Branin
(kbo with constraints vs kbo with a penalty vs random) and KboSampler vs TPE inside Optuna.

    PYTHONPATH=build/python /usr/bin/python3 bench/spaces/bench_spaces.py tuning --task svc-sonar --seeds 10 --evals 40
    PYTHONPATH=build/python /usr/bin/python3 bench/spaces/bench_spaces.py constrained --seeds 10 --evals 40
    PYTHONPATH=build/python /usr/bin/python3 bench/spaces/bench_spaces.py sampler --task svc-sonar --seeds 10 --evals 40
"""
import argparse
import json
import math
import os
import sys
import time
import warnings

import numpy as np

import kbo

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data")


def load(name):
    rows = np.genfromtxt(os.path.join(DATA, name + ".csv"), delimiter=",", skip_header=1, dtype=str)
    X = rows[:, :-1].astype(float)
    _, y = np.unique(rows[:, -1], return_inverse=True)
    return X, y


# ---- tasks: objective(params) = 1 - 5-fold CV accuracy (lower is better) ----
def svc_task(data):
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    X, y = load(data)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    space = {"C": kbo.Float(1e-2, 1e3, log=True), "gamma": kbo.Float(1e-4, 1e1, log=True),
             "kernel": kbo.Categorical(["rbf", "sigmoid", "poly"]), "degree": kbo.Int(2, 5)}

    def f(p):
        m = make_pipeline(StandardScaler(), SVC(C=p["C"], gamma=p["gamma"], kernel=p["kernel"], degree=p["degree"]))
        return 1.0 - cross_val_score(m, X, y, cv=cv).mean()
    return space, f


def hgb_task(data):
    """HistGradientBoosting, kept cheap so 10 seeds x 40 evaluations x 3 methods finish under load: 30
    boosting iterations, one stratified train/validation split (2/3, 1/3), objective = validation log loss
    (continuous, so runs do not tie on a quantised accuracy). The fit runs on one OpenMP thread for every
    method alike (threadpoolctl): on a loaded 2-core machine HGB's default threads made one 5-fold CV take
    minutes."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.metrics import log_loss
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits
    X, y = load(data)
    Xtr, Xva, ytr, yva = train_test_split(X, y, test_size=1 / 3, stratify=y, random_state=0)
    space = {"learning_rate": kbo.Float(1e-3, 1.0, log=True), "max_depth": kbo.Int(2, 10),
             "max_leaf_nodes": kbo.Int(4, 64, log=True), "l2_regularization": kbo.Float(1e-4, 10.0, log=True),
             "class_weight": kbo.Categorical(["none", "balanced"]), "max_iter": kbo.Fixed(30)}

    def f(p):
        m = HistGradientBoostingClassifier(learning_rate=p["learning_rate"], max_depth=p["max_depth"],
                                           max_leaf_nodes=p["max_leaf_nodes"], max_iter=p["max_iter"],
                                           l2_regularization=p["l2_regularization"], random_state=0,
                                           class_weight=None if p["class_weight"] == "none" else "balanced")
        with threadpool_limits(limits=1):
            m.fit(Xtr, ytr)
            return float(log_loss(yva, m.predict_proba(Xva)))
    return space, f


TASKS = {"svc-sonar": lambda: svc_task("sonar"), "hgb-wdbc": lambda: hgb_task("wdbc")}


def optuna_suggest(trial, space):
    out = {}
    for name, p in space.items():
        if isinstance(p, kbo.Float):
            out[name] = trial.suggest_float(name, p.low, p.high, log=p.log)
        elif isinstance(p, kbo.Int):
            out[name] = trial.suggest_int(name, p.low, p.high, log=p.log)
        elif isinstance(p, kbo.Categorical):
            out[name] = trial.suggest_categorical(name, p.choices)
        else:
            out[name] = p.value
    return out


def run_optuna(space, f, seed, evals, sampler):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=sampler)
    study.optimize(lambda t: f(optuna_suggest(t, space)), n_trials=evals)
    return study.best_value


def tuning(args, sampler_mode=False):
    import optuna
    space, f = TASKS[args.task]()
    methods = (["kbo", "tpe", "random"] if not sampler_mode else ["KboSampler", "tpe"])
    if args.methods:
        methods = [m for m in args.methods.split(",") if m]
    results = {m: [] for m in methods}
    times = {m: 0.0 for m in methods}
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for m in methods:
            t0 = time.time()
            if m == "kbo":
                opts = json.loads(args.kbo_options)
                n_init = int(opts.get("init", 5))
                best = kbo.minimize(f, space, iters=args.evals - n_init, seed=seed, **opts).best_value
            elif m == "tpe":
                best = run_optuna(space, f, seed, args.evals, optuna.samplers.TPESampler(seed=seed))
            elif m == "random":
                best = run_optuna(space, f, seed, args.evals, optuna.samplers.RandomSampler(seed=seed))
            else:
                from kbo.integrations.optuna import KboSampler
                best = run_optuna(space, f, seed, args.evals, KboSampler(seed=seed, **json.loads(args.kbo_options)))
            times[m] += time.time() - t0
            results[m].append(best)
            print(f"{args.task} seed {seed} {m}: {best:.4f}", file=sys.stderr, flush=True)
    report(args, results, {m: times[m] / (args.seeds * args.evals) for m in methods})


def branin_constrained(x):
    """Gardner et al. 2014's constrained Branin: min Branin s.t. (x1 - 2.5)^2 + (x2 - 7.5)^2 <= 50.
    Known feasible optimum ≈ 0.397887 (the Branin minimum at (π, 2.275) is feasible)."""
    x1, x2 = x
    b = (x2 - 5.1 / (4 * math.pi ** 2) * x1 ** 2 + 5 / math.pi * x1 - 6) ** 2 + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x1) + 10
    return b, [(x1 - 2.5) ** 2 + (x2 - 7.5) ** 2 - 50.0]


def constrained(args):
    bounds = [(-5, 10), (0, 15)]
    opt = 0.397887
    results = {"kbo-constraints": [], "kbo-penalty": [], "random": []}
    for seed in range(args.seeds):
        r = kbo.minimize(lambda x: branin_constrained(x), bounds, iters=args.evals - 5, seed=seed)
        results["kbo-constraints"].append(r.best_value)
        # Penalty: infeasible points get the value 300 (above Branin's maximum on the box, ~308 at a corner).
        pen = kbo.minimize(lambda x: branin_constrained(x)[0] if branin_constrained(x)[1][0] <= 0 else 300.0, bounds,
                           iters=args.evals - 5, seed=seed)
        feas = [t.value for t in pen.trials if branin_constrained(t.x)[1][0] <= 0]
        results["kbo-penalty"].append(min(feas) if feas else float("nan"))
        rnd = kbo.minimize(lambda x: branin_constrained(x), bounds, iters=args.evals - 5, seed=seed, strategy="random")
        results["random"].append(rnd.best_value)
        print(f"seed {seed}: " + ", ".join(f"{k} {v[-1]:.4f}" for k, v in results.items()), file=sys.stderr, flush=True)
    within = {k: sum(v_ <= opt * 1.05 for v_ in v) for k, v in results.items()}
    report(args, results, None, extra={"optimum": opt, "within_5pct": within})


def report(args, results, per_trial, extra=None):
    out = {"args": vars(args), "best_per_seed": results,
           "mean": {m: float(np.mean(v)) for m, v in results.items()},
           "sem": {m: float(np.std(v, ddof=1) / math.sqrt(len(v))) if len(v) > 1 else 0.0 for m, v in results.items()}}
    if per_trial:
        out["seconds_per_trial"] = per_trial
    if extra:
        out.update(extra)
    print(json.dumps(out, indent=1))


def main():
    warnings.filterwarnings("ignore")
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["tuning", "constrained", "sampler"])
    ap.add_argument("--task", default="svc-sonar", choices=sorted(TASKS))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--evals", type=int, default=40)
    ap.add_argument("--first-seed", type=int, default=0, help="seeds first_seed .. first_seed + seeds - 1")
    ap.add_argument("--kbo-options", default="{}", help="JSON of options for kbo.minimize / KboSampler (variants)")
    ap.add_argument("--methods", default="", help="comma-separated subset of the methods (default: all)")
    args = ap.parse_args()
    if args.what == "tuning":
        tuning(args)
    elif args.what == "sampler":
        tuning(args, sampler_mode=True)
    else:
        constrained(args)


if __name__ == "__main__":
    main()
