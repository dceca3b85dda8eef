#!/bin/sh
# `kbo kfo` with its defaults, one JSON per data set and split seed (skips the ones already written), from the
# repository root: docs/bench/kfo/fallback/run.sh SEEDS... Each JSON holds the kfo row (the cross-validated choice),
# kfo_learned (the learned kernel: the kfo row before the fallback existed, same search) and the RBF baselines.
out=docs/bench/kfo/fallback
reg="concrete_slump fertility auto_mpg boston airfoil heldout/diabetes"
cls="hayes_roth heldout/iris wine seeds glass sonar heart_statlog heart_cleveland ionosphere wdbc german_credit german_credit_onehot qsar_biodeg contraceptive car_evaluation digits phoneme"
for seed in "$@"; do
  for task in regression classification; do
    if [ $task = regression ]; then sets=$reg; else sets=$cls; fi
    for s in $sets; do
      case $s in heldout/*) file=docs/bench/kfo/$s.csv ;; *) file=data/$s.csv ;; esac
      name=$(basename $s)
      json=$out/$task-$name-s$seed.json
      [ -s $json ] && continue
      OPENBLAS_NUM_THREADS=1 nice -n 5 build/kbo kfo --data $file --task $task --seed $seed --json > $json.tmp 2>/dev/null \
        && mv $json.tmp $json || { echo "failed: $task $name seed $seed" >&2; rm -f $json.tmp; }
    done
  done
done
