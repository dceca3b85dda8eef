#!/bin/bash
# Issue 18's long runs (docs/bench/scale.md, "Long runs: default vs refit-every-ask"): one `kbo optimize` run of
# 5 + 995 evaluations on a built-in problem, default options or the refit-every-ask path, stored in SQLite so a
# cut run keeps its trials (re-running the same command resumes it).
#   usage: long_run.sh default|refit hartmann6|ackley10 SEED [OUTDIR (default /tmp/kbo_long)] [KBO (default build/kbo)]
set -euo pipefail
mode=$1 prob=$2 seed=$3 dir=${4:-/tmp/kbo_long} kbo=${5:-build/kbo}
mkdir -p "$dir"
case $prob in
  hartmann6) pargs=(--problem hartmann6) ;;
  ackley10) pargs=(--problem ackley-shifted --dim 10) ;;
  *) echo "long_run.sh: problem must be hartmann6 or ackley10, got '$prob'" >&2; exit 2 ;;
esac
case $mode in
  default) opts=() ;;
  # The path before issue 18: θ refitted on every observation at every ask (warm start + 2 restarts), exact GP.
  refit) opts=(--options '{"bo": {"full_refit_below": 1000000000, "fit_subset": 0, "model": "exact"}}') ;;
  *) echo "long_run.sh: mode must be default or refit, got '$mode'" >&2; exit 2 ;;
esac
base=$dir/${prob}_${mode}_${seed}
echo "$(date -u +%FT%TZ) start $mode $prob $seed" >> "$dir/progress.log"
rc=0
/usr/bin/time -f "%e s wall %U s user %S s sys %M KB" -o "$base.time" \
  nice -n 10 "$kbo" optimize "${pargs[@]}" --init 5 --iters 995 --seed "$seed" --storage "sqlite:$base.db" --study s \
  --json "${opts[@]}" > "$base.json" 2> "$base.err" || rc=$?
echo "$(date -u +%FT%TZ) end $mode $prob $seed rc=$rc $(cat "$base.time")" >> "$dir/progress.log"
