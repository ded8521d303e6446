"""A claimed job built in memory, for tests of the executor's parts that need no queue row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jobs.queue import ClaimedJob
from scheduler_site.ids import new_id
from tasks.models import new_signing_secret


def claimed_job(
    url: str,
    *,
    tenant: str = "t",
    due_in: float = 0.0,
    priority: int = 5,
    timeout_seconds: int = 30,
    lease: timedelta = timedelta(minutes=5),
) -> ClaimedJob:
    """A first attempt of its own task (the task's id is the job's), due in `due_in` s."""
    now = datetime.now(UTC)
    job_id = str(new_id())
    return ClaimedJob(
        key=job_id,
        id=job_id,
        tenant_id=tenant,
        task_id=job_id,
        scheduled_at=now,
        attempt=1,
        max_attempts=1,
        next_attempt_at=now + timedelta(seconds=due_in),
        timeout_seconds=timeout_seconds,
        backoff_base_seconds=1,
        priority=priority,
        url=url,
        method="POST",
        headers={},
        body="",
        secret_ref=None,
        signing_secret=new_signing_secret(),
        task_status="active",
        lease_expires_at=now + lease,
    )
