#!/usr/bin/env bash
# Prints the path of a promtool binary, building it once if need be.
# promtool checks deploy/prometheus/alerts.yml (tests/deploy/test_alert_rules.py). A promtool on
# PATH of the pinned version is used as is; otherwise it is built with `go install` into
# PROMTOOL_DIR (default ~/.cache/scheduler-promtool/<version>), which takes a few minutes the
# first time and none after.
set -euo pipefail
# Prometheus v3.x is tagged v0.3xx.y for Go (v0.316.0 is Prometheus 3.16.0).
VERSION="${PROMTOOL_VERSION:-v0.316.0}"
DIR="${PROMTOOL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/scheduler-promtool/$VERSION}"
BIN="$DIR/promtool"

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "ensure_promtool.sh: promtool is not in $DIR and Go is not installed to build it" >&2
  exit 1
fi
mkdir -p "$DIR"
# One build at a time: two test runs at once would build twice into the same folder.
exec 9>"$DIR.lock"
flock 9
if [ ! -x "$BIN" ]; then
  echo "ensure_promtool.sh: building promtool $VERSION into $DIR (once; a few minutes)" >&2
  GOBIN="$DIR" go install "github.com/prometheus/prometheus/cmd/promtool@$VERSION" >&2
fi
echo "$BIN"
