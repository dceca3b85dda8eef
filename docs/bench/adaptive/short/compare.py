#!/usr/bin/python3
"""Paired comparison of two `kbo bench adaptive-suite` runs on the same seeds (same parts/problems):
    compare.py NEW/suite.json OLD/suite.json
For every problem of the short/heldout/standard parts: agpucb's mean best value in each run, the paired difference
new − old (mean ± standard error over seeds; negative = new is better), random search's median (from NEW), and how
many seeds each beats it on. For the narrow part: found counts and the paired difference of cumulative regret."""
import json
import math
import statistics
import sys


def paired(a, b):
    d = [x - y for x, y in zip(a, b)]
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return statistics.mean(d), se


new, old = (json.load(open(p)) for p in sys.argv[1:3])
print("| part | problem | new agpucb (mean) | old agpucb (mean) | new − old (paired mean ± se) | random median | new < median | old < median |")
print("|---|---|---|---|---|---|---|---|")
for part in ("short", "heldout", "standard"):
    for name, jp in new.get(part, {}).items():
        a = jp["agpucb"]["final"]
        b = old[part][name]["agpucb"]["final"]
        med = statistics.median(jp["random"]["final"]) if "random" in jp else float("nan")
        m, se = paired(a, b)
        print(f"| {part} | {name} | {statistics.mean(a):.4g} | {statistics.mean(b):.4g} | {m:+.4g} ± {se:.3g} | {med:.4g} | "
              f"{sum(x < med for x in a)}/{len(a)} | {sum(x < med for x in b)}/{len(b)} |")
for name, jp in new.get("narrow", {}).items():
    a, b = jp["agpucb"], old["narrow"][name]["agpucb"]
    m, se = paired(a["cum_regret"], b["cum_regret"])
    print(f"| narrow | {name} | found {a['found']}, CR {statistics.mean(a['cum_regret']):.4g} | found {b['found']}, CR "
          f"{statistics.mean(b['cum_regret']):.4g} | CR {m:+.4g} ± {se:.3g} | | | |")
