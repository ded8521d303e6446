"""Discarding a dead job through the API: out of the DLQ for good (jobs.services.job_discard),
with a 409 that says why for a job the archiver already moved to the history store."""

from __future__ import annotations

import uuid

from jobs.models import Job
from jobs.selectors import archived_job
from jobs.services import job_discard
from scheduler_site.errors import Conflict, NotFound
from tasks.models import Tenant


def discard_dead_job(*, tenant: Tenant, actor: str, job_id: uuid.UUID) -> Job:
    """dead -> cancelled; 409 when not dead or archived, 404 when the tenant has no such job."""
    try:
        return job_discard(tenant=tenant, actor=actor, job_id=job_id)
    except NotFound:
        record = archived_job(tenant, job_id)
        if record is None:
            raise
        raise Conflict(
            f"this job is archived (it is {record.status} in the history store) and can no"
            " longer change; only a dead job still in the queue can be discarded",
            code="archived",
        ) from None
