"""A SQLite test run keeps its database out of the checkout, in a folder of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.processes import ROOT

PROBE = (
    "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'tests.settings'; django.setup();"
    " from django.conf import settings; print(settings.DATABASES['default']['TEST']['NAME'])"
)


def probed_name(extra: dict | None = None) -> Path:
    env = {k: v for k, v in os.environ.items() if k != "SCHEDULER_TEST_SQLITE_DIR"}
    env.update(DATABASE_URL="sqlite:////tmp/any.sqlite3", **(extra or {}))
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip())


def test_a_sqlite_run_puts_its_test_database_outside_the_checkout():
    name = probed_name()
    assert not name.is_relative_to(ROOT)


def test_two_sqlite_runs_get_test_databases_of_their_own():
    assert probed_name().parent != probed_name().parent


def test_the_processes_a_run_starts_name_the_same_test_database(tmp_path):
    folder = {"SCHEDULER_TEST_SQLITE_DIR": str(tmp_path)}
    assert probed_name(folder) == tmp_path / "test-db.sqlite3"
