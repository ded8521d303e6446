#!/usr/bin/env python3
"""Prints the Kubernetes Secret of the keys and the database's address, filled in from the
environment (deploy/kubernetes/secret.yaml.in), for `kubectl apply -f -`:

    export DATABASE_URL=mysql://scheduler:...@mariadb.example:3306/scheduler
    export SECRET_KEY=... JWT_SIGNING_KEY=... SECRETS_ENCRYPTION_KEYS=...   (README: keys)
    scripts/kube_secret.py | kubectl apply -f -

Nothing is generated here: a fresh SECRETS_ENCRYPTION_KEYS on each apply would make every
stored tenant secret unreadable, so each value must come from the operator's secret store.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent.parent / "deploy/kubernetes/secret.yaml.in"
PLACEHOLDER = re.compile(r"\$\{([A-Z_]+)\}")


def fill(template: str, environ: dict[str, str]) -> str:
    """The template with each ${NAME} replaced by its value as a quoted YAML string."""
    missing = sorted({name for name in PLACEHOLDER.findall(template) if not environ.get(name)})
    if missing:
        raise SystemExit(f"kube_secret.py: set {', '.join(missing)} (README, Kubernetes)")
    # A JSON string is a YAML string too: quotes, colons and # in a value stay the value.
    return PLACEHOLDER.sub(lambda match: json.dumps(environ[match.group(1)]), template)


if __name__ == "__main__":
    sys.stdout.write(fill(TEMPLATE.read_text(), dict(os.environ)))
