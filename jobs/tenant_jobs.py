"""The jobs a tenant's API reads and acts on: its runs. Callback jobs (the callback lane,
jobs/callbacks/) are the service's deliveries to the tenant, not runs of a task: the API
passes them by everywhere (the DLQ and a task's job lists name the priorities 0-9, and a
callback's id is not found by the job routes), so a callback runs its tries and is gone."""

from __future__ import annotations

from django.db.models import QuerySet

from jobs.models import CALLBACK_PRIORITY, Job
from tasks.models import Tenant


def tenant_runs(tenant: Tenant) -> QuerySet:
    return Job.objects.filter(tenant=tenant, priority__lt=CALLBACK_PRIORITY)
