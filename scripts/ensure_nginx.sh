#!/usr/bin/env bash
# The suite starts its own nginx in front of the API (scripts/run_nginx.sh); this installs
# Debian's nginx when it is missing. Nothing is started here.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
if ! command -v nginx >/dev/null; then
  echo "installing Debian's nginx"
  apt_install nginx
fi
