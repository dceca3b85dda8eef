#!/bin/bash
# The prior-mean / kernel study of docs/bench/bo.md ("Session 4"): every variant on the Ackley-6 selection
# seeds 100–299, the two defaults also on the confirmation seeds 300–499, and the main variants on the
# other problems (seeds 100–159). Writes docs/bench/bo/selection_s4.json (per-seed finals of every row)
# and prints the table. Runs are deterministic; about 12 minutes on 2 cores.
# Usage: bash docs/bench/bo/selection_s4.sh [kbo binary, default build/kbo]
set -euo pipefail
cd "$(dirname "$0")/../../.."
KBO=${1:-build/kbo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # run ROW SEEDS PROBLEM [switches...]
  local row=$1 seeds=$2 problem=$3
  shift 3
  OPENBLAS_NUM_THREADS=1 "$KBO" bench bo --only quality --methods gpucb --problems "$problem" --seeds "$seeds" \
    --out "$tmp/$row@$problem@$seeds" "$@" > /dev/null
  echo "$row|$seeds|$problem|$*" >> "$tmp/rows"
}
OLD="--bo prior_mean=gls --bo alt_kernel=none"
for seeds in 100-299 300-499; do
  run new_default $seeds ackley-shifted
  run old_default $seeds ackley-shifted $OLD
done
run worst_m52 100-299 ackley-shifted --bo alt_kernel=none
run gls_alt_m32 100-299 ackley-shifted --bo prior_mean=gls
run worst_m32_only 100-299 ackley-shifted --kernel matern32 --bo alt_kernel=none
run gls_m32_only 100-299 ackley-shifted --kernel matern32 --bo prior_mean=gls --bo alt_kernel=none
run worst_rbf_only 100-299 ackley-shifted --kernel rbf --bo alt_kernel=none
run worst_m12_only 100-299 ackley-shifted --kernel matern12 --bo alt_kernel=none
run q10_alt_m32 100-299 ackley-shifted --bo prior_mean=quantile --bo mean_quantile=0.1
run median_m52 100-299 ackley-shifted --bo prior_mean=quantile --bo mean_quantile=0.5 --bo alt_kernel=none
run copula_warp 100-299 ackley-shifted $OLD --bo output_warp=copula
run log_warp 100-299 ackley-shifted $OLD --bo output_warp=log
run worst_ls_rate_9 100-299 ackley-shifted --bo alt_kernel=none --bo lengthscale_prior_rate=9
run worst_ls_rate_3 100-299 ackley-shifted --bo alt_kernel=none --bo lengthscale_prior_rate=3
run new_restarts_4 100-299 ackley-shifted --fit-restarts 4
run new_noise_cap_0.5 100-299 ackley-shifted --bo noise_cap=0.5
run new_restart_noise_0.1 100-299 ackley-shifted --bo restart_noise_max=0.1
for p in branin hartmann6 ackley griewank rastrigin; do
  run new_default 100-159 $p
  run old_default 100-159 $p $OLD
  run worst_m52 100-159 $p --bo alt_kernel=none
  run gls_m32_only 100-159 $p --kernel matern32 --bo prior_mean=gls --bo alt_kernel=none
  run worst_m32_only 100-159 $p --kernel matern32 --bo alt_kernel=none
done
python3 - "$tmp" docs/bench/bo/selection_s4.json <<'PY'
import json, statistics as st, sys
tmp, out = sys.argv[1], sys.argv[2]
rows = []
for line in open(f"{tmp}/rows"):
    row, seeds, problem, switches = line.rstrip("\n").split("|", 3)
    d = json.load(open(f"{tmp}/{row}@{problem}@{seeds}/quality.json"))
    finals = d["problems"][problem]["gpucb"]["final"]
    rows.append({"row": row, "seeds": seeds, "problem": problem, "switches": switches, "final": finals})
json.dump(rows, open(out, "w"), indent=1)
print("| row | problem | seeds | switches | mean ± std | median | runs > 10 |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    v = r["final"]
    print(f"| {r['row']} | {r['problem']} | {r['seeds']} | `{r['switches'] or '(none)'}` | {st.mean(v):.3f} ± {st.stdev(v):.3f} | "
          f"{st.median(v):.3f} | {sum(x > 10 for x in v)} |")
PY
