"""Jobs, their attempts, and the dead letter queue."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from atcron.models import Attempt, BulkResult, Job
from atcron.transport import Transport


class JobsApi:
    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def get(self, job_id: str) -> Job:
        return Job.from_json(self._http.request("GET", _path(job_id)).body)

    def list(self, task_id: str, *, page_size: int | None = None) -> Iterator[Job]:
        """The runs of one task, newest first (jobs are listed per task)."""
        path = f"/v1/tasks/{quote(task_id, safe='')}/jobs"
        for item in self._http.pages(path, {"limit": page_size}):
            yield Job.from_json(item)

    def attempts(self, job_id: str) -> builtins.list[Attempt]:
        return [Attempt.from_json(item) for item in self._http.pages(_path(job_id, "attempts"))]

    def cancel(self, job_id: str) -> Job:
        return Job.from_json(self._http.request("POST", _path(job_id, "cancel")).body)


class DlqApi:
    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def list(
        self,
        *,
        task_id: str | None = None,
        labels: dict[str, str] | None = None,
        page_size: int | None = None,
    ) -> Iterator[Job]:
        """The dead jobs, newest first."""
        params = {
            "task_id": task_id,
            "label": [f"{key}:{value}" for key, value in (labels or {}).items()],
            "limit": page_size,
        }
        for item in self._http.pages("/v1/dlq", params):
            yield Job.from_json(item)

    def retry(self, job_id: str) -> Job:
        """A dead job back to pending: same id, a fresh budget of attempts."""
        return Job.from_json(self._http.request("POST", _path(job_id, "retry")).body)

    def discard(self, job_id: str) -> Job:
        """A dead job given up on: it becomes `cancelled`."""
        return Job.from_json(self._http.request("POST", _path(job_id, "discard")).body)

    def retry_all(self, criteria: dict[str, Any]) -> BulkResult:
        """Every dead job the filter matches (`task_id`, `label`, `dry_run`, ...)."""
        answer = self._http.request("POST", "/v1/dlq/retry", json_body=criteria)
        return BulkResult.from_json(answer.body)


def _path(job_id: str, action: str = "") -> str:
    path = f"/v1/jobs/{quote(job_id, safe='')}"
    return f"{path}/{action}" if action else path
