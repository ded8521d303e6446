#!/usr/bin/env bash
# The suite needs the machine's MariaDB on 127.0.0.1:3306; start it if it is down.
set -euo pipefail
up() { mariadb-admin -h127.0.0.1 -uroot --connect-timeout=2 ping >/dev/null 2>&1; }
if ! up; then
  echo "MariaDB is down; starting it"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  for _ in $(seq 1 60); do up && break; sleep 0.5; done
fi
up || { echo "MariaDB did not come up on 127.0.0.1:3306 (root, no password)" >&2; exit 1; }
