#!/usr/bin/env bash
# Runs nginx in the foreground in front of the API: run_nginx.sh LISTEN UPSTREAM PREFIX, e.g.
#   scripts/run_nginx.sh 127.0.0.1:8000 127.0.0.1:8010 run/nginx
# with the configuration scripts/nginx/nginx.conf.in (see its comments). With TLS_CERT and
# TLS_KEY (PEM files) set, nginx ends TLS on LISTEN; the API then runs with HTTPS=true.
set -euo pipefail
cd "$(dirname "$0")/.."
listen=$1 upstream=$2 prefix=$(mkdir -p "$3" && cd "$3" && pwd)
ssl="" tls=""
if [[ -n "${TLS_CERT:-}" || -n "${TLS_KEY:-}" ]]; then
  : "${TLS_CERT:?TLS_KEY is set: set TLS_CERT too}" "${TLS_KEY:?TLS_CERT is set: set TLS_KEY too}"
  ssl=" ssl"
  tls="        ssl_certificate $TLS_CERT;\n        ssl_certificate_key $TLS_KEY;"
  tls+="\n        ssl_protocols TLSv1.2 TLSv1.3;"
fi
sed -e "s|@LISTEN@|$listen|g" -e "s|@UPSTREAM@|$upstream|g" -e "s|@PREFIX@|$prefix|g" \
  -e "s|@SSL@|$ssl|g" -e "s|@TLS@|$tls|g" \
  scripts/nginx/nginx.conf.in >"$prefix/nginx.conf"
exec nginx -p "$prefix" -e "$prefix/error.log" -c "$prefix/nginx.conf"
