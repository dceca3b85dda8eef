#!/usr/bin/env bash
# Installs the Debian packages kbo needs to build, test and benchmark. Idempotent and quiet when
# everything is already there: only missing packages are passed to apt-get.
set -euo pipefail
packages=(
  cmake g++ make pkg-config
  libeigen3-dev            # linear algebra
  libopenblas-dev liblapacke-dev  # fast BLAS/LAPACK behind Eigen
  libnlopt-cxx-dev libnlopt-dev   # L-BFGS with bounds, DIRECT
  libsvm-dev               # SVM with precomputed kernels (KFO)
  libsqlite3-dev libpq-dev # study storage
  nlohmann-json3-dev libtomlplusplus-dev libcli11-dev
  libboost-dev             # Sobol sequences (Joe-Kuo direction numbers)
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-numpy python3-sklearn  # reference implementation for fixtures and benchmarks
  python3-dev pybind11-dev python3-pytest  # the Python module and its tests
  python3-optuna python3-distributed  # kbo.integrations.optuna (KboSampler) and Study.optimize(executor=Dask Client)
  python3-matplotlib python3-setuptools python3-wheel  # examples/ plots; `pip install .` backend
  postgresql               # throw-away server for the PostgreSQL storage tests
  libcpp-httplib-dev       # kbo dashboard's HTTP server
  libssl-dev               # SHA-256 of the viewer page's inline scripts (its Content-Security-Policy)
  chromium chromium-driver python3-selenium  # browser tests of the report and the dashboard
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches web/'s charting library (ECharts, embedded into kbo report/dashboard); a nodejs that already
# brings npm (e.g. NodeSource's) is kept.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The charting library of the report and dashboard, pinned by web/package-lock.json (embedded at build time).
web="$(dirname "$0")/../web"
if [ ! -f "$web/node_modules/echarts/dist/echarts.min.js" ]; then
  (cd "$web" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
fi
