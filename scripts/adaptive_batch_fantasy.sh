#!/bin/sh
# Builds scripts/adaptive_batch_fantasy.cpp against the static libraries of a kbo build and runs it.
# Usage: scripts/adaptive_batch_fantasy.sh [build dir (default build)] [seeds (10)] [q (4)] [budget (40)]
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
seeds=${2:-10}
q=${3:-4}
budget=${4:-40}
out="$build/adaptive_batch_fantasy"
c++ -std=c++20 -O2 -DNDEBUG -DEIGEN_USE_BLAS -DKBO_HAVE_LAPACK -I"$root/include" -isystem /usr/include/eigen3 \
  "$root/scripts/adaptive_batch_fantasy.cpp" -o "$out" \
  "$build/libkbo_adaptive.a" "$build/libkbo_optimize.a" "$build/libkbo_acquisition.a" "$build/libkbo_model.a" \
  "$build/libkbo_core.a" -lopenblas -lmvec -lnlopt -lm -pthread
OPENBLAS_NUM_THREADS=1 "$out" "$seeds" "$q" "$budget"
