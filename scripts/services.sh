# Helpers shared by the ensure_*.sh scripts (sourced, not run).
# Services these scripts start are recorded in run/services/NAME.pid (and NAME.dir for a
# temporary data folder) so that scripts/stop_services.sh stops exactly those at the end.
SERVICES_DIR=${SERVICES_DIR:-$PWD/run/services}

port_answers() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

record_started() {  # NAME PID [DATA_DIR]
  mkdir -p "$SERVICES_DIR"
  echo "$2" >"$SERVICES_DIR/$1.pid"
  if [ -n "${3:-}" ]; then echo "$3" >"$SERVICES_DIR/$1.dir"; fi
}

# Waits until the port answers; gives up early when the recorded process has died.
wait_for_port() {  # PORT SECONDS [NAME]
  local deadline=$((SECONDS + $2)) pid=""
  [ -n "${3:-}" ] && [ -f "$SERVICES_DIR/$3.pid" ] && pid=$(cat "$SERVICES_DIR/$3.pid")
  while ((SECONDS < deadline)); do
    port_answers "$1" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.5
  done
  return 1
}
