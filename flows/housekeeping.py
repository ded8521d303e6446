"""The flows' rows nobody needs any more, removed by the reconciler in bounded batches:

- `flow_calls` of calls no longer out (their job is not running that attempt: handed back,
  its lease expired and reconciled, cancelled). They never count (flows/counts.py joins
  through jobs); removed only so the table stays the size of the calls in flight.
- `flow_starts` older than their flow's period plus the guard (no window reads them), and
  those of deleted flows.
- the flows of those calls get a look for their parked jobs (a call handed back or a lease
  that expired gave room without a result, which is what plans a look otherwise), and the
  jobs parked in a flow that is gone (its tenant deleted) go back to pending.
- `flow_waits` of jobs no longer `throttled` (cancelled, or their task deleted while they
  waited), which would take a place of their flow's release. Only once the job has been
  left alone for a while: a job parked again right now keeps its row.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import reduce
from operator import or_

from django.db import connection
from django.db.models import Q

from flows.models import Flow, FlowCall, FlowStart, FlowWait
from flows.room import window_span
from jobs.models import Job, JobStatus
from scheduler_site.sqltools import datetime_param, uuid_from_db

WAIT_GRACE_SECONDS = 60

STALE_CALLS = """
SELECT c.job_id, c.attempt, c.flow_id FROM flow_calls AS c LEFT JOIN jobs AS j ON j.id = c.job_id
WHERE j.id IS NULL OR j.status <> 'running' OR j.attempt <> c.attempt
LIMIT %s
"""

ORPHAN_STARTS = """
SELECT s.id FROM flow_starts AS s LEFT JOIN flows AS f ON f.id = s.flow_id
WHERE f.id IS NULL LIMIT %s
"""

OLD_STARTS = """
SELECT s.id FROM flows AS f JOIN flow_starts AS s ON s.flow_id = f.id
WHERE f.period_seconds = %s AND s.at <= %s LIMIT %s
"""

STALE_WAITS = """
SELECT w.flow_id, w.job_id FROM flow_waits AS w LEFT JOIN jobs AS j ON j.id = w.job_id
WHERE j.id IS NULL OR (j.status <> 'throttled' AND j.updated_at < %s)
LIMIT %s
"""


def purge_stale_calls(*, batch_size: int, now: datetime) -> int:
    with connection.cursor() as cursor:
        cursor.execute(STALE_CALLS, [batch_size])
        rows = cursor.fetchall()
    if not rows:
        return 0
    # By (job, attempt): a job claimed again meanwhile has a new row of its next attempt.
    calls = [Q(job_id=uuid_from_db(job), attempt=attempt) for job, attempt, _ in rows]
    FlowCall.objects.filter(reduce(or_, calls)).delete()
    plan_looks({flow_id for _, _, flow_id in rows}, now=now)
    return len(rows)


def purge_old_starts(*, batch_size: int, now: datetime) -> int:
    with connection.cursor() as cursor:
        cursor.execute(ORPHAN_STARTS, [batch_size])
        ids = [row[0] for row in cursor.fetchall()]
        for period in Flow.objects.values_list("period_seconds", flat=True).distinct():
            if len(ids) >= batch_size:
                break
            cutoff = now - window_span(period)
            cursor.execute(OLD_STARTS, [period, datetime_param(cutoff), batch_size - len(ids)])
            ids += [row[0] for row in cursor.fetchall()]
    if ids:
        FlowStart.objects.filter(id__in=ids).delete()
    return len(ids)


def purge_stale_waits(*, batch_size: int, now: datetime) -> int:
    quiet = datetime_param(now - timedelta(seconds=WAIT_GRACE_SECONDS))
    with connection.cursor() as cursor:
        cursor.execute(STALE_WAITS, [quiet, batch_size])
        rows = cursor.fetchall()
    if not rows:
        return 0
    waits = [Q(flow_id=flow_id, job_id=uuid_from_db(job)) for flow_id, job in rows]
    FlowWait.objects.filter(reduce(or_, waits)).delete()
    return len(rows)


ORPHAN_WAITS = """
SELECT w.flow_id, w.job_id FROM flow_waits AS w LEFT JOIN flows AS f ON f.id = w.flow_id
WHERE f.id IS NULL LIMIT %s
"""


def plan_looks(flow_ids: set[int], *, now: datetime) -> None:
    """A look, now, for those of these flows that hold jobs back and have none planned."""
    parked = FlowWait.objects.filter(flow_id__in=flow_ids).values("flow_id")
    Flow.objects.filter(id__in=parked, release_at__isnull=True).update(release_at=now)


def release_orphan_waits(*, batch_size: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(ORPHAN_WAITS, [batch_size])
        rows = cursor.fetchall()
    if not rows:
        return 0
    jobs = [uuid_from_db(job) for _, job in rows]
    Job.objects.filter(id__in=jobs, status=JobStatus.THROTTLED).update(status=JobStatus.PENDING)
    waits = [Q(flow_id=flow_id, job_id=job) for (flow_id, _), job in zip(rows, jobs, strict=True)]
    FlowWait.objects.filter(reduce(or_, waits)).delete()
    return len(rows)


def flow_housekeeping(*, batch_size: int, now: datetime) -> bool:
    """One batch of each; whether any was full (more may be left)."""
    done = [
        release_orphan_waits(batch_size=batch_size),
        purge_stale_calls(batch_size=batch_size, now=now),
        purge_old_starts(batch_size=batch_size, now=now),
        purge_stale_waits(batch_size=batch_size, now=now),
    ]
    return any(count >= batch_size for count in done)
