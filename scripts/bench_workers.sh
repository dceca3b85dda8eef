#!/bin/sh
# Reproduces docs/bench/workers.md: starts a throw-away PostgreSQL cluster (initdb in a temp dir, a free
# port, unix socket in that dir; as the `postgres` user when run as root), runs `kbo bench workers` on
# SQLite and on that server, and removes the cluster. Extra arguments go to `kbo bench workers`.
#   scripts/bench_workers.sh [--only throughput|latency] [...]
set -eu
KBO=${KBO:-$(dirname "$0")/../build/kbo}
PGBIN=${KBO_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
[ -x "$PGBIN/postgres" ] || { echo "bench_workers.sh: PostgreSQL server not found (apt-get install postgresql)" >&2; exit 2; }
DIR=$(mktemp -d /tmp/kbo_pg_bench_XXXXXX)
AS=""
if [ "$(id -u)" = 0 ]; then chown postgres "$DIR"; AS="runuser -u postgres --"; fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() { $AS "$PGBIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$DIR"; }
trap cleanup EXIT INT TERM
$AS "$PGBIN/initdb" -D "$DIR/data" -A trust -U kbo -E UTF8 >/dev/null
# Default durability settings (fsync on, synchronous_commit on): the figures include real commits.
$AS "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -o "-k $DIR -p $PORT -c listen_addresses=127.0.0.1" start >/dev/null
"$KBO" bench workers --pg "postgresql://kbo@127.0.0.1:$PORT/postgres" "$@"
