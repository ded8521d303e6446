"""The SDK is typed (it ships `py.typed`), so what a user's type checker reads must hold:
mypy in strict mode on the package finds nothing, and a caller that misuses a record's
field is caught, as it would be in a user's own code."""

import subprocess
import sys

from tests.processes import ROOT

PACKAGE = ROOT / "client" / "src" / "atcron"


def mypy(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir=/dev/null", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_the_package_passes_mypy_strict():
    result = mypy(str(PACKAGE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_callers_misuse_of_a_record_is_a_type_error(tmp_path):
    caller = tmp_path / "caller.py"
    caller.write_text(
        "from atcron import Client\n"
        "def version(client: Client, task_id: str) -> str:\n"
        "    return client.tasks.get(task_id).version\n"
    )
    result = mypy(str(caller), cwd=tmp_path)
    assert result.returncode == 1 and "caller.py:3: error" in result.stdout, result.stdout
