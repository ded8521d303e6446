#!/usr/bin/env bash
# Builds the River peer (bench/river) and prints the binary's path. The binary goes to a
# cache folder outside the checkout (RIVER_PEER_BIN overrides it); the modules come from the
# Go module proxy at the versions bench/river/go.mod and go.sum pin. Go does the rebuild-or-not.
set -euo pipefail
cd "$(dirname "$0")/../bench/river"
if ! command -v go >/dev/null; then
  echo "the River peer needs Go (go.mod: $(grep '^go ' go.mod)); none is on PATH" >&2
  exit 1
fi
out=${RIVER_PEER_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/scheduler-bench/river-peer}
mkdir -p "$(dirname "$out")"
go build -trimpath -o "$out" . >&2
echo "$out"
