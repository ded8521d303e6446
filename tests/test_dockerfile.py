"""The Dockerfile (no Docker engine runs here, so read as text): a builder stage compiles the
wheels; the stage that becomes the image has no compiler, installs the runtime requirements
only, and gives its unprivileged user a writable data folder for the default database."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_TOOLS = re.compile(r"\b(gcc|g\+\+|cc|clang|make|build-essential|pkg-config|[\w.+-]+-dev)\b")


def stages() -> list[list[str]]:
    """Each stage's instructions, continuation lines joined, comments left out."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line.strip() for line in text.splitlines() if not line.lstrip().startswith("#")]
    instructions = re.sub(r"\\\n", " ", "\n".join(lines)).splitlines()
    result: list[list[str]] = []
    for instruction in filter(None, instructions):
        if instruction.startswith("FROM "):
            result.append([])
        result[-1].append(re.sub(r"\s+", " ", instruction))
    return result


@pytest.fixture(scope="module")
def final() -> list[str]:
    return stages()[-1]


def test_the_image_is_built_in_two_stages():
    builder, _ = stages()
    assert builder[0].endswith("AS builder")
    assert any("gcc" in step and "libmariadb-dev" in step for step in builder)
    assert any("pip wheel" in step and "requirements.txt" in step for step in builder)


def test_the_final_stage_installs_no_compiler_or_headers(final):
    installs = [step for step in final if step.startswith("RUN") and "apt-get install" in step]
    assert installs and all("libmariadb3" in step for step in installs)
    assert [BUILD_TOOLS.findall(step) for step in installs] == [[] for _ in installs]


def test_the_final_stage_installs_the_runtime_wheels_only(final):
    [pip] = [step for step in final if "pip install" in step]
    assert "--no-index" in pip and "requirements.txt" in pip and "requirements-dev" not in pip
    assert any(step.startswith("COPY --from=builder") for step in final)


def test_the_unprivileged_user_owns_the_data_folder_of_the_default_database(final):
    user = [step for step in final if step.startswith("USER ")]
    assert user == ["USER scheduler"]
    assert any("chown scheduler /data" in step for step in final)
    assert "ENV DATABASE_URL=sqlite:////data/db.sqlite3" in final
