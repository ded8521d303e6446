"""What `make run` and `make test` leave in a checkout stays out of `git status`: the
SQLite database with its write-ahead log and index (`-wal`, `-shm`, there while the
database is open), `make run`'s keys and logs, and the tools' caches. Checked with git's
own matching (`git check-ignore`), as a developer's `git add -A` would meet them."""

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LEFT_BY_A_RUN = [
    "db.sqlite3",
    "db.sqlite3-wal",
    "db.sqlite3-shm",
    "test-db.sqlite3-journal",
    "run/keys.env",
    "run/api.log",
    ".venv",
    "examples/node_modules/typescript/package.json",
    "examples/build/receiver.js",
]


@pytest.mark.parametrize("path", LEFT_BY_A_RUN)
def test_git_ignores_what_a_run_leaves(path):
    found = subprocess.run(
        ["git", "check-ignore", "--no-index", "--quiet", path], cwd=ROOT, check=False
    )
    assert found.returncode == 0, f"git status would show {path}: add it to .gitignore"


def test_git_still_sees_the_sources():
    found = subprocess.run(
        ["git", "check-ignore", "--no-index", "--quiet", "README.md"], cwd=ROOT, check=False
    )
    assert found.returncode == 1
