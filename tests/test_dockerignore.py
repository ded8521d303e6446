"""The build context of the image leaves out the development machine's secrets and data, the
repository and the virtualenv, checked with Docker's matching rules on this checkout."""

from pathlib import Path

import pytest

from tests.dockerignore import is_excluded, read_patterns, sent_files

ROOT = Path(__file__).resolve().parent.parent
NEVER_SENT = [
    ".venv/bin/python",
    ".venv/lib/python3.11/site-packages/django/__init__.py",
    "run/keys.env",
    "run/nginx/access.log",
    "db.sqlite3",
    "test-db.sqlite3",
    "test-db.sqlite3-journal",
    ".git/HEAD",
    ".git",  # a worktree's .git is a file
    "tls/key.pem",
    "console/__pycache__/admin.cpython-311.pyc",
    "bench/out/burst.json",
    "docs/screenshots/dlq.png",
    ".pytest_cache/README.md",
    ".ruff_cache/CACHEDIR.TAG",
    "examples/node_modules/typescript/package.json",
    "examples/build/receiver.js",
]
NEEDED = [
    "manage.py",
    "requirements.txt",
    "scheduler_site/settings.py",
    "scripts/container_api.sh",
    "scripts/run_nginx.sh",
    "scripts/nginx/nginx.conf.in",
    "templates/admin/base_site.html",
    "console/templates/console/dlq_change_list.html",
    "jobs/migrations/0001_initial.py",
]


@pytest.fixture(scope="module")
def patterns():
    return read_patterns(ROOT / ".dockerignore")


@pytest.mark.parametrize("path", NEVER_SENT)
def test_secrets_data_and_tools_never_reach_the_image(patterns, path):
    assert is_excluded(path, patterns)


@pytest.mark.parametrize("path", NEEDED)
def test_what_the_processes_run_is_sent(patterns, path):
    assert (ROOT / path).exists() and not is_excluded(path, patterns)


def test_nothing_of_this_checkout_sent_is_a_secret_a_database_or_a_cache(patterns):
    sent = sent_files(ROOT, patterns)
    assert "manage.py" in sent
    suspicious = [
        path
        for path in sent
        if path.split("/")[0] in {".git", ".venv", "run", "tls", "tests", "bench"}
        or path.endswith((".sqlite3", ".env", ".pyc"))
        or "sqlite3-" in path
        or "__pycache__" in path
    ]
    assert suspicious == []


def test_the_matcher_follows_dockers_rules(tmp_path):
    """Anchored at the top unless `**`; a folder's pattern covers what is inside it."""
    rules = tmp_path / ".dockerignore"
    rules.write_text("\n".join(["*.sqlite3", "/run/", "**/*.pyc", "docs", "!docs/keep.md"]))
    patterns = read_patterns(rules)
    assert is_excluded("db.sqlite3", patterns) and not is_excluded("a/db.sqlite3", patterns)
    assert is_excluded("run/keys.env", patterns) and not is_excluded("a/run/x", patterns)
    assert is_excluded("x.pyc", patterns) and is_excluded("a/b/x.pyc", patterns)
    assert is_excluded("docs/a.png", patterns) and not is_excluded("docs/keep.md", patterns)
