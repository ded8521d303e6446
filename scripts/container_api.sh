#!/usr/bin/env bash
# The container's API: gunicorn on ${GUNICORN_BIND:-127.0.0.1:8010} behind nginx on
# 0.0.0.0:${PORT:-8000} (scripts/nginx/nginx.conf.in). If either stops, the other is stopped
# and the container exits, so the orchestrator restarts it whole. GUNICORN_BIND moves
# gunicorn off 8010 where the container shares the host's network.
set -uo pipefail
cd "$(dirname "$0")/.."
# nginx below is the one proxy in front of gunicorn (the login throttle reads its address).
export PROXY_HOPS=${PROXY_HOPS:-1}
upstream=${GUNICORN_BIND:-127.0.0.1:8010}
gunicorn scheduler_site.wsgi -c scheduler_site/gunicorn.conf.py --bind "$upstream" &
api=$!
scripts/run_nginx.sh "0.0.0.0:${PORT:-8000}" "$upstream" /tmp/nginx &
front=$!  # run_nginx.sh execs nginx: this is nginx's pid
# A stop (the orchestrator's SIGTERM) or either process ending only wakes the wait below.
trap : TERM INT
wait -n
status=$?
# The front first and gracefully (SIGQUIT; SIGTERM is nginx's fast stop, which cuts the
# requests in flight): it stops listening and finishes those on a gunicorn still up; then
# gunicorn, which finishes its own within graceful_timeout.
kill -QUIT "$front" 2>/dev/null
wait "$front"
kill -TERM "$api" 2>/dev/null
wait
exit $status
