#!/usr/bin/env bash
# The River peer's Postgres (bench/river): a cluster of its own on 127.0.0.1:55432, user
# postgres trusted over TCP, its data in /var/tmp/scheduler-postgres (outside the checkout,
# kept between runs). Installs Debian's postgresql when it is missing and starts the cluster
# when nothing answers; a server started here is recorded for scripts/stop_services.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

PORT=55432
DATA=${POSTGRES_PEER_DATA:-/var/tmp/scheduler-postgres}

if port_answers $PORT; then exit 0; fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
  echo "installing Debian's postgresql"
  apt_install postgresql
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
# Postgres refuses to run as root: the cluster belongs to the package's postgres user.
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -f "$DATA/PG_VERSION" ]; then
  install -d -o postgres -g postgres "$DATA"
  as_postgres "$bin/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 >/dev/null
fi
echo "Postgres is down; starting it on 127.0.0.1:$PORT"
# setpriv execs postgres itself, so the recorded pid is the postmaster's (SIGTERM stops it).
setsid setpriv --reuid=postgres --regid=postgres --init-groups "$bin/postgres" -D "$DATA" \
  -p $PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories="$DATA" \
  -c max_connections=200 >/var/log/scheduler-postgres.log 2>&1 </dev/null &
record_started postgres $!
wait_for_port $PORT 60 postgres || {
  echo "Postgres did not come up on 127.0.0.1:$PORT; its log:" >&2
  tail -n 20 /var/log/scheduler-postgres.log >&2
  exit 1
}
