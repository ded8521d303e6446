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


def on_task(event: Event, rule: Rule) -> None:
    """Run `rule(task_id=...)` whenever a task is `event`; registering twice is harmless."""
    if rule not in _rules[event]:
        _rules[event].append(rule)


def task_changed(event: Event, task_id: uuid.UUID) -> None:
    for rule in _rules[event]:
        rule(task_id=task_id)
