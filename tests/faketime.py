"""Real processes living at another instant: Debian's libfaketime with one offset for all of
a system's processes, each system on a database of its own (a scheduler in November would
run the March tasks of another system).

The systems use the embedded SQLite mode: on MariaDB the queue's claims and leases read the
database server's clock (NOW(6)), and the shared server cannot live at the systems' instant;
on SQLite every clock read is the processes' own, so all of them are faked.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rest_framework_simplejwt.tokens import AccessToken

from tasks.auth import TENANT_CLAIM
from tests.processes import ROOT

LIBFAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
SITE = Path(__file__).resolve().parent / "faketime_site"  # its sitecustomize fixes sleep


def offset_to(fake_now: datetime) -> int:
    """The whole seconds to add to the real clock for it to read `fake_now` now."""
    return round((fake_now - datetime.now(UTC)).total_seconds())


def faketime_env(offset: int) -> dict[str, str]:
    assert LIBFAKETIME.exists(), "libfaketime is missing: apt-get install faketime"
    return {
        "LD_PRELOAD": str(LIBFAKETIME),
        "FAKETIME": f"{offset:+d}",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        "PYTHONPATH": str(SITE),
    }


def fake_now(offset: int) -> datetime:
    return datetime.fromtimestamp(time.time() + offset, UTC)


def token_at(tenant_id: str, offset: int) -> str:
    """A token valid for an hour at the processes' instant (a real-time one has expired)."""
    issued = fake_now(offset)
    token = AccessToken()
    token[TENANT_CLAIM] = tenant_id
    token.set_iat(at_time=issued)
    token.set_exp(from_time=issued, lifetime=timedelta(hours=1))
    return str(token)


def run_command(args: list[str], env: dict[str, str]) -> str:
    """A manage.py command run to its end (its stdout), on a system's clock and database."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
