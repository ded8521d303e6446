#!/usr/bin/env bash
# The TypeScript receiver's test (tests/examples/test_receivers.py) compiles and runs
# examples/receiver.ts with Node and npm; this installs Debian's when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "installing Debian's nodejs and npm"
  apt_install nodejs npm
fi
