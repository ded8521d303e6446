#!/usr/bin/env bash
# The suite's Cassandra: one node on 127.0.0.1:${CASSANDRA_PORT:-9042}. If nothing answers
# there, fetch the node's jars from Maven Central once (scripts/cassandra/pom.xml), write a
# one-node cassandra.yaml under a temporary folder, start it in the background and wait for
# CQL. What this script starts is recorded in run/services/ for scripts/stop_services.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

PORT=${CASSANDRA_PORT:-9042}
STORAGE_PORT=${CASSANDRA_STORAGE_PORT:-7000}
CACHE=${CASSANDRA_CACHE:-$HOME/.cache/scheduler-cassandra}
HEAP=${CASSANDRA_HEAP:-1g}

if port_answers "$PORT"; then exit 0; fi

ensure_java_and_maven() {
  command -v java >/dev/null && command -v mvn >/dev/null && return
  echo "installing Java 17 and Maven"
  apt_install openjdk-17-jre-headless maven
}

# Cassandra 5.0 first; 4.1 if 5.0 does not resolve (it also runs on Java 17).
fetch_jars() {
  local version
  for version in 5.0.6 4.1.10; do
    LIB="$CACHE/$version/lib"
    [ -f "$LIB/cassandra-all-$version.jar" ] && return 0
    echo "fetching Cassandra $version from Maven Central into $LIB"
    if mvn -q -B -Dstyle.color=never -f scripts/cassandra/pom.xml -Dcassandra.version="$version" \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIB"; then
      return 0
    fi
    rm -rf "$LIB"
  done
  echo "Cassandra could not be fetched from Maven Central (see Maven's error above)" >&2
  exit 1
}

write_config() {
  sed -e "s|@DIR@|$DIR|g" -e "s|@PORT@|$PORT|g" -e "s|@STORAGE_PORT@|$STORAGE_PORT|g" \
    scripts/cassandra/cassandra.yaml.in >"$DIR/cassandra.yaml"
  mkdir -p "$DIR/logs"
}

# Cassandra reaches into JDK internals; these are the module openings its Java 17 launcher uses.
JPMS_FLAGS=(
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.base/jdk.internal.ref=ALL-UNNAMED
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED
  --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
  --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
  --add-exports java.sql/java.sql=ALL-UNNAMED
  --add-exports java.base/java.lang.ref=ALL-UNNAMED
  --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
  --add-opens java.base/java.lang.module=ALL-UNNAMED
  --add-opens java.base/jdk.internal.loader=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
  --add-opens java.base/jdk.internal.math=ALL-UNNAMED
  --add-opens java.base/jdk.internal.module=ALL-UNNAMED
  --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.io=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED
  --add-opens java.base/java.nio=ALL-UNNAMED
)

start_node() {
  local jamm
  jamm=$(ls "$LIB"/jamm-*.jar | head -n 1)
  # ring delay and gossip settling only matter to a cluster; a lone node skips them.
  setsid java -Xms256m -Xmx"$HEAP" -Xss512k -XX:+UseG1GC -XX:+HeapDumpOnOutOfMemoryError \
    -XX:HeapDumpPath="$DIR" "${JPMS_FLAGS[@]}" -javaagent:"$jamm" \
    -Djdk.attach.allowAttachSelf=true -Djava.net.preferIPv4Stack=true \
    -Dio.netty.tryReflectionSetAccessible=true \
    -Dcassandra.config="file://$DIR/cassandra.yaml" -Dcassandra.storagedir="$DIR" \
    -Dcassandra.logdir="$DIR/logs" -Dlogback.configurationFile="$PWD/scripts/cassandra/logback.xml" \
    -Dcassandra-foreground=yes -Dcassandra.ring_delay_ms=0 \
    -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.superuser_setup_delay_ms=0 \
    -cp "$LIB/*" org.apache.cassandra.service.CassandraDaemon \
    >"$DIR/logs/stdout.log" 2>&1 </dev/null &
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
