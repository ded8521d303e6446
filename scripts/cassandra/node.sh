# Shared by ensure_cassandra.sh (one node) and ensure_cassandra_cluster.sh (sourced, not
# run): Java and Maven, the node's jars from Maven Central, and the JVM's flags.
CACHE=${CASSANDRA_CACHE:-$HOME/.cache/scheduler-cassandra}

ensure_java_and_maven() {
  command -v java >/dev/null && command -v mvn >/dev/null && return
  echo "installing Java 17 and Maven"
  apt_install openjdk-17-jre-headless maven
}

# Cassandra 5.0 first; 4.1 if 5.0 does not resolve (it also runs on Java 17). Sets LIB.
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

# The node's command line in NODE_CMD: everything but its heap, config, folders and the
# extra -D flags given, which go before the main class.
node_command() {  # DIR FLAGS...
  local dir=$1 jamm
  shift
  jamm=$(ls "$LIB"/jamm-*.jar | head -n 1)
  NODE_CMD=(java -Xss512k -XX:+UseG1GC -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath="$dir"
    "${JPMS_FLAGS[@]}" -javaagent:"$jamm"
    -Djdk.attach.allowAttachSelf=true -Djava.net.preferIPv4Stack=true
    -Dio.netty.tryReflectionSetAccessible=true
    -Dcassandra.config="file://$dir/cassandra.yaml" -Dcassandra.storagedir="$dir"
    -Dcassandra.logdir="$dir/logs" -Dlogback.configurationFile="$PWD/scripts/cassandra/logback.xml"
    -Dcassandra-foreground=yes -Dcassandra.superuser_setup_delay_ms=0
    "$@" -cp "$LIB/*" org.apache.cassandra.service.CassandraDaemon)
}
