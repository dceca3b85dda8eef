#!/usr/bin/env bash
# Install dependencies, build (Release) and run every test. This is the README's test command and
# exactly what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
(cd build && ctest --output-on-failure -j"$(nproc)")
# The Python module's tests (pytest) against the module and the kbo executable just built.
PYTHONPATH=build/python /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/python
