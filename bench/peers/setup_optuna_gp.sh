#!/bin/sh
# Optuna's GPSampler without PyPI: Debian's torch 1.13 and Optuna's public source, run with PYTHONPATH.
#
#   bench/peers/setup_optuna_gp.sh [DEST]      # DEST default: /tmp/kbo-peers; idempotent
#
# Prints the directory to put on PYTHONPATH (DEST/optuna-v4.7.0). Optuna's other dependencies
# (numpy, scipy, sqlalchemy, alembic, colorlog, tqdm, yaml, packaging) come from Debian too: they are
# those of Debian's python3-optuna 3.1.0 (TPE only), which is also installed.
#
# Why v4.7.0: it is the newest Optuna release that runs unmodified on torch 1.13. From v4.8.0 on (and
# on master, 5.0.0.dev) GPSampler.sample_relative enters `with torch.device("cpu"):`, a context manager
# torch has only since 2.0 (TypeError on 1.13). With OPTUNA_HEAD=1 the script also exports master with
# that one line replaced by contextlib.nullcontext() (CPU is torch 1.13's only default device, so the
# computation is the same) as DEST/optuna-master-patched, for a second, clearly labelled peer.
#
# Source of Optuna's git history: $OPTUNA_GIT (a git directory or clone of
# https://github.com/optuna/optuna); default: the agent mirror /work/.mirror/optuna+optuna/repo if it
# exists, else a clone from GitHub into DEST/optuna.git.
set -eu
DEST=${1:-/tmp/kbo-peers}
TAG=v4.7.0
mkdir -p "$DEST"

# 1. Debian packages (quiet if already installed).
need=""
for p in python3-torch python3-packaging python3-optuna python3-scipy python3-numpy; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  echo "installing (apt):$need" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need >&2
fi

# 2. Optuna's source.
GIT=${OPTUNA_GIT:-}
if [ -z "$GIT" ]; then
  if [ -d /work/.mirror/optuna+optuna/repo ]; then GIT=/work/.mirror/optuna+optuna/repo
  else
    [ -d "$DEST/optuna.git" ] || git clone -q --bare https://github.com/optuna/optuna "$DEST/optuna.git" >&2
    GIT=$DEST/optuna.git
  fi
fi
if [ ! -f "$DEST/optuna-$TAG/optuna/version.py" ]; then
  rm -rf "$DEST/optuna-$TAG.tmp" && mkdir -p "$DEST/optuna-$TAG.tmp"
  git --git-dir="$GIT" archive "$TAG" | tar -x -C "$DEST/optuna-$TAG.tmp"
  mv "$DEST/optuna-$TAG.tmp" "$DEST/optuna-$TAG"
fi
if [ "${OPTUNA_HEAD:-0}" = 1 ] && [ ! -f "$DEST/optuna-master-patched/optuna/version.py" ]; then
  H=$DEST/optuna-master-patched
  rm -rf "$H.tmp" && mkdir -p "$H.tmp"
  git --git-dir="$GIT" archive HEAD | tar -x -C "$H.tmp"
  git --git-dir="$GIT" rev-parse HEAD > "$H.tmp/COMMIT"
  f=$H.tmp/optuna/samplers/_gp/sampler.py
  grep -q '        with torch.device("cpu"):' "$f"
  sed -i 's/        with torch.device("cpu"):/        with contextlib.nullcontext():  # torch 1.13: no device context manager/' "$f"
  sed -i '0,/^import /s//import contextlib\nimport /' "$f"
  mv "$H.tmp" "$H"
fi

# 3. Check: GPSampler imports and runs a few trials on this torch.
PYTHONPATH="$DEST/optuna-$TAG" /usr/bin/python3 -W ignore - <<'PY' >&2
import optuna, torch
optuna.logging.set_verbosity(optuna.logging.WARNING)
s = optuna.create_study(sampler=optuna.samplers.GPSampler(seed=0, n_startup_trials=3))
s.optimize(lambda t: (t.suggest_float("x", -1, 1) - 0.3) ** 2, n_trials=6)
print(f"optuna {optuna.__version__} GPSampler on torch {torch.__version__}: ok")
PY
echo "$DEST/optuna-$TAG"
