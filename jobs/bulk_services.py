"""The two bulk use cases of the API: retry the dead jobs a filter matches, cancel the
waiting ones. Each request costs one creation token, as run now and backfill do, whatever
it matches (a dry run too: it reads as much); a stopped tenant's retry is refused (409) as
a single retry is."""

from __future__ import annotations

from jobs.bulk_actions import (
    AuditNote,
    BulkOutcome,
    act_on_matching,
    cancel_batch_of,
    retry_batch,
)
from jobs.bulk_filters import filter_as_given, matching_jobs
from jobs.models import JobStatus
from jobs.services import WAITING
from tasks.models import Tenant
from tasks.rate_limit import take_creation_token
from tasks.tenants import refuse_if_stopped


def dlq_retry(*, tenant: Tenant, criteria: dict, dry_run: bool, actor: str) -> BulkOutcome:
    """Every matching dead job back to pending, as POST /v1/jobs/{id}/retry does one."""
    refuse_if_stopped(tenant)
    take_creation_token(tenant)
    matching = matching_jobs(tenant=tenant, criteria=criteria, statuses=[JobStatus.DEAD])
    if dry_run:
        return BulkOutcome(count=matching.count())
    note = AuditNote(actor=actor, action="dlq.retry", filter=filter_as_given(criteria))
    return act_on_matching(tenant=tenant, matching=matching, act=retry_batch, note=note)


def jobs_cancel(*, tenant: Tenant, criteria: dict, dry_run: bool, actor: str) -> BulkOutcome:
    """Every matching pending, held or waiting job cancelled, as POST /v1/jobs/{id}/cancel
    does one (a running job is left to finish)."""
    take_creation_token(tenant)
    matching = matching_jobs(tenant=tenant, criteria=criteria, statuses=WAITING)
    if dry_run:
        return BulkOutcome(count=matching.count())
    note = AuditNote(actor=actor, action="jobs.cancel", filter=filter_as_given(criteria))
    act = cancel_batch_of(tenant)
    return act_on_matching(tenant=tenant, matching=matching, act=act, note=note)
