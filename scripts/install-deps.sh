#!/usr/bin/env bash
# Installs the Debian packages kbo needs. Idempotent and quiet when everything is already there: only
# missing packages are passed to apt-get.
#
#   scripts/install-deps.sh            what building, testing and benchmarking kbo need (CI runs this)
#   scripts/install-deps.sh --runtime  what building and running kbo need and no more: the compiler and the
#                                      -dev packages `pip install .` and the CMake build use, and the
#                                      libraries kbo loads (no test frameworks, browser or database server)
#   scripts/install-deps.sh --libs     only the libraries a built kbo loads: enough to install and run a
#                                      wheel made elsewhere with `pip wheel .`
#   --print                            with any of the above: print the packages, one per line, and install
#                                      nothing
#
# The charting library of the report and the dashboard is committed (web/vendor/echarts), so no npm.
set -euo pipefail

# What the kbo executable and the Python extension load at run time (besides libc, libstdc++, libgcc),
# read off `ldd` of both (tests/package/pip_install_fresh_clone.sh checks a wheel's binaries against it).
libs=(
  python3 python3-numpy
  libopenblas0             # BLAS/LAPACK behind Eigen
  libnlopt0                # L-BFGS with bounds, DIRECT
  libsvm3                  # SVM with precomputed kernels (KFO)
  libsqlite3-0 libpq5      # study storage
  libtomlplusplus3         # --config files
  libcpp-httplib0.11       # kbo dashboard's HTTP server
  libssl3                  # SHA-256 of the viewer page's inline scripts
)
# Building kbo (cmake, and `pip install --no-build-isolation .`, which drives it).
build=(
  cmake g++ make pkg-config
  libeigen3-dev            # linear algebra
  libopenblas-dev
  libnlopt-cxx-dev libnlopt-dev
  libsvm-dev
  libsqlite3-dev libpq-dev
  nlohmann-json3-dev libtomlplusplus-dev libcli11-dev
  libboost-dev             # Sobol sequences (Joe-Kuo direction numbers)
  libcpp-httplib-dev       # kbo dashboard's HTTP server
  libssl-dev               # SHA-256 of the viewer page's inline scripts (its Content-Security-Policy)
  python3-dev pybind11-dev # the Python module
  python3-setuptools python3-wheel python3-venv  # `pip install .` backend, and a venv to install into
)
# The tests, examples and benchmarks.
tests=(
  liblapacke-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-sklearn          # reference implementation for fixtures and benchmarks
  python3-pytest
  python3-optuna python3-distributed  # kbo.integrations.optuna (KboSampler) and Study.optimize(executor=Dask Client)
  python3-matplotlib       # examples/ plots
  postgresql               # throw-away server for the PostgreSQL storage tests
  chromium chromium-driver python3-selenium  # browser tests of the report and the dashboard
)

packages=("${libs[@]}" "${build[@]}" "${tests[@]}")
print=false
for arg in "$@"; do
  case "$arg" in
    --runtime) packages=("${libs[@]}" "${build[@]}") ;;
    --libs) packages=("${libs[@]}") ;;
    --print) print=true ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg' (allowed: --runtime, --libs, --print)" >&2; exit 2 ;;
  esac
done
if $print; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
