#!/usr/bin/env bash
# `make test-cluster`: start MariaDB, Redis and a 3-node Cassandra cluster
# (scripts/ensure_cassandra_cluster.sh; CASSANDRA_CLUSTER_FIRST puts it on other loopback
# addresses), run tests/cluster on it, and stop at the end whatever this run started, the
# nodes included, on failure too.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
trap scripts/stop_services.sh EXIT

scripts/ensure_mariadb.sh
scripts/ensure_redis.sh
scripts/ensure_cassandra_cluster.sh 3
DATABASE_URL=${TEST_DATABASE_URL:-mysql://root:@127.0.0.1:3306/scheduler} \
  "$PY" -m pytest -q -p no:cacheprovider tests/cluster
