#!/usr/bin/env bash
# Runs nginx in the foreground in front of the API: run_nginx.sh LISTEN UPSTREAM PREFIX, e.g.
#   scripts/run_nginx.sh 127.0.0.1:8000 127.0.0.1:8010 run/nginx
# with the configuration scripts/nginx/nginx.conf.in (see its comments).
set -euo pipefail
cd "$(dirname "$0")/.."
listen=$1 upstream=$2 prefix=$(mkdir -p "$3" && cd "$3" && pwd)
sed -e "s|@LISTEN@|$listen|g" -e "s|@UPSTREAM@|$upstream|g" -e "s|@PREFIX@|$prefix|g" \
  scripts/nginx/nginx.conf.in >"$prefix/nginx.conf"
exec nginx -p "$prefix" -e "$prefix/error.log" -c "$prefix/nginx.conf"
