#!/usr/bin/python3
"""Summarises docs/bench/kfo/fallback/*.json: per task and data set, the mean over the split seeds present of the
kfo row (new default: cross-validated choice), kfo_learned (the learned kernel: today's default before the
fallback) and the RBF baseline (regression: rbf; classification: rbf_svm); whether each is within 10 % of RBF
(NLL <= RBF + 0.1 |RBF|; error <= 1.1 RBF), and how often the learned kernel was kept."""
import collections
import glob
import json
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
runs = collections.defaultdict(list)
for p in sorted(glob.glob(os.path.join(here, "*.json"))):
    task, rest = os.path.basename(p)[:-5].split("-", 1)
    name, seed = rest.rsplit("-s", 1)
    if seeds := sys.argv[1:]:
        if seed not in seeds:
            continue
    runs[(task, name)].append((int(seed), json.load(open(p))))
print("| task | data set | seeds | kfo (new default) | kfo_learned (before) | RBF | new within 10 % | before within 10 % | learned kept |")
print("|---|---|---|---|---|---|---|---|---|")
ok_new = ok_old = total = 0
for (task, name), rs in sorted(runs.items()):
    metric, base = ("test_nll", "rbf") if task == "regression" else ("test_error", "rbf_svm")
    scale = 1.0 if task == "regression" else 100.0
    new = statistics.mean(r["methods"]["kfo"][metric] * scale for _, r in rs)
    old = statistics.mean(r["methods"]["kfo_learned"][metric] * scale for _, r in rs)
    rbf = statistics.mean(r["methods"][base][metric] * scale for _, r in rs)
    tol = rbf + 0.1 * abs(rbf) if task == "regression" else 1.1 * rbf
    kept = sum(r["methods"]["kfo"].get("selected") == "kfo" for _, r in rs)
    within_new, within_old = new <= tol + 1e-12, old <= tol + 1e-12
    ok_new += within_new
    ok_old += within_old
    total += 1
    seeds = ",".join(str(s) for s, _ in sorted(rs, key=lambda t: t[0]))
    print(f"| {task} | {name} | {seeds} | {new:.2f} | {old:.2f} | {rbf:.2f} | {'yes' if within_new else 'NO'} | "
          f"{'yes' if within_old else 'NO'} | {kept}/{len(rs)} |")
print(f"\nwithin 10 % of RBF: new default {ok_new}/{total} sets, before {ok_old}/{total}")
