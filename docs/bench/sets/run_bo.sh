#!/bin/bash
# The BO figures of docs/bench/sets.md (Synthetic 1/2 and clustering), one benchmark process at a time.
# Usage: docs/bench/sets/run_bo.sh <kbo binary> <output root>   (from the repository root)
# Then: cp <root>/synthetic/* docs/bench/sets/synthetic/ ; /usr/bin/python3 docs/bench/sets/clustering/merge.py <root>
set -u
KBO=$1
ROOT=$2
mkdir -p "$ROOT"
run() {  # name, args...
  local name=$1
  shift
  mkdir -p "$ROOT/$name"
  echo "$name start $(date -u +%T) $(uptime)" >> "$ROOT/log"
  OPENBLAS_NUM_THREADS=1 nice -n 10 "$KBO" bench sets "$@" --out "$ROOT/$name" > "$ROOT/$name/stdout" 2> "$ROOT/$name/stderr"
  echo "$name end $(date -u +%T) rc=$? $(uptime)" >> "$ROOT/log"
}
run synthetic --parts synthetic --seeds 10 --budget 40
run blobs --parts clustering --seeds 10 --clustering-budget 30 --baseline-runs 1000 \
    --clustering-tasks blobs_kmeans,blobs_gmm
# digits: one process for every method (the baselines run once); partial.json keeps every finished run
# if the process is cut off.
run digits --parts clustering --seeds 10 --clustering-budget 30 --baseline-runs 1000 \
    --clustering-tasks digits_kmeans
echo "all done $(date -u +%T)" >> "$ROOT/log"
