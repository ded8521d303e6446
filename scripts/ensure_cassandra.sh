#!/usr/bin/env bash
# The suite's Cassandra: one node on 127.0.0.1:${CASSANDRA_PORT:-9042}. If nothing answers
# there, fetch the node's jars from Maven Central once (scripts/cassandra/pom.xml), write a
# one-node cassandra.yaml under a temporary folder, start it in the background and wait for
# CQL. What this script starts is recorded in run/services/ for scripts/stop_services.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/cassandra/node.sh

PORT=${CASSANDRA_PORT:-9042}
STORAGE_PORT=${CASSANDRA_STORAGE_PORT:-7000}
HEAP=${CASSANDRA_HEAP:-1g}

if port_answers "$PORT"; then exit 0; fi

write_config() {
  sed -e "s|@DIR@|$DIR|g" -e "s|@PORT@|$PORT|g" -e "s|@STORAGE_PORT@|$STORAGE_PORT|g" \
    scripts/cassandra/cassandra.yaml.in >"$DIR/cassandra.yaml"
  mkdir -p "$DIR/logs"
}

start_node() {
  # ring delay and gossip settling only matter to a cluster; a lone node skips them.
  node_command "$DIR" -Xms256m -Xmx"$HEAP" -Dcassandra.ring_delay_ms=0 \
    -Dcassandra.skip_wait_for_gossip_to_settle=0
  setsid "${NODE_CMD[@]}" >"$DIR/logs/stdout.log" 2>&1 </dev/null &
  record_started cassandra $! "$DIR"
}

ensure_java_and_maven
fetch_jars
DIR=$(mktemp -d /tmp/scheduler-cassandra.XXXXXX)
write_config
echo "starting Cassandra on 127.0.0.1:$PORT (data and logs in $DIR)"
start_node
if ! wait_for_port "$PORT" 240 cassandra; then
  echo "Cassandra did not answer on 127.0.0.1:$PORT within 240 s; its log:" >&2
  tail -n 40 "$DIR/logs/system.log" "$DIR/logs/stdout.log" >&2 || true
  exit 1
fi
echo "Cassandra is up on 127.0.0.1:$PORT"
