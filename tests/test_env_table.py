"""Every environment variable the service, its settings and its scripts read is in the one
table of README.md's "Configuration (environment)" section, and the table lists nothing
that nothing reads. The scan covers the Python code outside tests/, bench/ and the SDK
(client/, documented in its own README), the example receivers aside, and the shell
scripts and compose file that run the service (not the scripts that install services
for the tests)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.processes import ROOT

SKIPPED_FOLDERS = {"tests", "bench", "client", "examples", ".venv", "node_modules", "run"}
RUNTIME_SCRIPTS = (
    "scripts/run_embedded.sh",
    "scripts/container_api.sh",
    "scripts/run_nginx.sh",
    "docker-compose.yml",
    "scripts/build_image.sh",
)
# Read, but not configuration: set by manage.py and wsgi.py, or by the Makefile for its script;
# pip's own PIP_CERT (make image's default CA bundle).
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "PY", "PIP_CERT"}
NAME = r"([A-Z][A-Z0-9_]+)"
PYTHON_READS = re.compile(
    rf"""(?:\benv_\w+\(\s*|os\.environ\.get\(\s*|os\.environ\[\s*|os\.getenv\(\s*)["']{NAME}["']"""
)
SHELL_READS = re.compile(rf"\$\{{{NAME}[:?}}-]")


def python_files() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts[:-1])
    ]


def variables_read() -> set[str]:
    names = set()
    for path in python_files():
        names |= set(PYTHON_READS.findall(path.read_text()))
    for script in RUNTIME_SCRIPTS:
        names |= set(SHELL_READS.findall((ROOT / script).read_text()))
    return names - NOT_SETTINGS


def variables_documented() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Configuration (environment)\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(rf"`{NAME}`", row.split(" | ")[0])}


def test_the_scan_finds_the_settings_it_should():
    # A guard on the scan itself: a pattern that stopped matching would pass the tests below.
    assert {
        "DATABASE_URL",
        "SECRET_KEY",
        "GUNICORN_WORKERS",
        "PORT",
        "TLS_CERT",
    } <= variables_read()


def test_every_variable_read_is_in_the_readme_table():
    missing = sorted(variables_read() - variables_documented())
    assert missing == [], f"add these to README.md's Configuration table: {missing}"


def test_the_readme_table_lists_only_variables_something_reads():
    unread = sorted(variables_documented() - variables_read())
    assert unread == [], f"nothing reads these variables of README.md's table: {unread}"
