#!/usr/bin/env bash
# `make test`: start the services the suite needs (installing what is missing, and Debian's
# Chromium for the admin's browser tests), run the whole suite on MariaDB with the real
# Cassandra, then the embedded mode's suites on SQLite, and stop at the end whatever this
# run started.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
trap scripts/stop_services.sh EXIT

scripts/ensure_mariadb.sh
scripts/ensure_redis.sh
scripts/ensure_nginx.sh
scripts/ensure_cassandra.sh
scripts/ensure_postgres.sh     # the River peer's (tests/bench/test_river_peer.py)
scripts/ensure_chromium.sh
scripts/ensure_faketime.sh
scripts/ensure_promtool.sh >/dev/null  # built once (minutes), then cached: tests/deploy
scripts/ensure_kubeconform.sh >/dev/null  # built once, then cached: tests/deploy
scripts/ensure_node.sh
scripts/ensure_podman.sh      # the image tests (tests/image/) build and run the image
scripts/ensure_base_image.sh  # their Debian base, made once with debootstrap, then cached
scripts/ensure_kube_play.sh   # catatonit and the image of this checkout: tests/deploy
export CASSANDRA_HOSTS=127.0.0.1 CASSANDRA_PORT=${CASSANDRA_PORT:-9042}

DATABASE_URL=${TEST_DATABASE_URL:-mysql://root:@127.0.0.1:3306/scheduler} \
  "$PY" -m pytest -q -p no:cacheprovider tests
DATABASE_URL=sqlite:///$PWD/db.sqlite3 "$PY" -m pytest -q -p no:cacheprovider "$@"
