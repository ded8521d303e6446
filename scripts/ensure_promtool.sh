#!/usr/bin/env bash
# Prints the path of a promtool binary, fetching it once if need be, for the alert rules'
# tests (tests/deploy/test_alert_rules.py). Cached under PROMTOOL_DIR (default
# ~/.cache/scheduler-promtool), so only the first run on a machine does any work:
#   1. Debian's `prometheus` package, downloaded and unpacked there only (promtool alone is
#      kept: no Prometheus server is installed or started); seconds.
#   2. Otherwise, built from source with `go install` (PROMTOOL_VERSION); many minutes.
set -euo pipefail
# Prometheus v3.x is tagged v0.3xx.y for Go (v0.316.0 is Prometheus 3.16.0).
VERSION="${PROMTOOL_VERSION:-v0.316.0}"
ROOT_DIR="${PROMTOOL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/scheduler-promtool}"

cached() {
  for bin in "$ROOT_DIR"/*/promtool; do
    if [ -x "$bin" ]; then
      echo "$bin"
      return 0
    fi
  done
  return 1
}

from_debian() {
  command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || return 1
  local tmp
  tmp=$(mktemp -d)
  chmod 755 "$tmp"  # apt's download user writes there
  if ! (cd "$tmp" && apt-get download -q prometheus >&2); then
    apt-get update -q >&2 || true  # the package lists may never have been read
    (cd "$tmp" && apt-get download -q prometheus >&2) || { rm -rf "$tmp"; return 1; }
  fi
  dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/unpacked"
  mkdir -p "$ROOT_DIR/debian"
  cp "$tmp/unpacked/usr/bin/promtool" "$ROOT_DIR/debian/promtool"
  rm -rf "$tmp"
}

from_source() {
  command -v go >/dev/null 2>&1 || return 1
  echo "ensure_promtool.sh: building promtool $VERSION with Go (once; many minutes)" >&2
  GOBIN="$ROOT_DIR/$VERSION" go install "github.com/prometheus/prometheus/cmd/promtool@$VERSION" >&2
}

cached && exit 0
mkdir -p "$ROOT_DIR"
# One fetch at a time: two test runs at once would both fetch into the same folder.
exec 9>"$ROOT_DIR/.lock"
flock 9
cached && exit 0
if from_debian || from_source; then
  cached && exit 0
fi
echo "ensure_promtool.sh: no promtool: neither Debian's prometheus package nor Go could provide it" >&2
exit 1
