"""One long-running container of the image (a process of the system), removed by stop()."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

from tests.image.podman import IMAGE, OWNER, RUN_OPTIONS


class Container:
    def __init__(
        self, role: str, env_file: Path, command: list[str], env: dict[str, str] | None = None
    ) -> None:
        self.name = f"scheduler-test-{role}-{uuid.uuid4().hex[:8]}"
        extra = [f"--env={key}={value}" for key, value in (env or {}).items()]
        subprocess.run(
            ["podman", "run", "--detach", "--name", self.name, "--label", OWNER, *RUN_OPTIONS,
             "--env-file", str(env_file), *extra, IMAGE, *command],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip

    def running(self) -> bool:
        state = subprocess.run(
            ["podman", "inspect", "--format", "{{.State.Running}}", self.name],
            capture_output=True, text=True,
        )  # fmt: skip
        return state.stdout.strip() == "true"

    def logs(self, lines: int = 40) -> str:
        out = subprocess.run(
            ["podman", "logs", "--tail", str(lines), self.name], capture_output=True, text=True
        )
        return f"--- {self.name} ---\n{out.stdout}{out.stderr}"

    def stop(self) -> None:
        subprocess.run(["podman", "rm", "--force", "--time", "10", self.name], capture_output=True)
