"""Jobs that finished two hours ago, ready for the archiver, and which of them the queue
still holds: the archiver's outage tests (one node or a cluster) start from these."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job


def make_finished_jobs(tenant, task, count: int) -> set:
    """`count` succeeded jobs of `task`, each a second apart; their ids."""
    finished = datetime.now(UTC) - timedelta(hours=2)
    Job.objects.bulk_create(
        Job(
            tenant=tenant,
            task=task,
            scheduled_at=finished - timedelta(seconds=n),
            next_attempt_at=finished - timedelta(seconds=n),
            status="succeeded",
            attempt=1,
            finished_at=finished,
            http_status=200,
        )
        for n in range(count)
    )
    return set(Job.objects.filter(task=task).values_list("id", flat=True))


def queued(ids: set) -> set:
    """The ones the queue (the jobs table) still holds."""
    return set(Job.objects.filter(id__in=ids).values_list("id", flat=True))
