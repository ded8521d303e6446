#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PY:-.venv/bin/python}" scripts/run_embedded.py
