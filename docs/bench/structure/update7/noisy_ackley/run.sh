#!/bin/bash
# The plain model on a noisy Ackley-2d, seeds 0-9, 5 + 45 evaluations, with extra `kbo optimize` flags "$@"
# (e.g. --options '{"bo":{"endgame_fraction":0,"endgame_fraction_2d":0}}'): per seed the true value of the
# recommended point (the best observed), the best true value sampled and the cumulative true regret of the BO steps.
# Run from the repository root: docs/bench/structure/update7/noisy_ackley/run.sh [FLAGS]
here=$(dirname "$0")
for s in 0 1 2 3 4 5 6 7 8 9; do
  build/kbo optimize --objective "python3 $here/objective.py $s" --bounds -32.768:32.768,-32.768:32.768 --seed $s \
    --init 5 --iters 45 --json "$@" 2>/dev/null | PYTHONPATH=$here python3 -c "
import json, sys
from objective import ackley
trials = json.load(sys.stdin)['trials']
recommended = min(trials, key=lambda t: t['value'])
print($s, '%.3f %.3f %.1f' % (ackley(recommended['x']), min(ackley(t['x']) for t in trials), sum(ackley(t['x']) for t in trials[5:])))"
done
