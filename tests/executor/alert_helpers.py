"""Dead jobs of tasks whose tenant has an on_failure_url, and the alerts they made."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from jobs.models import Callback, CallbackEvent, Job
from scheduler_site.ids import new_id
from tasks.models import Task
from tasks.services import bucket_for

ALERT_URL = "https://93.184.216.34/alerts"


def alerting_task(tenant) -> Task:
    if tenant.on_failure_url != ALERT_URL:
        tenant.on_failure_url = ALERT_URL
        tenant.save(update_fields=["on_failure_url"])
    task_id = new_id()
    return Task.objects.create(
        id=task_id, tenant=tenant, url="https://93.184.216.34/hook", run_at=datetime.now(UTC),
        status="completed", bucket=bucket_for(task_id),
    )  # fmt: skip


def dead_jobs(task: Task, count: int) -> list[Job]:
    """`count` jobs of the task that died just now (their last attempt failed)."""
    now = datetime.now(UTC)
    return Job.objects.bulk_create(
        Job(
            id=new_id(), tenant_id=task.tenant_id, task=task,
            scheduled_at=now - timedelta(seconds=index + 1), next_attempt_at=now,
            status="dead", attempt=1, max_attempts=1, http_status=500, error="HTTP 500",
            finished_at=now - timedelta(milliseconds=count - index),
        )
        for index in range(count)
    )  # fmt: skip


def alerts_of(task: Task) -> list[tuple[Job, dict]]:
    """The task's alert jobs, oldest due first, each with its body."""
    callbacks = {
        c.job_id: c for c in Callback.objects.filter(task_id=task.id, event=CallbackEvent.ALERT)
    }
    jobs = Job.objects.filter(id__in=list(callbacks)).order_by("scheduled_at")
    return [(job, json.loads(callbacks[job.id].body)) for job in jobs]
