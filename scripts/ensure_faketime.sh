#!/usr/bin/env bash
# The daylight-saving end-to-end test (tests/test_dst_faketime.py) runs real processes at
# another instant with Debian's libfaketime; this installs it when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
if [ ! -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ]; then
  echo "installing Debian's faketime"
  apt_install faketime
fi
