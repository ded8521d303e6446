"""`make admin`: create the first operator, a superuser of the console at /admin/.

It works on what `make run` works on: the embedded SQLite database unless DATABASE_URL says
otherwise, and the keys of the environment or else of run/keys.env (RUN_DIR names another
folder), made here if `make run` has not run yet; the database is migrated first. It asks
for a username, an email and a password. For scripts, ADMIN_USER and ADMIN_PASSWORD (and
optionally ADMIN_EMAIL) ask nothing; ADMIN_USER alone asks only for the password.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scripts.local_keys import local_keys  # noqa: E402 - needs the project on the path

RUN_DIR = Path(os.environ.get("RUN_DIR") or ROOT / "run")


def createsuperuser_args(env: dict[str, str]) -> list[str]:
    user, password = os.environ.get("ADMIN_USER"), os.environ.get("ADMIN_PASSWORD")
    if password and not user:
        raise SystemExit("ADMIN_PASSWORD is set without ADMIN_USER: set both, or neither")
    args = ["createsuperuser"]
    if user:
        args += ["--username", user, "--email", os.environ.get("ADMIN_EMAIL", "")]
    if user and password:
        env["DJANGO_SUPERUSER_PASSWORD"] = password  # read by createsuperuser --noinput
        args.append("--noinput")
    return args


def main() -> int:
    env = dict(os.environ, **local_keys(RUN_DIR))
    manage = [sys.executable, "manage.py"]
    migrated = subprocess.run(
        [*manage, "migrate", "--noinput"], cwd=ROOT, env=env, text=True, capture_output=True
    )
    if migrated.returncode != 0:
        sys.stderr.write(migrated.stdout + migrated.stderr)
        return migrated.returncode
    created = subprocess.run([*manage, *createsuperuser_args(env)], cwd=ROOT, env=env)
    if created.returncode == 0:
        port = os.environ.get("PORT", "8000")
        print(f"Log in at http://127.0.0.1:{port}/admin/ (after `make run`).")
    return created.returncode


if __name__ == "__main__":
    sys.exit(main())
