"""`make admin` (scripts/make_admin.py) creates the first operator on a fresh install: no
keys in the environment, no `make run` before it, run from anywhere."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from pathlib import Path

from tests.processes import ROOT

KEYS = ("SECRET_KEY", "JWT_SIGNING_KEY", "SECRETS_ENCRYPTION_KEYS", "DEBUG")


def fresh_env(folder: Path, **extra: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in KEYS}
    env.update(RUN_DIR=str(folder), DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", **extra)
    return env


def make_admin(env: dict[str, str]) -> subprocess.CompletedProcess:
    command = [sys.executable, str(ROOT / "scripts" / "make_admin.py")]
    return subprocess.run(command, cwd="/", env=env, capture_output=True, text=True, timeout=180)


def operator(folder: Path, username: str, password: str) -> str:
    """What the database says of the user, read with the keys make admin left behind."""
    keys = dict(line.split("=", 1) for line in (folder / "keys.env").read_text().splitlines())
    code = (
        "from django.contrib.auth.models import User; "
        f"u = User.objects.get(username={username!r}); "
        f"print(u.is_superuser, u.is_staff, u.check_password({password!r}))"
    )
    command = [sys.executable, "manage.py", "shell", "-c", code]
    env = dict(fresh_env(folder), **keys)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return done.stdout.splitlines()[-1]  # after Django's "N objects imported" line


def test_make_admin_creates_a_superuser_from_the_environment(tmp_path):
    done = make_admin(fresh_env(tmp_path, ADMIN_USER="ops", ADMIN_PASSWORD="a long pass 42"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Superuser created successfully" in done.stdout
    assert "/admin/" in done.stdout
    assert (tmp_path / "keys.env").stat().st_mode & 0o777 == 0o600
    assert operator(tmp_path, "ops", "a long pass 42").split() == ["True", "True", "True"]


def test_make_admin_asks_for_the_operator_at_a_terminal(tmp_path):
    pid, terminal = pty.fork()
    if pid == 0:  # the child: make admin at a terminal, as a person runs it
        os.execve(
            sys.executable,
            [sys.executable, str(ROOT / "scripts/make_admin.py")],
            fresh_env(tmp_path),
        )
    answers = {
        b"Username": b"alice\n",
        b"Email": b"alice@example.com\n",
        b"Password (again)": b"s3cret words here\n",
        b"Password:": b"s3cret words here\n",
    }
    screen = converse(terminal, answers)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, screen
    assert b"Superuser created successfully" in screen
    assert operator(tmp_path, "alice", "s3cret words here").split() == ["True", "True", "True"]


def converse(terminal: int, answers: dict[bytes, bytes], timeout: float = 120) -> bytes:
    """Answer each prompt once, in the order they appear; everything the terminal showed."""
    screen, answered, deadline = b"", 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = os.read(terminal, 1024)
        except OSError:  # the child closed the terminal: it has ended
            return screen
        screen += chunk
        tail = screen[answered:]
        for prompt, answer in answers.items():
            if prompt in tail:
                os.write(terminal, answer)
                answered = len(screen)
                break
    raise AssertionError(f"make admin did not end; the terminal shows {screen!r}")


def test_a_password_without_a_user_is_refused_plainly(tmp_path):
    done = make_admin(fresh_env(tmp_path, ADMIN_PASSWORD="a long pass 42"))
    assert done.returncode == 1
    assert "ADMIN_PASSWORD is set without ADMIN_USER" in done.stderr
    assert "Traceback" not in done.stderr


def test_make_admin_is_a_make_target():
    plan = subprocess.run(["make", "-n", "admin"], cwd=ROOT, capture_output=True, text=True)
    assert "scripts/make_admin.py" in plan.stdout
