#!/usr/bin/env bash
# Prints two lines, kubeconform's path and the -schema-location of the Kubernetes schemas,
# providing both once, for tests/deploy/test_kubernetes_manifests.py. Cached under
# KUBECONFORM_DIR (default ~/.cache/scheduler-kubeconform):
#   - kubeconform built with `go install` (KUBECONFORM_VERSION; about 3 minutes on a fresh
#     machine under load, seconds with Go's module cache warm);
#   - the schemas: kubeconform's default location (GitHub) is out of reach from these
#     machines, so they come from PyPI's kubernetes-validate wheel (pip download, not
#     installed), whose "-local-strict" set for KUBERNETES_SCHEMA_VERSION is unpacked and
#     made self-contained: its top-level $id dropped and its references to
#     /api/_definitions.json made relative to the file, which kubeconform resolves offline.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="${KUBECONFORM_VERSION:-v0.8.0}"
SCHEMAS_PACKAGE="${KUBERNETES_VALIDATE_VERSION:-1.34.1}"
KUBE="${KUBERNETES_SCHEMA_VERSION:-v1.34.0}"
ROOT_DIR="${KUBECONFORM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/scheduler-kubeconform}"
PY=${PY:-.venv/bin/python}
[ -x "$PY" ] || PY=python3
BIN="$ROOT_DIR/$VERSION/kubeconform"
SCHEMAS="$ROOT_DIR/schemas/$KUBE-local-strict"

report() {
  echo "$BIN"
  echo "$SCHEMAS/{{ .ResourceKind }}{{ .KindSuffix }}.json"
}

ready() { [ -x "$BIN" ] && [ -f "$SCHEMAS/.complete" ]; }

build() {
  command -v go >/dev/null 2>&1 || { echo "ensure_kubeconform.sh: Go is missing" >&2; return 1; }
  GOBIN="$ROOT_DIR/$VERSION" go install "github.com/yannh/kubeconform/cmd/kubeconform@$VERSION" >&2
}

unpack_schemas() {
  local tmp
  tmp=$(mktemp -d)
  "$PY" -m pip download --quiet --no-deps "kubernetes-validate==$SCHEMAS_PACKAGE" -d "$tmp" >&2
  "$PY" - "$tmp"/kubernetes_validate-*.whl "kubernetes_validate/kubernetes-json-schema/$KUBE-local-strict/" "$SCHEMAS" <<'PYTHON'
import json, pathlib, sys, zipfile
wheel, prefix, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
out.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(wheel) as archive:
    names = [n for n in archive.namelist() if n.startswith(prefix) and n.endswith(".json")]
    if not names:
        raise SystemExit(f"ensure_kubeconform.sh: no {prefix} in {wheel}")
    for name in names:
        schema = json.loads(archive.read(name))
        schema.pop("$id", None)
        text = json.dumps(schema).replace('"/api/_definitions.json#', '"_definitions.json#')
        (out / name[len(prefix):]).write_text(text)
(out / ".complete").write_text(f"{len(names)} schemas\n")
PYTHON
  rm -rf "$tmp"
}

ready && report && exit 0
mkdir -p "$ROOT_DIR"
# One fetch at a time: two test runs at once would both write into the same folders.
exec 9>"$ROOT_DIR/.lock"
flock 9
[ -x "$BIN" ] || build || { echo "ensure_kubeconform.sh: could not build kubeconform $VERSION" >&2; exit 1; }
[ -f "$SCHEMAS/.complete" ] || unpack_schemas \
  || { echo "ensure_kubeconform.sh: could not fetch the Kubernetes schemas" >&2; exit 1; }
report
