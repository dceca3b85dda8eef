#!/usr/bin/env python3
"""Compares two `kbo bench bo --only quality --trace` outputs (quality.json) trial by trial, ignoring
timings: prints the first difference per problem/method/seed, or 'identical'. Exit 1 if any differ.

    scripts/compare_bo_trials.py before/quality.json after/quality.json
"""
import json
import sys


def strip_times(x):
    if isinstance(x, dict):
        return {k: strip_times(v) for k, v in x.items() if not k.endswith("seconds")}
    if isinstance(x, list):
        return [strip_times(v) for v in x]
    return x


def main(a_path, b_path):
    a = strip_times(json.load(open(a_path))["problems"])
    b = strip_times(json.load(open(b_path))["problems"])
    differ = 0
    for problem in sorted(set(a) | set(b)):
        for method in sorted(set(a.get(problem, {})) | set(b.get(problem, {}))):
            ra, rb = a.get(problem, {}).get(method), b.get(problem, {}).get(method)
            if not isinstance(ra, dict) or not isinstance(rb, dict):
                if ra != rb:
                    print(f"{problem} {method}: differs"); differ += 1
                continue
            same = ra == rb
            print(f"{problem} {method}: {'identical' if same else 'DIFFERENT'}")
            if not same:
                differ += 1
                for key in sorted(set(ra) | set(rb)):
                    if ra.get(key) != rb.get(key):
                        print(f"   first differing key: {key}")
                        break
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
