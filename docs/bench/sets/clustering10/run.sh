#!/bin/bash
# Record of the run of this session: /tmp/kbo_226 was the kbo binary of commit 226beee, /tmp/clust10 the output root.
# Clustering part of `kbo bench sets` with 10 seeds, one process per BO method (so a cut-off keeps whole methods).
cd /work/main
for meth in set approx-1 approx-2 approx-5; do
  mkdir -p /tmp/clust10/$meth
  echo "$meth start $(date -u +%T) $(uptime)" >> /tmp/clust10/log
  OPENBLAS_NUM_THREADS=1 nice -n 10 /tmp/kbo_226 bench sets --parts clustering --seeds 10 --clustering-budget 30 \
     --baseline-runs 200 --clustering-methods $meth --out /tmp/clust10/$meth > /tmp/clust10/$meth/stdout 2> /tmp/clust10/$meth/stderr
  echo "$meth end $(date -u +%T) rc=$? $(uptime)" >> /tmp/clust10/log
done
