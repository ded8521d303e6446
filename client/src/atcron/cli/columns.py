"""The table columns of each kind of record."""

from __future__ import annotations

from atcron.cli.output import Column
from atcron.models import Task


def schedule(task: Task) -> str:
    if task.cron:
        return f"{task.cron} ({task.timezone})"
    if task.interval_seconds:
        return f"every {task.interval_seconds}s"
    return f"at {task.raw.get('run_at')}"


TASK: list[Column] = [
    ("ID", lambda t: t.id),
    ("NAME", lambda t: t.name),
    ("STATUS", lambda t: t.status),
    ("SCHEDULE", schedule),
    ("NEXT RUN", lambda t: t.next_run_at),
    ("URL", lambda t: t.url),
]
JOB: list[Column] = [
    ("ID", lambda j: j.id),
    ("TASK", lambda j: j.task_id),
    ("STATUS", lambda j: j.status),
    ("SCHEDULED", lambda j: j.scheduled_at),
    ("ATTEMPT", lambda j: f"{j.attempt}/{j.max_attempts}"),
    ("HTTP", lambda j: j.http_status),
    ("ERROR", lambda j: j.error),
]
ATTEMPT: list[Column] = [
    ("ATTEMPT", lambda a: a.attempt),
    ("STARTED", lambda a: a.started_at),
    ("OUTCOME", lambda a: a.outcome),
    ("HTTP", lambda a: a.http_status),
    ("MS", lambda a: a.duration_ms),
    ("ERROR", lambda a: a.error),
]
SECRET: list[Column] = [
    ("NAME", lambda s: s.name),
    ("ALLOWED HOSTS", lambda s: s.allowed_hosts),
    ("UPDATED", lambda s: s.updated_at),
]
KEY: list[Column] = [
    ("ID", lambda k: k.id),
    ("NAME", lambda k: k.name),
    ("SCOPE", lambda k: k.scope),
    ("PREFIX", lambda k: k.prefix),
    ("CREATED", lambda k: k.created_at),
    ("LAST USED", lambda k: k.last_used_at),
    ("EXPIRES", lambda k: k.expires_at),
]
APPLIED: list[Column] = [
    ("NAME", lambda r: r.name),
    ("ACTION", lambda r: r.action),
    ("ID", lambda r: r.task.id),
    ("VERSION", lambda r: r.task.version),
]
