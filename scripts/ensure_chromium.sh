#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Debian's chromedriver (/usr/bin/chromium,
# /usr/bin/chromedriver); this installs both when either is missing. Nothing is started here:
# each test starts its own headless browser.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "installing Debian's chromium and chromium-driver"
  apt_install chromium chromium-driver
fi
