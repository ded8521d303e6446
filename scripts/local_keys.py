"""The keys of this install when the environment does not give them: made once, kept in
RUN_DIR/keys.env (readable by its owner only), shared by `make run` and `make admin` so that
tokens, sessions and stored secrets outlive a restart."""

from __future__ import annotations

import os
from pathlib import Path

from scheduler_site.keys import fresh_keys


def local_keys(run_dir: Path) -> dict[str, str]:
    """The keys of run_dir/keys.env that the environment does not set itself."""
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / "keys.env"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text("".join(f"{name}={value}\n" for name, value in fresh_keys().items()))
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
    return {name: value for name, value in pairs if not os.environ.get(name)}
