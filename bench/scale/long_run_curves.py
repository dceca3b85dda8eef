#!/usr/bin/python3
"""Best-so-far value after 50/100/200/500/1000 finished evaluations, and the seconds since the study's first
trial, for every study that bench/scale/long_run.sh left in OUTDIR (cut runs too: their SQLite studies
hold every finished trial).   usage: long_run_curves.py [OUTDIR (default /tmp/kbo_long)] [KBO (default build/kbo)]"""
import glob, json, os, subprocess, sys

outdir = sys.argv[1] if len(sys.argv) > 1 else "/tmp/kbo_long"
kbo = sys.argv[2] if len(sys.argv) > 2 else "build/kbo"
points = [50, 100, 200, 500, 1000]
for db in sorted(glob.glob(os.path.join(outdir, "*.db"))):
    name = os.path.basename(db)[:-3]
    out = subprocess.run([kbo, "show", "--storage", "sqlite:" + db, "--study", "s", "--format", "json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(name, "cannot be read:", out.stderr.strip())
        continue
    trials = sorted((t for t in json.loads(out.stdout)["trials"] if t["state"] == "complete"),
                    key=lambda t: t["finished_at"])
    if not trials:
        print(name, 0)
        continue
    t0, best, marks = trials[0]["created_at"], float("inf"), []
    for i, t in enumerate(trials, 1):
        best = min(best, t["value"])
        if i in points:
            marks.append(f"{i}:{best:.6f}@{t['finished_at'] - t0:.0f}s")
    print(name, len(trials), " ".join(marks), f"last={best:.6f}@{trials[-1]['finished_at'] - t0:.0f}s")
