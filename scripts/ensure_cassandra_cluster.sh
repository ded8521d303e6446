#!/usr/bin/env bash
# A Cassandra cluster of N nodes (default 3) of the same Cassandra as ensure_cassandra.sh,
# one JVM each, on N loopback addresses with the same ports: 127.0.0.1 ... 127.0.0.N by
# default, from CASSANDRA_CLUSTER_FIRST (e.g. 127.0.0.11 beside a single node on
# 127.0.0.1). Each node has its own folder under CASSANDRA_CLUSTER_DIR and its JMX on
# 127.0.0.1:(7200 + the last byte of its address), for nodetool. Waits until nodetool
# shows every node UN and CQL answers on each. Nodes already up are left; a node that is
# down while others run is started again on its own folder (a restart); when none runs,
# the folders are made anew. Started nodes are recorded for scripts/stop_services.sh.
# `N status` only prints nodetool status as node 1 sees the ring (UN up, DN down).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
source scripts/cassandra/node.sh

NODES=${1:-3}
FIRST=${CASSANDRA_CLUSTER_FIRST:-127.0.0.1}
PORT=${CASSANDRA_PORT:-9042}
STORAGE_PORT=${CASSANDRA_STORAGE_PORT:-7000}
HEAP=${CASSANDRA_CLUSTER_HEAP:-512m}
ROOT_DIR=${CASSANDRA_CLUSTER_DIR:-/tmp/scheduler-cassandra-cluster-$FIRST}
WAIT=${CASSANDRA_CLUSTER_WAIT:-300}

if ! [[ $NODES =~ ^[1-9][0-9]?$ ]]; then
  echo "usage: $0 N (the number of nodes, 1 to 99)" >&2
  exit 2
fi
PREFIX=${FIRST%.*}
LAST_BYTE=${FIRST##*.}
if ((LAST_BYTE + NODES - 1 > 254)); then
  echo "$NODES nodes from $FIRST do not fit in $PREFIX.0/24" >&2
  exit 2
fi

address() { echo "$PREFIX.$((LAST_BYTE + $1 - 1))"; }  # node 1 .. N
jmx_port() { echo $((7200 + LAST_BYTE + $1 - 1)); }
name() { echo "cassandra-$(address "$1")"; }
answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
node_up() { answers "$(address "$1")" "$PORT" && answers 127.0.0.1 "$(jmx_port "$1")"; }

nodetool() {
  java -Xmx128m "${JPMS_FLAGS[@]}" -Duser.home="$ROOT_DIR" \
    -Dlogback.configurationFile="$PWD/scripts/cassandra/logback.xml" -Dcassandra.logdir="$ROOT_DIR" -cp "$LIB/*" \
    org.apache.cassandra.tools.NodeTool \
    -h 127.0.0.1 -p "$(jmx_port 1)" "$@"
}

# Murmur3 tokens evenly spread over the ring (-2^63 ... 2^63 - 1), one per node.
token() { echo $((-9223372036854775807 - 1 + ($1 - 1) * (9223372036854775807 / NODES) * 2)); }

# A port of a node's address held by something that is not a node of this cluster (the
# single node of ensure_cassandra.sh on 127.0.0.1, say) is an error naming it.
refuse_foreign() {  # NODE
  local addr
  addr=$(address "$1")
  if answers "$addr" "$PORT" && ! answers 127.0.0.1 "$(jmx_port "$1")"; then
    echo "$addr:$PORT already answers, and not as node $1 of this cluster (no JMX on" \
      "127.0.0.1:$(jmx_port "$1")): a single Cassandra (scripts/ensure_cassandra.sh) holds it?" \
      "Stop it (scripts/stop_services.sh), or put the cluster on other addresses:" \
      "CASSANDRA_CLUSTER_FIRST=127.0.0.11 $0 $NODES" >&2
    exit 1
  fi
}

write_config() {  # NODE DIR
  mkdir -p "$2/logs"
  sed -e "s|@DIR@|$2|g" -e "s|@PORT@|$PORT|g" -e "s|@STORAGE_PORT@|$STORAGE_PORT|g" \
    -e "s|@ADDRESS@|$(address "$1")|g" -e "s|@SEED@|$(address 1)|g" -e "s|@TOKEN@|$(token "$1")|g" \
    scripts/cassandra/cluster.yaml.in >"$2/cassandra.yaml"
}

start_node() {  # NODE
  local dir="$ROOT_DIR/$(address "$1")"
  [ -f "$dir/cassandra.yaml" ] || write_config "$1" "$dir"
  echo "starting Cassandra node $1 on $(address "$1"):$PORT (folder $dir)"
  # Gossip settles in a moment among a few nodes on one host: no ring delay, no wait.
  node_command "$dir" -Xms"$HEAP" -Xmx"$HEAP" \
    -Dcassandra.jmx.local.port="$(jmx_port "$1")" -Dcassandra.ring_delay_ms=1000 \
    -Dcassandra.skip_wait_for_gossip_to_settle=0
  setsid "${NODE_CMD[@]}" >>"$dir/logs/stdout.log" 2>&1 </dev/null &
  record_started "$(name "$1")" $! "$dir"
}

wait_for_node() {  # NODE: its CQL and JMX answer, or its process died
  local deadline=$((SECONDS + WAIT)) pid
  pid=$(cat "$SERVICES_DIR/$(name "$1").pid")
  until node_up "$1"; do
    if ! kill -0 "$pid" 2>/dev/null || ((SECONDS > deadline)); then
      echo "Cassandra node $1 ($(address "$1")) did not come up; its log:" >&2
      tail -n 40 "$ROOT_DIR/$(address "$1")/logs/system.log" \
        "$ROOT_DIR/$(address "$1")/logs/stdout.log" >&2 || true
      exit 1
    fi
    sleep 1
  done
}

all_normal() {
  [ "$(nodetool status 2>/dev/null | grep -c '^UN ')" -eq "$NODES" ]
}

all_up() {
  local n
  for n in $(seq 1 "$NODES"); do node_up "$n" || return 1; done
  all_normal
}

if [ "${2:-}" = status ]; then
  fetch_jars
  nodetool status
  exit
fi

ensure_java_and_maven
fetch_jars
for n in $(seq 1 "$NODES"); do refuse_foreign "$n"; done
if all_up; then exit 0; fi

any_up=""
for n in $(seq 1 "$NODES"); do node_up "$n" && any_up=1; done
# No node runs: old folders belong to a cluster that is gone; start afresh.
if [ -z "$any_up" ]; then rm -rf "${ROOT_DIR:?}"/*; fi
mkdir -p "$ROOT_DIR"

# The seed first: the others learn the ring from it.
started=()
if ! node_up 1; then start_node 1; wait_for_node 1; fi
for n in $(seq 2 "$NODES"); do
  if ! node_up "$n"; then start_node "$n"; started+=("$n"); fi
done
for n in "${started[@]}"; do wait_for_node "$n"; done

deadline=$((SECONDS + WAIT))
until all_normal; do
  if ((SECONDS > deadline)); then
    echo "the cluster did not show $NODES nodes UN within $WAIT s:" >&2
    nodetool status >&2 || true
    exit 1
  fi
  sleep 1
done
echo "Cassandra cluster of $NODES nodes up on $(address 1) ... $(address "$NODES"):$PORT"
