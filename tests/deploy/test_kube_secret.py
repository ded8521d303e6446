"""scripts/kube_secret.py: the Secret of the keys, filled from the environment only."""

import subprocess

import yaml

from tests.processes import ROOT

SCRIPT = "scripts/kube_secret.py"
NAMES = ("DATABASE_URL", "SECRET_KEY", "JWT_SIGNING_KEY", "SECRETS_ENCRYPTION_KEYS")


def run(environ: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([SCRIPT], cwd=ROOT, env=environ, capture_output=True, text=True)


def test_each_value_reaches_the_secret_as_it_was_given():
    # Characters YAML would read otherwise: a colon and space, a comment, quotes.
    values = {name: f"{name.lower()}: #'\"x" for name in NAMES}
    filled = run(values)
    assert filled.returncode == 0, filled.stderr
    assert yaml.safe_load(filled.stdout)["stringData"] == values


def test_a_missing_value_is_refused_naming_it():
    values = {name: "x" for name in NAMES if name != "JWT_SIGNING_KEY"}
    filled = run(values)
    assert filled.returncode != 0 and filled.stdout == ""
    assert "JWT_SIGNING_KEY" in filled.stderr
