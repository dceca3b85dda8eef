#!/usr/bin/env python3
"""Compares two `kbo bench adaptive` result files (<out>/<task>.json) value by value, ignoring timings.

Usage: scripts/compare_adaptive_runs.py BEFORE.json AFTER.json
Prints "<file>: identical" or the paths of the differing values and their count.
"""
import json
import sys


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if "second" not in k}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


def diff(x, y, path, out):
    if type(x) != type(y):
        out.append(path)
    elif isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                out.append(path + "/" + k)
            else:
                diff(x[k], y[k], path + "/" + k, out)
    elif isinstance(x, list):
        if len(x) != len(y):
            out.append(path)
        else:
            for i, (u, v) in enumerate(zip(x, y)):
                diff(u, v, "%s[%d]" % (path, i), out)
    elif x != y:
        out.append(path)


def main():
    before, after = (strip(json.load(open(p))) for p in sys.argv[1:3])
    out = []
    diff(before, after, "", out)
    name = sys.argv[1].split("/")[-1]
    if not out:
        print(f"{name}: identical")
    else:
        for p in out[:20]:
            print("  differs:", p)
        print(f"{name}: {len(out)} values differ")
    return 0 if not out else 1


if __name__ == "__main__":
    sys.exit(main())
