"""Acting on every job a bulk filter matches (jobs/bulk_filters.py), in bounded batches.

The matching ids are read BATCH_SIZE at a time in id order, each batch acted on in its own
transaction by the rule of the single-job route (jobs/bulk_retry.py, jobs/bulk_cancel.py),
so no request holds locks on thousands of rows. The walk stops at the newest id matching
when the request began: jobs made meanwhile (the tick goes on) are not chased.

Each batch writes its own audit entry in its own transaction, with the count that batch
acted on, the request's `operation` id and the batch's number (from 1): a request that dies
between two batches leaves every committed batch recorded, and the entries of one request
are found together by `operation`. A call acting on one batch or fewer is one entry; a call
matching nothing is one entry with count 0, so every call is on record.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from django.db import transaction
from django.db.models import QuerySet

from audit.record import record
from jobs.bulk_cancel import jobs_cancel_waiting
from jobs.bulk_retry import jobs_retry_dead
from jobs.queue.transactions import retrying_deadlocks
from scheduler_site.sqltools import DEADLOCK
from tasks.models import Tenant

BATCH_SIZE = 500

# A batch's action: the ids of one batch -> (how many it acted on, refusals by reason).
Action = Callable[[list], tuple[int, Counter]]


@dataclass
class BulkOutcome:
    count: int = 0
    refused: Counter = field(default_factory=Counter)


@dataclass(frozen=True)
class AuditNote:
    """What the entry records besides the count."""

    actor: str
    action: str  # dlq.retry or jobs.cancel
    filter: dict


def retry_batch(job_ids: list) -> tuple[int, Counter]:
    outcome = jobs_retry_dead(job_ids=job_ids)
    return outcome.retried, outcome.refused


def cancel_batch_of(tenant: Tenant) -> Action:
    def cancel(job_ids: list) -> tuple[int, Counter]:
        cancelled = jobs_cancel_waiting(tenant_id=tenant.id, job_ids=job_ids)
        return cancelled, +Counter(not_pending=len(job_ids) - cancelled)

    return cancel


def act_on_matching(
    *,
    tenant: Tenant,
    matching: QuerySet,
    act: Action,
    note: AuditNote,
    batch_size: int | None = None,
) -> BulkOutcome:
    """Act on every job `matching` holds; each batch writes its entry in its transaction."""
    batch_size = batch_size or BATCH_SIZE
    outcome = BulkOutcome()
    operation = uuid.uuid4().hex
    newest = matching.order_by("-id").values_list("id", flat=True).first()
    ids = matching.filter(id__lte=newest) if newest else matching.none()
    ids = ids.order_by("id").values_list("id", flat=True)
    after = None
    number = 1
    while True:
        batch = list((ids.filter(id__gt=after) if after else ids)[:batch_size])
        if not batch and number > 1:  # the last batch was full: nothing more to record
            return outcome
        count, refused = retrying_deadlocks(
            partial(_act_on_batch, tenant, note, act, batch, (operation, number)),
            codes=DEADLOCK,  # a lock wait run out is not waited again (sqltools)
        )
        outcome.count += count
        outcome.refused.update(refused)
        if len(batch) < batch_size:
            return outcome
        after = batch[-1]
        number += 1


@transaction.atomic
def _act_on_batch(
    tenant: Tenant, note: AuditNote, act: Callable, batch: list, at: tuple[str, int]
) -> tuple[int, Counter]:
    """One batch and its audit entry, in one transaction, run again whole when the database
    undoes it to break a deadlock: a lost race with a single job's retry or cancel does not
    end the request after its earlier batches committed."""
    count, refused = act(batch) if batch else (0, Counter())
    _audit(tenant, note, BatchNote(*at, count, refused))
    return count, refused


@dataclass(frozen=True)
class BatchNote:
    operation: str
    number: int
    count: int
    refused: Counter


def _audit(tenant: Tenant, note: AuditNote, batch: BatchNote) -> None:
    changes = {
        "filter": note.filter,
        "count": batch.count,
        "operation": batch.operation,
        "batch": batch.number,
    }
    if batch.refused:
        changes["refused"] = dict(batch.refused)
    record(tenant_id=tenant.id, actor=note.actor, action=note.action, target="", changes=changes)
