"""Jobs in given states for the bulk action tests, made straight in the jobs table."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def add_job(task, minutes: int, status: str = "dead", **fields) -> Job:
    moment = T0 + timedelta(minutes=minutes)
    finished = status in ("dead", "succeeded", "cancelled")
    return Job.objects.create(
        tenant_id=task.tenant_id,
        task_id=task.id,
        scheduled_at=moment,
        next_attempt_at=moment,
        status=status,
        attempt=fields.pop("attempt", 1 if finished else 0),
        max_attempts=fields.pop("max_attempts", 1),
        finished_at=moment if finished else None,
        **fields,
    )


def statuses(*jobs: Job) -> list[str]:
    by_id = dict(Job.objects.filter(id__in=[job.id for job in jobs]).values_list("id", "status"))
    return [by_id[job.id] for job in jobs]


def at(minutes: int) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()
