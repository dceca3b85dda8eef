#!/usr/bin/env bash
# The README's first command: installs the dependencies, builds kbo (Release, build/) and runs a
# Bayesian-optimisation demo on a built-in problem, persisted to an SQLite study file, printing the
# result table. Re-running it resumes the same study (nothing is lost or repeated).
#   KBO_DEMO_DB=path.db  where the study is stored (default: demo.db in the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target kbo
db="${KBO_DEMO_DB:-demo.db}"
echo
echo "== kbo optimize: Branin (2-d, minimum 0.397887), 5 Sobol points + 25 GP-UCB iterations, study in $db"
build/kbo optimize --problem branin --init 5 --iters 25 --seed 0 --storage "sqlite:$db" --study branin-demo
echo
echo "== the study is in $db: 'build/kbo show --storage sqlite:$db --study branin-demo' prints it again,"
echo "   'build/kbo ask/tell' continue it from other processes, re-running the command above resumes it."
