"""The Dockerfile read as text (tests/image/ builds and runs it): a builder stage compiles the
runtime requirements into a virtualenv; the stage that becomes the image has no compiler,
takes that virtualenv only, and gives its unprivileged user a writable data folder for the
default database; both stages build on the base named by the build argument BASE_IMAGE."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_TOOLS = re.compile(r"\b(gcc|g\+\+|cc|clang|make|build-essential|pkg-config|[\w.+-]+-dev)\b")


def instructions() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = (ROOT / "Dockerfile").read_text()
    lines = [line.strip() for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines)).splitlines()
    return [re.sub(r"\s+", " ", instruction) for instruction in filter(None, joined)]


def stages() -> list[list[str]]:
    """Each stage's instructions (what comes before the first FROM is no stage's)."""
    result: list[list[str]] = []
    for instruction in instructions():
        if instruction.startswith("FROM "):
            result.append([])
        if result:
            result[-1].append(instruction)
    return result


@pytest.fixture(scope="module")
def final() -> list[str]:
    return stages()[-1]


def test_the_image_is_built_in_two_stages():
    builder, _ = stages()
    assert builder[0].endswith("AS builder")
    assert any("gcc" in step and "libmariadb-dev" in step for step in builder)
    assert "RUN python3.11 -m venv /opt/venv" in builder
    pips = [step for step in builder if "/opt/venv/bin/pip install" in step]
    assert len(pips) == 1 and "-r /build/requirements.txt" in pips[0]


def test_both_stages_build_on_the_base_named_by_the_build_argument():
    assert instructions()[0] == "ARG BASE_IMAGE=python:3.11-slim"
    assert [stage[0].split()[1] for stage in stages()] == ["${BASE_IMAGE}", "${BASE_IMAGE}"]


def test_the_builder_installs_what_a_debian_python_lacks_only_when_it_lacks_it():
    builder, _ = stages()
    [install] = [step for step in builder if "apt-get install" in step]
    assert "import ensurepip" in install and "python3.11-venv" in install
    assert "Python.h" in install and "python3.11-dev" in install


def test_the_final_stage_installs_no_compiler_or_headers(final):
    installs = [step for step in final if step.startswith("RUN") and "apt-get install" in step]
    assert installs and all("libmariadb3" in step for step in installs)
    assert [BUILD_TOOLS.findall(step) for step in installs] == [[] for _ in installs]


def test_the_final_stage_takes_the_builders_virtualenv_of_runtime_requirements_only(final):
    assert "COPY --from=builder /opt/venv /opt/venv" in final
    assert not any("pip install" in step for step in final)
    assert any(step.startswith("ENV PATH=/opt/venv/bin:") for step in final)
    builder, _ = stages()
    assert not any("requirements-dev" in step for step in builder)


def test_the_unprivileged_user_owns_the_data_folder_of_the_default_database(final):
    user = [step for step in final if step.startswith("USER ")]
    assert user == ["USER scheduler"]
    assert any("chown scheduler /data" in step for step in final)
    assert "ENV DATABASE_URL=sqlite:////data/db.sqlite3" in final
