"""Callback jobs in the console's job lists: they have no task row (their task_id is their
own id), so the lists read each row's task apart (a callback's reads as none) and name
what a callback reports on (its origin job and event) from its target in `callbacks`.

A callback is shown, never operated on: no retry, cancel or discard (in the API neither).
It runs its own tries, and the run it reports on is what an operator retries: a retried
run that ends again makes a new callback. So the dead letter queue holds runs only."""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery

from jobs.callbacks.lane import is_callback
from jobs.models import CALLBACK_PRIORITY, Callback, Job


def with_callback_origin(jobs: QuerySet) -> QuerySet:
    """The rows with their task read in one query after the page (None for a callback: a
    join would drop it) and, for a callback, the job and event it reports on."""
    target = Callback.objects.filter(job_id=OuterRef("id"))
    return jobs.prefetch_related("task").annotate(
        callback_of=Subquery(target.values("origin_job_id")[:1]),
        callback_event=Subquery(target.values("event")[:1]),
    )


def runs_only(jobs: QuerySet) -> QuerySet:
    return jobs.filter(priority__lt=CALLBACK_PRIORITY)


def callback_target(job: Job) -> Callback | None:
    return Callback.objects.filter(job_id=job.id).first() if is_callback(job) else None
