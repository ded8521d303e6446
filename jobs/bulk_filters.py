"""The filter of a bulk action (POST /v1/dlq/retry, POST /v1/jobs/cancel): which of the
tenant's jobs it matches.

Every criterion given must match. At least one is required: a body of `{}` (or one holding
only `dry_run`) is a 400, never "every job" by accident; to mean every job, say so with a
bound, e.g. `scheduled_before` an instant in the future. The callbacks' lane (priority 10)
is never matched: a tenant does not see those jobs in any list either.
"""

from __future__ import annotations

import uuid

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from jobs.dead_letters import TENANT_PRIORITIES, tenant_dead_runs
from jobs.error_text import with_error_containing
from jobs.models import Job, JobStatus
from scheduler_site.errors import ValidationFailed
from tasks.label_filters import LABEL_FORMAT, parse_labels, with_labels
from tasks.labels import MAX_LABELS
from tasks.models import Tenant
from tasks.serializers import AwareDateTimeField, StrictSerializer

MAX_IDS = 1000
CRITERIA = ("task_id", "scheduled_before", "scheduled_after", "error_contains", "label", "ids")


LABEL_FILTER_SCHEMA = {
    "oneOf": [
        {"type": "string", "example": "env:prod"},
        {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_LABELS},
    ]
}


@extend_schema_field(LABEL_FILTER_SCHEMA)
class LabelFilterField(serializers.Field):
    """`key:value`, or a list of them (every one must match)."""

    def to_internal_value(self, data) -> dict[str, str]:
        raws = [data] if isinstance(data, str) else data
        if not isinstance(raws, list) or not raws or len(raws) > MAX_LABELS:
            raise serializers.ValidationError(f"{LABEL_FORMAT}, or a list of 1 to {MAX_LABELS}")
        try:
            return parse_labels(raws)
        except ValidationFailed as exc:
            raise serializers.ValidationError(exc.fields["label"]) from exc


class BulkFilterInput(StrictSerializer):
    task_id = serializers.UUIDField(required=False, help_text="the jobs of this task")
    scheduled_before = AwareDateTimeField(
        required=False, help_text="scheduled strictly before this instant"
    )
    scheduled_after = AwareDateTimeField(
        required=False, help_text="scheduled strictly after this instant"
    )
    error_contains = serializers.CharField(
        required=False,
        min_length=1,
        max_length=500,
        trim_whitespace=False,
        help_text="the job's last error holds this text (case-insensitive, accent-sensitive)",
    )
    label = LabelFilterField(
        required=False, help_text="`key:value`, or a list of them; every one must match"
    )
    ids = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        max_length=MAX_IDS,
        help_text=f"at most {MAX_IDS:,} job ids",
    )
    dry_run = serializers.BooleanField(
        required=False, default=False, help_text="answer the count only; change nothing"
    )

    def validate(self, attrs: dict) -> dict:
        if not any(name in attrs for name in CRITERIA):
            raise serializers.ValidationError(
                {"filter": f"give at least one of {', '.join(CRITERIA)}"}
            )
        return attrs


def matching_jobs(*, tenant: Tenant, criteria: dict, statuses) -> QuerySet:
    """The tenant's jobs in `statuses` matching every criterion given."""
    query = tenant_jobs_in(tenant, list(statuses))
    if "task_id" in criteria:
        query = query.filter(task_id=criteria["task_id"])
    if "scheduled_before" in criteria:
        query = query.filter(scheduled_at__lt=criteria["scheduled_before"])
    if "scheduled_after" in criteria:
        query = query.filter(scheduled_at__gt=criteria["scheduled_after"])
    if "error_contains" in criteria:
        query = with_error_containing(query, criteria["error_contains"])
    if "ids" in criteria:
        query = query.filter(id__in=criteria["ids"])
    return with_labels(query, criteria.get("label") or {})


def tenant_jobs_in(tenant: Tenant, statuses: list) -> QuerySet:
    if statuses == [JobStatus.DEAD]:  # the DLQ's index: each batch of the walk one range
        return tenant_dead_runs(tenant.id)
    return Job.objects.filter(
        status__in=statuses, priority__in=TENANT_PRIORITIES, tenant_id=tenant.id
    )


def filter_as_given(criteria: dict) -> dict:
    """The criteria as JSON, for the audit entry."""
    shown = {}
    for name in CRITERIA:
        if name not in criteria:
            continue
        value = criteria[name]
        if name == "label":
            value = [f"{key}:{val}" for key, val in value.items()]
        elif name == "ids":
            value = [str(job_id) for job_id in value]
        elif isinstance(value, uuid.UUID):
            value = str(value)
        elif hasattr(value, "isoformat"):
            value = value.isoformat()
        shown[name] = value
    return shown
