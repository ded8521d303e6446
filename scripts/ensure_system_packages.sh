#!/usr/bin/env bash
# mysqlclient builds from source: it needs pkg-config and the MariaDB client headers.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null || missing+=(pkg-config)
pkg-config --exists libmariadb 2>/dev/null || pkg-config --exists mysqlclient 2>/dev/null || missing+=(libmariadb-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing system packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
