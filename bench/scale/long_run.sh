#!/bin/bash
# The long runs of docs/bench/scale.md with any options.bo variant: one `kbo optimize` run of 5 + 995
# evaluations in a SQLite study DIR/NAME_PROBLEM_SEED.db (re-running the same command resumes it).
#   usage: KBO=path/to/kbo DIR=outdir long_run.sh NAME ackley10|hartmann6 SEED OPTIONS_JSON
set -euo pipefail
name=$1 prob=$2 seed=$3 opts=$4 kbo=${KBO:-build/kbo} dir=${DIR:-/tmp/kbo_long}
mkdir -p "$dir"
case $prob in
  hartmann6) pargs=(--problem hartmann6) ;;
  ackley10) pargs=(--problem ackley-shifted --dim 10) ;;
  *) echo "long_run.sh: problem must be hartmann6 or ackley10, got '$prob'" >&2; exit 2 ;;
esac
base=$dir/${name}_${prob}_${seed}
/usr/bin/time -f "%e s wall %U s user" -o "$base.time" nice -n 5 "$kbo" optimize "${pargs[@]}" --init 5 --iters 995 \
  --seed "$seed" --storage "sqlite:$base.db" --study s --json --options "$opts" > "$base.json" 2> "$base.err"
echo "$(date -u +%T) $base $(cat "$base.time")" >> "$dir/progress.log"
