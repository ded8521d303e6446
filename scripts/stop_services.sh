#!/usr/bin/env bash
# Stops every service that an ensure_*.sh script started (run/services/*.pid), waits for it
# to exit, and removes its temporary data folder. Services found already running are left.
# All are signalled first, then waited for: a cluster's nodes stop together, not in turn.
set -uo pipefail
cd "$(dirname "$0")/.."
SERVICES_DIR=${SERVICES_DIR:-$PWD/run/services}
shopt -s nullglob
for pidfile in "$SERVICES_DIR"/*.pid; do
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    echo "stopping $(basename "$pidfile" .pid) (pid $pid)"
    kill -TERM "$pid" 2>/dev/null
  fi
done
for pidfile in "$SERVICES_DIR"/*.pid; do
  name=$(basename "$pidfile" .pid)
  pid=$(cat "$pidfile")
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
  if [ -f "$SERVICES_DIR/$name.dir" ]; then rm -rf "$(cat "$SERVICES_DIR/$name.dir")"; fi
  rm -f "$pidfile" "$SERVICES_DIR/$name.dir"
done
