"""What the API returns, as typed records (`raw` keeps the whole JSON object)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from atcron._model import Record


@dataclass(frozen=True)
class Task(Record):
    id: str
    name: str
    status: str
    cron: str | None
    timezone: str
    run_at: datetime | None
    interval_seconds: int | None
    url: str
    method: str
    headers: dict[str, str]
    body: str
    secret_ref: str | None
    priority: int
    timeout_seconds: int
    max_attempts: int
    backoff_base_seconds: int
    misfire_policy: str
    overlap: str
    starts_at: datetime | None
    ends_at: datetime | None
    max_runs: int | None
    runs_made: int
    skipped_runs: int
    on_success_url: str | None
    on_failure_url: str | None
    labels: dict[str, str]
    flow_key: str | None
    next_run_at: datetime | None
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Job(Record):
    id: str
    task_id: str
    scheduled_at: datetime
    status: str
    attempt: int
    max_attempts: int
    priority: int
    next_attempt_at: datetime | None
    claimed_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    http_status: int | None
    error: str | None
    response_body: str | None
    duration_ms: int | None
    labels: dict[str, str]


@dataclass(frozen=True)
class Attempt(Record):
    attempt: int
    started_at: datetime
    outcome: str
    duration_ms: int | None
    http_status: int | None
    error: str | None
    response_head: str | None


@dataclass(frozen=True)
class BulkResult(Record):
    count: int
    refused: dict[str, int]


@dataclass(frozen=True)
class Secret(Record):
    name: str
    allowed_hosts: list[str]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SigningSecret(Record):
    signing_secret: str
    previous_secret_signs_until: datetime | None


@dataclass(frozen=True)
class ApiKey(Record):
    id: str
    name: str
    scope: str
    prefix: str
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None
    revoked_at: datetime | None
    key: str | None  # the whole key: in the answer to its creation only


@dataclass(frozen=True)
class ApplyResult:
    """One task of an applied file: `created`, `updated`, or `unchanged` (the same body
    again: the server saved nothing, its version did not move)."""

    name: str
    action: str
    task: Task

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "action": self.action, "task": self.task.raw}
