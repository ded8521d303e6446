"""Tasks: create, read, list, edit, pause, resume, delete, run now, upsert by name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from atcron.models import Job, Task
from atcron.transport import Response, Transport


class TasksApi:
    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def create(self, task: dict[str, Any], *, idempotency_key: str | None = None) -> Task:
        """A new task (`POST /v1/tasks`); a repeated `idempotency_key` returns the first."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return _task(self._http.request("POST", "/v1/tasks", json_body=task, headers=headers))

    def get(self, task_id: str) -> Task:
        return _task(self._http.request("GET", _path(task_id)))

    def list(
        self,
        *,
        status: str | None = None,
        name: str | None = None,
        labels: dict[str, str] | None = None,
        page_size: int | None = None,
    ) -> Iterator[Task]:
        """Every matching task, newest first, page after page as the iteration goes on."""
        params = {
            "status": status,
            "name": name,
            "label": [f"{key}:{value}" for key, value in (labels or {}).items()],
            "limit": page_size,
        }
        for item in self._http.pages("/v1/tasks", params):
            yield Task.from_json(item)

    def update(self, task_id: str, changes: dict[str, Any], *, version: int | None = None) -> Task:
        """Edit with `If-Match`: the given version, else the one read just before (so a
        change made in between is a 412, never overwritten)."""
        version = self._version(task_id) if version is None else version
        answer = self._http.request(
            "PATCH", _path(task_id), json_body=changes, headers=_if_match(version)
        )
        return _task(answer)

    def pause(self, task_id: str, *, version: int | None = None) -> Task:
        return _task(self._http.request("POST", _path(task_id, "pause"), headers=_any(version)))

    def resume(self, task_id: str, *, version: int | None = None) -> Task:
        return _task(self._http.request("POST", _path(task_id, "resume"), headers=_any(version)))

    def delete(self, task_id: str, *, version: int | None = None) -> None:
        version = self._version(task_id) if version is None else version
        self._http.request("DELETE", _path(task_id), headers=_if_match(version))

    def run(self, task_id: str, *, idempotency_key: str | None = None) -> Job:
        """One run now, outside the schedule: the job made (202)."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        answer = self._http.request("POST", _path(task_id, "run"), headers=headers)
        return Job.from_json(answer.body)

    def get_by_name(self, name: str) -> Task:
        """The task of that name (404 if none, 409 if several share it)."""
        return _task(self._http.request("GET", _by_name(name)))

    def put_by_name(self, name: str, task: dict[str, Any]) -> tuple[Task, bool]:
        """Create or replace the task of that name (a full task: a field left out goes back
        to its default); True when it was created."""
        body = {key: value for key, value in task.items() if key != "name"}
        answer = self._http.request("PUT", _by_name(name), json_body=body)
        return _task(answer), answer.status == 201

    def jobs(self, task_id: str, *, page_size: int | None = None) -> Iterator[Job]:
        """The task's runs, queue and history merged, newest first."""
        for item in self._http.pages(_path(task_id, "jobs"), {"limit": page_size}):
            yield Job.from_json(item)

    def _version(self, task_id: str) -> int:
        return self.get(task_id).version


def _task(answer: Response) -> Task:
    return Task.from_json(answer.body)


def _path(task_id: str, action: str = "") -> str:
    path = f"/v1/tasks/{quote(task_id, safe='')}"
    return f"{path}/{action}" if action else path


def _by_name(name: str) -> str:
    return f"/v1/tasks/by-name/{quote(name, safe='')}"


def _if_match(version: int) -> dict[str, str]:
    return {"If-Match": f'"{version}"'}


def _any(version: int | None) -> dict[str, str]:
    # Pause and resume need no precondition; `*` keeps servers that still ask for one happy.
    return {"If-Match": "*"} if version is None else _if_match(version)
