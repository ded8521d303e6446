"""The SDK's entry point: one client per API and credential."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from atcron.api_keys import ApiKeysApi
from atcron.apply import apply_file, apply_tasks
from atcron.jobs import DlqApi, JobsApi
from atcron.models import ApplyResult
from atcron.secrets import SecretsApi, SigningSecretApi
from atcron.tasks import TasksApi
from atcron.transport import DEFAULT_RETRIES, DEFAULT_TIMEOUT, Transport


class Client:
    """`Client("https://cron.example.com", "acs_...")`; the key may be an API key or a JWT
    (both are sent as `Authorization: Bearer`). A 429 or 503 with a Retry-After of up to a
    minute is sent again after it, up to `retries` times."""

    def __init__(
        self,
        url: str,
        key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        self.transport = Transport(url, key, timeout=timeout, retries=retries)
        self.tasks = TasksApi(self.transport)
        self.jobs = JobsApi(self.transport)
        self.dlq = DlqApi(self.transport)
        self.secrets = SecretsApi(self.transport)
        self.signing_secret = SigningSecretApi(self.transport)
        self.api_keys = ApiKeysApi(self.transport)

    def apply(self, path: str | Path) -> list[ApplyResult]:
        """Create or replace, by name, every task of a YAML file (see `atcron.apply`)."""
        return apply_file(self.tasks, Path(path))

    def apply_tasks(self, tasks: list[dict[str, Any]]) -> list[ApplyResult]:
        return apply_tasks(self.tasks, tasks)

    def close(self) -> None:
        self.transport.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
