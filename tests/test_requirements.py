"""The runtime requirements (what the image installs) hold every third-party package the
product imports and none of the tests' and benchmarks' packages (requirements-dev.txt)."""

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ["console", "execution", "history", "jobs", "scheduler_site", "tasks", "scripts"]
DEV_ONLY = {
    "pytest",
    "pytest-django",
    "hypothesis",
    "schemathesis",
    "openapi-python-client",
    "selenium",
    "pyyaml",
    "pillow",
    "celery",
    "py-spy",
    "ruff",
    "mypy",
    "types-requests",
    "types-pyyaml",
}
# Loaded by name, not imported: the MySQL backend's driver and the API's server.
LOADED_BY_NAME = {"MySQLdb", "gunicorn"}


LOCAL = ("-e ", "./")  # a project of this repository, installed from its folder


def requirement_lines(path: Path) -> list[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("-r")]


def names_in(path: Path) -> set[str]:
    return {
        normalise(re.split(r"[=<>!~\[; ]", line)[0])
        for line in requirement_lines(path)
        if not line.startswith(LOCAL)
    }


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def product_modules() -> set[str]:
    """Top-level modules the product's code imports, or names in its settings."""
    files = [ROOT / "manage.py"] + [f for folder in PRODUCT for f in (ROOT / folder).rglob("*.py")]
    modules = set(LOADED_BY_NAME)
    for file in files:
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    modules |= {name.split(".")[0] for name in [*settings.INSTALLED_APPS, *settings.MIDDLEWARE]}
    first_party = {path.name for path in ROOT.iterdir() if path.is_dir()} | {"manage"}
    return modules - set(sys.stdlib_module_names) - first_party - {"__future__"}


def test_every_package_the_product_imports_is_a_runtime_requirement():
    runtime = names_in(ROOT / "requirements.txt")
    distributions = packages_distributions()
    missing = {
        module: distributions.get(module)
        for module in product_modules()
        if not {normalise(d) for d in distributions.get(module, [])} & runtime
    }
    assert missing == {}


def test_the_runtime_requirements_hold_no_test_or_benchmark_package():
    assert names_in(ROOT / "requirements.txt") & DEV_ONLY == set()


def test_the_dev_requirements_add_the_tests_packages_to_the_runtime():
    dev = ROOT / "requirements-dev.txt"
    lines = [line for line in dev.read_text().splitlines() if not line.startswith("#")]
    assert lines[0] == "-r requirements.txt"
    assert names_in(dev) >= DEV_ONLY
    assert names_in(dev) & names_in(ROOT / "requirements.txt") == set()  # pinned once


def test_every_requirement_is_pinned_exactly_but_the_repositorys_own_client():
    for path in (ROOT / "requirements.txt", ROOT / "requirements-dev.txt"):
        loose = [
            line
            for line in requirement_lines(path)
            if not line.startswith(LOCAL) and not re.fullmatch(r"[\w.\-\[\]]+==[\w.]+", line)
        ]
        assert loose == [], path.name


def test_the_dev_requirements_install_the_client_from_this_repository():
    assert "-e ./client" in requirement_lines(ROOT / "requirements-dev.txt")
    assert "-e ./client" not in (ROOT / "requirements.txt").read_text()
