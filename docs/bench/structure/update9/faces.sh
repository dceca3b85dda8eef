#!/usr/bin/env bash
# Where the first three BO steps go (update 9): the share of their coordinates within 0.02 of the box's faces,
# and their mean value, for the set space (default `auto`) and the flat vector, seeds 0-9, on k-means and
# covering through `kbo optimize` with defaults. Run from the repository root after building.
set -euo pipefail
out=$(mktemp -d)
km="python3 docs/bench/structure/update7/kmeans_objective.py"
printf 'import sys, math\nv = [float(a) for a in sys.argv[1:]]\npts = [(v[2*i], v[2*i+1]) for i in range(len(v)//2)]\nprint(repr(max(min(math.hypot(i/20-a, j/20-b) for a, b in pts) for i in range(21) for j in range(21))))\n' > "$out/cover.py"
run() { build/kbo optimize --seed "$1" --init 5 --iters 3 --json --storage memory "${@:3}" 2>/dev/null > "$out/$2_$1.json"; }
for s in 0 1 2 3 4 5 6 7 8 9; do
  run $s km_set --space set --set-size 3 --bounds 0:1,0:1,0:1 --objective "$km"
  run $s km_flat --bounds 0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1 --objective "$km"
  run $s cov_set --space set --set-size 4 --bounds 0:1,0:1 --objective "python3 $out/cover.py {x}"
  run $s cov_flat --bounds 0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1 --objective "python3 $out/cover.py {x}"
done
python3 - "$out" <<'PY'
import json, statistics as st, sys
for name in ['km_set', 'km_flat', 'cov_set', 'cov_flat']:
    face, vals = [], []
    for s in range(10):
        for t in json.load(open(f'{sys.argv[1]}/{name}_{s}.json'))['trials'][5:8]:
            face.append(sum(a < 0.02 or a > 0.98 for a in t['x']) / len(t['x']))
            vals.append(t['value'])
    print(f'{name}: coordinates on a face {st.mean(face):.3f}, mean value {st.mean(vals):.4f}')
PY
rm -rf "$out"
