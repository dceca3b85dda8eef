#!/bin/sh
# The full SVM table with today's default, one data set per process so that each finished set is kept
# (the bench's splits and subsamples are seeded per data set and split only, so this equals one
# `kbo bench kfo --parts svm --splits 10 --max-rows 600` over all sets). Run from the repository root.
SPLITS=${SPLITS:-10}
for s in ${SETS:-ionosphere glass sonar heart wine hayes-roth seeds wdbc credit biodeg contraceptive car phoneme}; do
  echo "$(date -u +%T) start $s" 
  nice -n 10 build/kbo bench kfo --parts svm --splits "$SPLITS" --max-rows 600 --svm-datasets "$s" \
    --out "docs/bench/kfo/issue17-full/$s" 2>&1
  echo "$(date -u +%T) end $s rc=$?"
done
