#!/usr/bin/env bash
# The suite's Redis on 127.0.0.1:6379 (shared rate-limit counters). Installs Debian's
# redis-server when it is missing and starts one without persistence when nothing answers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

if port_answers 6379; then exit 0; fi
if ! command -v redis-server >/dev/null; then
  echo "installing Debian's redis-server"
  apt_install redis-server
fi
echo "Redis is down; starting it"
setsid redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no \
  >/var/log/scheduler-redis.log 2>&1 </dev/null &
record_started redis $!
wait_for_port 6379 30 redis || { echo "Redis did not come up on 127.0.0.1:6379" >&2; exit 1; }
