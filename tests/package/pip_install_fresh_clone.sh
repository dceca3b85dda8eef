#!/usr/bin/env bash
# `pip install .` as a new user runs it: in a fresh clone of this repository (committed files only, so no
# web/node_modules), with no npm or node on PATH, no terminal and no package index, into a throw-away venv;
# then `kbo --version` and `import kbo`. Then `pip wheel .` from the same clone, and that wheel installed into a
# second venv runs too. Checks, against scripts/install-deps.sh's lists:
#   - every header the build compiled against belongs to a package of `--runtime` (or one it depends on, or
#     the C/C++ toolchain), so `install-deps.sh --runtime` is enough to build;
#   - every shared library the wheel's binaries load belongs to a package of `--libs` (or libc/libstdc++).
# And that pip showed progress without a terminal ("still running...") and no /dev/tty error.
# A full build: slow (ctest label "slow"; CI runs it).
set -euo pipefail
source_dir=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone -q "$source_dir" "$work/src"
test ! -e "$work/src/web/node_modules"

# PATH without npm: every other program of PATH, through symbolic links.
mkdir "$work/bin"
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name=${f##*/}
    case "$name" in npm|npx|node|nodejs) continue ;; esac
    [ -x "$f" ] && [ ! -e "$work/bin/$name" ] && ln -s "$f" "$work/bin/$name"
  done
done
export PATH="$work/bin"
! command -v npm >/dev/null && ! command -v node >/dev/null

/usr/bin/python3 -m venv --system-site-packages "$work/venv"
cd "$work/src"
# setsid: no controlling terminal, as under CI or a program running pip.
start=$(date +%s)
setsid -w "$work/venv/bin/pip" install --no-build-isolation --no-index . > "$work/pip.log" 2>&1 || {
  tail -50 "$work/pip.log"; echo "pip install . failed (log above)"; exit 1; }
echo "pip install . took $(( $(date +%s) - start )) s"
grep -q "still running" "$work/pip.log" || { cat "$work/pip.log"; echo "pip showed no progress"; exit 1; }
if grep -q "/dev/tty" "$work/pip.log"; then cat "$work/pip.log"; echo "/dev/tty in pip's output"; exit 1; fi

cd "$work"  # away from the source tree: the installed module, not python/kbo
"$work/venv/bin/kbo" --version | grep -qx "kbo [0-9.]*"
"$work/venv/bin/python" -c "import kbo, sys; assert kbo.__file__.startswith(sys.prefix), kbo.__file__"
"$work/venv/bin/python" -c "import kbo; r = kbo.minimize(lambda x: (x[0] - 0.25) ** 2, [(0, 1)], iters=3, init=4, seed=1); print('import kbo: best', r.best_value)"

# The build's headers come from --runtime packages (or their dependencies, or the toolchain).
runtime=$("$work/src/scripts/install-deps.sh" --runtime --print)
allowed=$(apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
            --no-replaces --no-enhances $runtime 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u)
cmake_dir=$(dirname "$(find "$work/src/build-pip" -name CMakeCache.txt | head -1)")
headers=$(find "$cmake_dir" -name '*.o.d' -exec cat {} + | tr ' \\' '\n\n' | grep '^/usr/' | sort -u)
test -n "$headers"
unlisted=$(printf '%s\n' $headers | xargs -r readlink -f | sort -u | xargs -r dpkg -S 2>/dev/null \
           | cut -d: -f1 | tr ',' '\n' | tr -d ' ' | sort -u | grep -vxF -f <(printf '%s\n' $allowed) || true)
[ -z "$unlisted" ] || { echo "the build used headers of packages outside --runtime: $unlisted"; exit 1; }

# The wheel, installed into a second venv; its binaries load only --libs packages' libraries.
cd "$work/src"
setsid -w "$work/venv/bin/pip" wheel --no-build-isolation --no-index --no-deps -w "$work/wheel" . > "$work/wheel.log" 2>&1 || {
  tail -50 "$work/wheel.log"; echo "pip wheel . failed (log above)"; exit 1; }
/usr/bin/python3 -m venv --system-site-packages "$work/venv2"
"$work/venv2/bin/pip" install --no-index -q "$work"/wheel/kbo-*.whl
cd "$work"
"$work/venv2/bin/kbo" --version | grep -qx "kbo [0-9.]*"
"$work/venv2/bin/python" -c "import kbo, sys; assert kbo.__file__.startswith(sys.prefix), kbo.__file__"
libs=$("$work/src/scripts/install-deps.sh" --libs --print)
libs_allowed=$(apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
                 --no-replaces --no-enhances $libs 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u)
site=$("$work/venv2/bin/python" -c "import kbo, os; print(os.path.dirname(kbo.__file__))")
loaded=$(ldd "$site/bin/kbo" "$site"/_kbo*.so | awk '$3 ~ /^\// {print $3}' | xargs readlink -f | sort -u)
unlisted=$(printf '%s\n' $loaded | xargs -r dpkg -S 2>/dev/null | cut -d: -f1 | sort -u \
           | grep -vxF -f <(printf '%s\n' $libs_allowed libc6 libstdc++6 libgcc-s1) || true)
[ -z "$unlisted" ] || { echo "the wheel's binaries load libraries of packages outside --libs: $unlisted"; exit 1; }
if ldd "$site/bin/kbo" "$site"/_kbo*.so | grep -q "not found"; then echo "unresolved libraries"; exit 1; fi
echo "pip install ., pip wheel . and the wheel: ok"
