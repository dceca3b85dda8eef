#!/usr/bin/env bash
# Failed-trial benchmark of docs/bench/bo.md §3: Branin that crashes in two regions, 5 + 35 evaluations.
# usage: bench/objectives/failed_points_bench.sh KBO_BINARY OUT.jsonl [extra optimize args]  (SEEDS="0 1 …" to choose seeds)
kbo=$1; out=$2; shift 2; : > $out
for seed in ${SEEDS:-0 1 2 3 4 5 6 7 8 9}; do
  $kbo optimize --objective "python3 $(pwd)/bench/objectives/branin_fails.py" --bounds=-5:10,0:15 --init 5 --iters 35 --seed $seed --json "$@" \
    | python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps({'seed': $seed, 'best': d['best_value'], 'failed': d['n_failed']}))" >> $out
done
