"""Stall signature of GP-UCB runs on shifted Ackley-6 from a `kbo bench bo --trace` quality.json.

Usage: python3 stall_signature.py QUALITY_JSON [THRESHOLD]
Splits the runs into stalled (final best > THRESHOLD, default 10: still on the plateau) and the others,
and prints, over the first 20 BO iterations of each group: the share of fits that put more than 30 %
of the (standardised) target variance into noise, the share of suggestions with at least one
coordinate on the box boundary, and the mean distance of the suggestions to the optimum u*.
"""
import json
import sys

import numpy as np

USTAR = 0.5 + np.array([0.137, -0.213, 0.071, -0.319, 0.241, -0.089])


def main():
    res = json.load(open(sys.argv[1]))
    threshold = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    run = res["problems"]["ackley-shifted"]["gpucb"]
    groups = {"stalled": [], "other": []}
    for seed, trace, final in zip(res["seeds"], run["trace"], run["final"]):
        early = trace[:20]
        U = np.array([t["x"] for t in early])
        noise = np.exp(np.array([t["theta"][-1] for t in early]))
        on_boundary = ((U < 1e-6) | (U > 1 - 1e-6)).any(axis=1)
        dist = np.linalg.norm(U - USTAR[: U.shape[1]], axis=1)
        groups["stalled" if final > threshold else "other"].append(
            (seed, (noise > 0.3).mean(), on_boundary.mean(), dist.mean()))
    for name, rows in groups.items():
        if not rows:
            print(f"{name}: no runs")
            continue
        a = np.array([r[1:] for r in rows])
        print(f"{name} ({len(rows)} runs, seeds {[r[0] for r in rows] if name == 'stalled' else '...'}): "
              f"fits with noise > 0.3: {a[:, 0].mean():.2f}; suggestions on the boundary: {a[:, 1].mean():.2f}; "
              f"mean distance to u*: {a[:, 2].mean():.2f}")


if __name__ == "__main__":
    main()
