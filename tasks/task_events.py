"""What becomes of a task's jobs when the task is paused, resumed or deleted.

The tasks app knows nothing of the jobs that its tasks make (jobs depends on tasks, never
the reverse): the jobs app registers its rules here when it starts (`jobs/apps.py`), and
the task use cases announce each change inside their own transaction, so a task and its
jobs always change together.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Literal

Event = Literal["paused", "resumed", "deleted"]
Rule = Callable[..., object]

_rules: dict[str, list[Rule]] = {"paused": [], "resumed": [], "deleted": []}
_waiting_checks: list[Callable[..., bool]] = []


def on_task(event: Event, rule: Rule) -> None:
    """Run `rule(task_id=...)` whenever a task is `event`; registering twice is harmless."""
    if rule not in _rules[event]:
        _rules[event].append(rule)


def task_changed(event: Event, task_id: uuid.UUID) -> None:
    for rule in _rules[event]:
        rule(task_id=task_id)


def on_waiting_jobs_question(check: Callable[..., bool]) -> None:
    """`check(task_id=...)` tells whether a task has a job still to run (see below)."""
    if check not in _waiting_checks:
        _waiting_checks.append(check)


def task_has_waiting_jobs(task_id: uuid.UUID) -> bool:
    """Whether a job of the task still waits for its call (its first or a retry), so that
    pausing it means something after the task itself is done making runs."""
    return any(check(task_id=task_id) for check in _waiting_checks)
