"""A YAML file of tasks applied by name: each is created or replaced through
`PUT /v1/tasks/by-name/{name}`, so applying the same file again changes nothing.

The file is a list of tasks, or a mapping with a `tasks` list:

    tasks:
      - name: nightly-report
        cron: "0 3 * * *"
        url: https://example.com/report
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from atcron.errors import ApiError, ConfigError
from atcron.models import ApplyResult
from atcron.tasks import TasksApi


def load_tasks(path: Path) -> list[dict[str, Any]]:
    """The file's tasks, each with a unique name, checked before anything is sent."""
    try:
        document = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    tasks = document.get("tasks") if isinstance(document, dict) else document
    if not isinstance(tasks, list):
        raise ConfigError(f"{path}: expected a list of tasks, or a mapping with `tasks:`")
    seen: set[str] = set()
    for index, task in enumerate(tasks):
        name = task.get("name") if isinstance(task, dict) else None
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{path}: task {index + 1} has no `name` (apply works by name)")
        if name in seen:
            raise ConfigError(f"{path}: the name {name!r} is given twice")
        seen.add(name)
    return tasks


def apply_tasks(api: TasksApi, tasks: list[dict[str, Any]]) -> list[ApplyResult]:
    return [apply_task(api, task) for task in tasks]


def apply_task(api: TasksApi, task: dict[str, Any]) -> ApplyResult:
    before = _version_of(api, task["name"])
    saved, created = api.put_by_name(task["name"], task)
    if created:
        return ApplyResult(task["name"], "created", saved)
    return ApplyResult(task["name"], "unchanged" if saved.version == before else "updated", saved)


def _version_of(api: TasksApi, name: str) -> int | None:
    """The version before the write, to tell an update from a repeat (None: no such task;
    several of the name are the PUT's own 409)."""
    try:
        return api.get_by_name(name).version
    except ApiError as exc:
        if exc.status in (404, 409):
            return None
        raise


def apply_file(api: TasksApi, path: Path) -> list[ApplyResult]:
    return apply_tasks(api, load_tasks(path))
