"""Acting on every job a bulk filter matches (jobs/bulk_filters.py), in bounded batches.

The matching ids are read BATCH_SIZE at a time in id order, each batch acted on in its own
transaction by the rule of the single-job route (jobs/bulk_retry.py, jobs/bulk_cancel.py),
so no request holds locks on thousands of rows. The walk stops at the newest id matching
when the request began: jobs made meanwhile (the tick goes on) are not chased.

The one audit entry is written in the transaction of the last batch, with the count acted
on: the count is then exact (refusals and races taken off), and the entry commits with the
last of the change. A request that dies between two batches leaves the batches before it
done without an entry; one written up front would instead claim a count that never
happened, for a change that can be retried at once (a repeat matches only what is left).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import QuerySet

from audit.record import record
from jobs.bulk_cancel import jobs_cancel_waiting
from jobs.bulk_retry import jobs_retry_dead
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
    """Act on every job `matching` holds; the audit entry goes with the last batch."""
    batch_size = batch_size or BATCH_SIZE
    outcome = BulkOutcome()
    newest = matching.order_by("-id").values_list("id", flat=True).first()
    ids = matching.filter(id__lte=newest) if newest else matching.none()
    ids = ids.order_by("id").values_list("id", flat=True)
    after = None
    while True:
        batch = list((ids.filter(id__gt=after) if after else ids)[:batch_size])
        with transaction.atomic():
            if batch:
                count, refused = act(batch)
                outcome.count += count
                outcome.refused.update(refused)
            if len(batch) < batch_size:
                _audit(tenant, note, outcome)
                return outcome
        after = batch[-1]


def _audit(tenant: Tenant, note: AuditNote, outcome: BulkOutcome) -> None:
    changes = {"filter": note.filter, "count": outcome.count}
    if outcome.refused:
        changes["refused"] = dict(outcome.refused)
    record(tenant_id=tenant.id, actor=note.actor, action=note.action, target="", changes=changes)
