#!/usr/bin/env bash
# Assembles docs/BENCHMARKS.md from the per-module benchmark sections in docs/bench/*.md (each section
# holds its figures and the exact command that reproduces them).
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/BENCHMARKS.md
{
  cat <<'HEAD'
# kbo benchmarks

Every figure below was measured on this project's machine kind (2 cores, 24 GiB; Debian 12, OpenBLAS
0.3.21) and comes with the exact command that reproduces it, run from the repository root after
`scripts/test.sh` (which builds `build/kbo`). Seeds are fixed. Where a paper's number is not reproduced,
kbo's is given beside it with the reason found. Timings taken while other jobs shared the two cores say
so; ratios are always measured within one run.

Sections: [GP engine](#gp-engine-issue-2) · [acquisition optimisers](#acquisition-optimisers) ·
[BO loop](#bo-engine-quality-vs-random-search-and-time-per-iteration-issue-3) · invariance (issue 4) ·
sets (issue 5) · A-GP-UCB (issue 6) · KFO (issue 7) · Python module (issue 8) · workers and batch
suggestions (issue 9) · scale (issue 18) · structure (issue 16) · search spaces (issue 19) · BBOB (issue 22) · reliability (issue 20).

HEAD
  for section in gp optimize bo invariance sets adaptive kfo python workers parallel scale structure spaces bbob reliability; do
    f=docs/bench/$section.md
    [ -f "$f" ] || continue
    # Section files use "## " for their title; relative links inside them are relative to docs/bench/.
    sed -e '1s/^# /## /' -e 's|](\([a-z_-]*\)/|](bench/\1/|g' "$f"
    printf '\n---\n\n'
  done
} > "$out"
echo "wrote $out"
